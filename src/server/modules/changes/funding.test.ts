import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ukToday } from '../../../contract/dates.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import { insertUser } from '../../../db/factories/users.ts';
import { auditEvents, bookings, charities } from '../../../db/schema/index.ts';
import { smtpSink } from '../../../../tests/support/smtp.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';

let sink: Awaited<ReturnType<typeof smtpSink>>;
let t: TestApp;
let admin: TestClient;

beforeAll(async () => {
  sink = await smtpSink();
  t = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${sink.port}` });
  admin = await t.signedIn(1);
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

let n = 0;
const traveller = (over: Record<string, unknown> = {}) => {
  n += 1;
  return {
    title: 'Ms',
    first_name: 'Fay',
    preferred_name: 'Fay',
    last_name: `Funder${n}`,
    email: `fay.funder${n}@example.test`,
    as_on_passport: true,
    terms_accepted: true,
    ...over,
  };
};

async function charity(name: string) {
  const [row] = await t.db.insert(charities).values({ name }).returning();
  await insertUser(t.db, {
    email: `${name.toLowerCase().replace(/\W+/g, '.')}@charity.test`,
    firstName: 'Chris',
    lastName: name,
    roleId: 2,
    charityId: row!.id,
  });
  return row!;
}

describe('funding and charity on a new booking', () => {
  it('takes the funding type and charity, needs a charity to fundraise on a charity trip, and refuses what the trip does not take', async () => {
    const trek = await insertTrip(t.db, { type: 'charity' });
    const selfOnly = await insertTrip(t.db, { type: 'open', funding: 'self' });
    const hope = await charity('Hope Trust');

    const plain = await admin.post('/api/bookings', traveller({ trip_id: trek.id }));
    expect(plain.statusCode, plain.body).toBe(201);
    expect(plain.json()).toMatchObject({ funding_type: 'self', charity_id: null });

    const noCharity = await admin.post('/api/bookings', traveller({ trip_id: trek.id, funding_type: 'fundraise' }));
    expect(noCharity.statusCode).toBe(422);
    expect(noCharity.json().errors).toEqual({ charity_id: ['Choose the charity this booking raises money for.'] });

    const unknown = await admin.post(
      '/api/bookings',
      traveller({ trip_id: trek.id, funding_type: 'flexi', charity_id: 999_999 }),
    );
    expect(unknown.json().errors).toEqual({ charity_id: ['The selected charity is invalid.'] });

    const refused = await admin.post('/api/bookings', traveller({ trip_id: selfOnly.id, funding_type: 'fundraise' }));
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.funding_type).toEqual([
      'This trip does not take fundraising bookings: its funding is set on the trip.',
    ]);
    const nonsense = await admin.post('/api/bookings', traveller({ trip_id: trek.id, funding_type: 'lottery' }));
    expect(nonsense.json().errors.funding_type).toEqual(['The selected funding is invalid.']);

    const made = await admin.post(
      '/api/bookings',
      traveller({ trip_id: trek.id, funding_type: 'fundraise', charity_id: String(hope.id) }),
    );
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({ funding_type: 'fundraise', charity_id: hope.id });
    const fundraising = (await admin.get(`/api/bookings/${made.json().id}/fundraising`)).json();
    expect(fundraising).toMatchObject({ fundraises: true, charity: { id: hope.id, name: 'Hope Trust' } });
    expect(fundraising.target).toBeGreaterThan(0);
  });
});

describe('changing a booking’s funding and charity', () => {
  it('previews and sets it, keeps the entries raised, and tells the charity a fundraiser joins or leaves', async () => {
    const trek = await insertTrip(t.db, { type: 'charity' });
    const hope = await charity('Hope Fund');
    const wells = await charity('Wells For All');
    const made = (await admin.post('/api/bookings', traveller({ trip_id: trek.id }))).json();

    // self-funded → fundraising for Hope: Hope is told it joins
    const first = await admin.get(
      `/api/bookings/${made.id}/funding/preview?funding_type=fundraise&charity_id=${hope.id}`,
    );
    expect(first.statusCode, first.body).toBe(200);
    const target = first.json().to.target;
    expect(first.json()).toMatchObject({
      changed: true,
      from: { funding_type: 'self', fundraises: false, target: null, charity: null },
      to: { funding_type: 'fundraise', fundraises: true, charity: { id: hope.id } },
      charity_joined: 'Hope Fund',
      charity_left: null,
      entries_kept: 0,
    });
    const before = sink.received.length;
    const set = await admin.put(`/api/bookings/${made.id}/funding`, {
      funding_type: 'fundraise',
      charity_id: hope.id,
      reason: 'Decided to raise money',
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ message: `The funding of ${made.ref} is changed.`, charity_emails: 1 });
    const told = sink.received.slice(before);
    expect(told.map((m) => m.to)).toEqual([['hope.fund@charity.test']]);
    expect(told[0]!.raw).toContain('now raises money for Hope Fund');
    expect((await admin.get(`/api/bookings/${made.id}/fundraising`)).json().target).toBe(target);

    const entry = await admin.post(`/api/bookings/${made.id}/fundraising/entries`, {
      amount: 120,
      date: ukToday(new Date()),
      source: 'offline',
    });
    expect(entry.statusCode, entry.body).toBe(201);

    // to Wells: Wells is told it joins, Hope that it leaves; the entry stays
    const moved = await admin.put(`/api/bookings/${made.id}/funding`, {
      funding_type: 'fundraise',
      charity_id: wells.id,
      reason: 'Chose another charity',
    });
    expect(moved.json()).toMatchObject({
      charity_joined: 'Wells For All',
      charity_left: 'Hope Fund',
      entries_kept: 1,
      raised: 120,
      charity_emails: 2,
    });
    expect((await admin.get(`/api/bookings/${made.id}/fundraising`)).json().raised).toBe(120);

    // nothing to change changes nothing
    const same = await admin.put(`/api/bookings/${made.id}/funding`, {
      funding_type: 'fundraise',
      charity_id: wells.id,
      reason: 'Again',
    });
    expect(same.json()).toMatchObject({ changed: false, message: 'Nothing changed.', charity_emails: 0 });

    // refused: no reason; a fundraiser with no charity on a charity trip
    const noReason = await admin.put(`/api/bookings/${made.id}/funding`, { funding_type: 'self', charity_id: null });
    expect(noReason.statusCode).toBe(422);
    expect(noReason.json().errors.reason).toEqual(['Give the reason for the change.']);
    const [row] = await t.db.select().from(bookings).where(eq(bookings.id, made.id));
    expect([row!.fundingType, row!.charityId]).toEqual(['fundraise', wells.id]);

    const events = await t.db
      .select({ changes: auditEvents.changes, details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.bookingId, made.id), eq(auditEvents.action, 'booking.funding_changed')));
    expect(events.map((e) => e.changes)).toEqual([
      { funding_type: ['self', 'fundraise'], charity: [null, 'Hope Fund'] },
      { charity: ['Hope Fund', 'Wells For All'] },
    ]);
    expect(events[1]!.details).toMatchObject({ reason: 'Chose another charity', entries_kept: 1 });
  });
});
