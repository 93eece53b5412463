import { isDeepStrictEqual } from 'node:util';
import fastJsonStringify from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { createSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * How a reply with a schema becomes JSON (decision 037, issue 33).
 *
 * - `compiled` (production): by a serializer compiled once per schema from its JSON
 *   Schema (fast-json-stringify), which writes the schema's fields and nothing else. A field the
 *   schema does not name never leaves, as with zod's encode, at a fifth of the cost: the reply is
 *   not validated again on its way out. An optional field comes after the required ones (the
 *   same JSON, in another order).
 * - `checked` (development and tests): zod's encode validates the reply as before (a reply that
 *   does not match its schema is a 500), and the compiled serializer must write the same JSON (the
 *   same values, its keys in any order), or the reply fails: every API and e2e test holds the
 *   compiled serializer to the contract.
 *
 * A schema whose JSON Schema the compiled serializer cannot be trusted with (a union of objects,
 * anything zod cannot express as JSON Schema) is encoded by zod alone, as before.
 */
export type ReplySerialization = 'compiled' | 'checked';

type Schema = z.ZodType;
type Serialize = (data: unknown) => string;

// one compiled serializer per schema, shared by every app in the process (tests build many)
const compiled = new WeakMap<Schema, Serialize | null>();

/** The keywords a compiled serializer writes faithfully; a schema with any other is left to zod. */
const TRUSTED = new Set([
  '$schema',
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'format',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'description',
  'default',
  'title',
  'examples',
  'anyOf',
  // a record's keys: its values are written as additionalProperties
  'propertyNames',
]);

/**
 * Whether every part of a JSON Schema is one the compiled serializer writes as zod would: objects,
 * arrays and scalars, and `anyOf` only to make a part nullable. A value inside `properties` or an
 * enum is data, not a keyword.
 */
function trusted(node: unknown): boolean {
  if (typeof node !== 'object' || node === null) return true;
  if (Array.isArray(node)) return node.every(trusted);
  for (const [key, value] of Object.entries(node)) {
    if (!TRUSTED.has(key)) return false;
    if (key === 'properties') {
      if (!Object.values(value as object).every(trusted)) return false;
    } else if (key === 'anyOf') {
      const branches = value as unknown[];
      const nulls = branches.filter((b) => (b as { type?: unknown }).type === 'null');
      if (branches.length !== 2 || nulls.length !== 1) return false;
      if (!branches.every(trusted)) return false;
    } else if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples') {
      continue;
    } else if (!trusted(value)) return false;
  }
  return true;
}

/** The compiled serializer of a schema, or null when it is left to zod. */
function compile(schema: Schema): Serialize | null {
  if (compiled.has(schema)) return compiled.get(schema)!;
  let serialize: Serialize | null = null;
  try {
    const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'throw', target: 'draft-2020-12' });
    if (trusted(json)) serialize = fastJsonStringify(json as Parameters<typeof fastJsonStringify>[0]);
  } catch {
    serialize = null;
  }
  compiled.set(schema, serialize);
  return serialize;
}

/** The reply serializer of the app: compiled in production, checked against zod's elsewhere. */
export function replySerializerCompiler(mode: ReplySerialization): FastifySerializerCompiler<unknown> {
  const byZod = createSerializerCompiler({});
  return (route) => {
    const validated = byZod(route as Parameters<typeof byZod>[0]) as Serialize;
    // a route's schema is the zod type itself, or (as the type provider allows) under `properties`
    const given = route.schema as unknown;
    const schema = (given instanceof z.ZodType ? given : (given as { properties: Schema }).properties) as Schema;
    // compiled on the route's first reply, not when the app starts (tests start hundreds of apps)
    let serialize: Serialize | null | undefined;
    // the route, never the reply's content, in its errors: they are logged, and a reply holds
    // personal data (fast-json-stringify's own errors quote the value)
    const failed = (what: string) => new Error(`The compiled serializer of ${route.method} ${route.url} ${what}`);
    const write = (data: unknown) => {
      try {
        return serialize!(data);
      } catch {
        throw failed('could not write the reply');
      }
    };
    return (data: unknown) => {
      if (serialize === undefined) serialize = compile(schema);
      if (!serialize) return validated(data);
      if (mode === 'compiled') return write(data);
      const expected = validated(data);
      const written = write(data);
      // the same JSON, though not always the same text: the compiled serializer writes an
      // optional field after the required ones
      if (written !== expected && !isDeepStrictEqual(JSON.parse(written), JSON.parse(expected)))
        throw failed("wrote other JSON than zod's encode");
      return written;
    };
  };
}
