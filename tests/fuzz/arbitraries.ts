import fc from 'fast-check';

/**
 * fast-check arbitraries from the JSON Schema (OpenAPI 3.0 flavour) that the app serves for its
 * routes. Only the keywords our zod schemas produce are read (type, properties, required, enum,
 * anyOf, nullable, min/max length, minimum/maximum/exclusiveMinimum, pattern, items, maxItems);
 * anything else generates any JSON value. docs/decisions/009 says why this is ours: the one
 * library for it (json-schema-fast-check) is archived and tied to fast-check 2.
 */
export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  nullable?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  exclusiveMaximum?: boolean | number;
  pattern?: string;
  items?: JsonSchema;
  maxItems?: number;
  minItems?: number;
  default?: unknown;
};

/** Values that mean something to a field of that name, so that valid requests reach the services. */
export type Hints = Record<string, fc.Arbitrary<unknown>>;

const ddmmyyyy = fc
  .record({
    d: fc.integer({ min: 1, max: 28 }),
    m: fc.integer({ min: 1, max: 12 }),
    y: fc.integer({ min: 2020, max: 2035 }),
  })
  .map(({ d, m, y }) => `${String(d).padStart(2, '0')}/${String(m).padStart(2, '0')}/${y}`);
const isoDate = ddmmyyyy.map((s) => s.split('/').reverse().join('-'));

export const defaultHints: Hints = {
  departure: ddmmyyyy,
  return: ddmmyyyy,
  valid_from: fc.oneof(ddmmyyyy, fc.constant('')),
  valid_until: fc.oneof(ddmmyyyy, fc.constant('')),
  invoice_date: fc.oneof(isoDate, ddmmyyyy),
  due_date: fc.oneof(isoDate, ddmmyyyy),
  date: fc.oneof(isoDate, ddmmyyyy),
  date_of_birth: isoDate,
  passport_issue_date: isoDate,
  passport_expiry_date: isoDate,
  email: fc.emailAddress(),
  nok_email: fc.emailAddress(),
  url: fc.webUrl(),
  redirect: fc.webUrl({ validSchemes: ['https'] }),
  amount: fc.oneof(fc.integer({ min: 1, max: 500 }), fc.constantFrom('12.50', '1,000', '0.01')),
  price: fc.integer({ min: 0, max: 500 }),
  password: fc.constant('a very long passphrase 123'),
  confirm_password: fc.constant('a very long passphrase 123'),
  note_text: fc.constantFrom('<p>Hello <strong>there</strong></p>', '<script>alert(1)</script><p>x</p>'),
};

export function arbitraryFor(
  schema: JsonSchema | undefined,
  hints: Hints = {},
  name?: string,
  depth = 0,
): fc.Arbitrary<unknown> {
  if (name && hints[name])
    return fc.oneof({ weight: 3, arbitrary: hints[name] }, { weight: 1, arbitrary: plain(schema, hints, depth) });
  return plain(schema, hints, depth);
}

function plain(schema: JsonSchema | undefined, hints: Hints, depth: number): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return fc.jsonValue({ maxDepth: 1 });
  const base = shape(schema, hints, depth);
  return schema.nullable ? fc.option(base, { nil: null, freq: 5 }) : base;
}

function shape(schema: JsonSchema, hints: Hints, depth: number): fc.Arbitrary<unknown> {
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => plain(s, hints, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const props = schema.properties ?? {};
      const model = Object.fromEntries(
        Object.entries(props).map(([k, s]) => [k, arbitraryFor(s, hints, k, depth + 1)]),
      );
      return fc.record(model, { requiredKeys: (schema.required ?? []).filter((k) => k in props) });
    }
    case 'array':
      return fc.array(arbitraryFor(schema.items, hints, undefined, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, 4),
      });
    case 'string': {
      if (schema.pattern) {
        try {
          return fc
            .stringMatching(new RegExp(schema.pattern))
            .filter((s) => s.length >= (schema.minLength ?? 0) && s.length <= (schema.maxLength ?? Infinity));
        } catch {
          // a pattern fast-check cannot read: any string will do
        }
      }
      const minLength = schema.minLength ?? 0;
      return fc.string({ minLength, maxLength: Math.max(minLength, Math.min(schema.maxLength ?? 40, 40)) });
    }
    case 'integer':
    case 'number': {
      const excl = (v: boolean | number | undefined, n: number | undefined) => (v === true && n !== undefined ? 1 : 0);
      const min =
        schema.minimum !== undefined
          ? schema.minimum + excl(schema.exclusiveMinimum, schema.minimum)
          : typeof schema.exclusiveMinimum === 'number'
            ? schema.exclusiveMinimum + 1
            : -1000;
      const max =
        schema.maximum !== undefined
          ? schema.maximum - excl(schema.exclusiveMaximum, schema.maximum)
          : typeof schema.exclusiveMaximum === 'number'
            ? schema.exclusiveMaximum - 1
            : 100_000;
      if (type === 'integer')
        return fc.integer({ min: Math.max(min, Number.MIN_SAFE_INTEGER), max: Math.min(max, Number.MAX_SAFE_INTEGER) });
      return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

/** Values that break types and limits: the hostile half of the fuzzer. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    'a\u0000b',
    '\u0000',
    '\u0001\u0002\u001f\u007f',
    '\ud800',
    'x\udfffy',
    '%00',
    '',
    ' ',
    'x'.repeat(100 * 1024),
    '1e308',
    '-1',
    '0',
    'NaN',
    'Infinity',
    '99999999999999999999',
    '32768',
    '2147483648',
    '9223372036854775808',
    '-9223372036854775809',
    '1.5',
    '0x10',
    'true',
    'null',
    '[]',
    '{}',
    "'; drop table bookings; --",
    '../../etc/passwd',
    '<script>alert(1)</script>',
    '31/02/2027',
    '2027-13-45',
    '\u202e\u200b\ufeff',
    '😀'.repeat(300),
  ),
  fc.constantFrom(
    -1,
    0,
    1.5,
    32_768,
    2_147_483_648,
    -2_147_483_649,
    2 ** 63,
    Number.MAX_SAFE_INTEGER + 2,
    1e308,
    -1e308,
    true,
    false,
    null,
    [],
    {},
    [1, 2],
    ['a\u0000'],
    { nested: { deeper: 'a\u0000' } },
  ),
  fc.string({ unit: 'binary', maxLength: 30 }),
);
