import Fastify from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bookingPageSchema } from '../../contract/bookings.ts';
import { replySerializerCompiler, type ReplySerialization } from './reply-serializer.ts';

const row = {
  id: 7,
  ref: 'TDS0000007',
  created_at: '2026-01-02T03:04:05.000Z',
  deposit_payment_date: null,
  status: 'confirmed',
  trip: { id: 3, name: 'Kilimanjaro "Summit" – Tanzania', departure: '2027-01-01', return: '2027-01-10' },
  user_id: null,
  user_url: null,
  title: 'Ms',
  first_name: 'Zoë',
  last_name: "O'Brien </script>",
  preferred_name: null,
  email: 'zoe@example.test',
  mobile: '07123 456789',
  gender: 'female',
  date_of_birth: '2000-02-29',
  age: 26,
  address_1: '1 High St\nFlat 2',
  address_4: 'Leeds',
  post_code: 'LS1 1AA',
  room_type: null,
  room_ref: null,
  share_with: null,
  double_room: false,
  passport_valid: 'ok',
  funding_type: 'self',
  travel_basis: 'land_only',
  medical_conditions: false,
  form_complete: true,
};
const page = {
  data: [row],
  total: 1,
  from: 1,
  to: 1,
  per_page: 25,
  current_page: 1,
  last_page: 1,
  total_is_estimate: false,
};

async function appReplying(mode: ReplySerialization, schema: z.ZodType, reply: unknown) {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(replySerializerCompiler(mode));
  app.get('/it', { schema: { response: { 200: schema } } }, async () => reply);
  const res = await app.inject({ url: '/it' });
  await app.close();
  return res;
}

describe('the reply serializer', () => {
  it('writes what zod writes, and no field the schema does not name, compiled or checked', async () => {
    const leaky = { ...page, data: [{ ...row, password_hash: 'secret', trip: { ...row.trip, cost: 1 } }], debug: 1 };
    const expected = JSON.stringify(z.encode(bookingPageSchema, page as never));
    for (const mode of ['compiled', 'checked'] as const) {
      const res = await appReplying(mode, bookingPageSchema, leaky);
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(expected);
      expect(res.body).not.toContain('secret');
    }
  });

  it('leaves a union of objects to zod, which picks the branch', async () => {
    const schema = z.object({
      item: z.union([
        z.object({ kind: z.literal('a'), a: z.number() }),
        z.object({ kind: z.literal('b'), b: z.string() }),
      ]),
    });
    const res = await appReplying('compiled', schema, { item: { kind: 'b', b: 'x', hidden: true } });
    expect(res.body).toBe('{"item":{"kind":"b","b":"x"}}');
  });

  it('in tests, refuses a reply the compiled serializer would write otherwise than zod', async () => {
    // a JSON Schema that lies about its field (as a wrong one from a library would): the compiled
    // serializer writes it as a number, zod as the string it is
    const schema = z.object({ n: z.string().meta({ type: 'integer' } as never) });
    expect((await appReplying('compiled', schema, { n: '12' })).body).toBe('{"n":12}');
    const checked = await appReplying('checked', schema, { n: '12' });
    expect(checked.statusCode).toBe(500);
    expect(checked.json().message).toBe("The compiled serializer of GET /it wrote other JSON than zod's encode");
  });

  it('names the route in its error, never what the reply held', async () => {
    const schema = z.object({ n: z.string().meta({ type: 'integer' } as never) });
    for (const mode of ['compiled', 'checked'] as const) {
      const res = await appReplying(mode, schema, { n: 'secret 12' });
      expect(res.statusCode).toBe(500);
      expect(res.json().message).toBe('The compiled serializer of GET /it could not write the reply');
    }
  });

  it('still refuses, in tests, a reply that does not match its schema', async () => {
    const res = await appReplying('checked', bookingPageSchema, { ...page, total: 'many' });
    expect(res.statusCode).toBe(500);
  });
});
