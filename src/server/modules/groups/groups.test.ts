import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ukToday } from '../../../contract/dates.ts';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import { auditEvents, bookings, users } from '../../../db/schema/index.ts';
import { hashPassword } from '../../../shared/password.ts';
import { PASSWORD } from '../../../../tests/support/test-app.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';

/** Issue 37: a school trip's groups, made and changed by the office. */
let t: TestApp;
let admin: TestClient;
let tripId: number;
const group = {
  school: 'Hillside Academy',
  leader_name: 'Lee Leader',
  leader_email: 'Lee.Leader@hillside.test',
  leader_phone: '01632 960123',
  places: 30,
  payer: 'parents',
};

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedIn(1);
  const departure = addDays(ukToday(), 120);
  tripId = (
    await insertTrip(t.db, {
      name: 'Year 9 Iceland',
      type: 'school',
      departureDate: departure,
      returnDate: addDays(departure, 5),
    })
  ).id;
});
afterAll(() => t.close());

describe('school groups', () => {
  it('adds a group to a school trip: its leader becomes an End User, the group is in the History', async () => {
    const res = await admin.post(`/api/trips/${tripId}/groups`, group);
    expect(res.statusCode, res.body).toBe(201);
    const made = res.json();
    expect(made).toMatchObject({
      trip_id: tripId,
      school: 'Hillside Academy',
      leader: { name: 'Lee Leader', email: 'Lee.Leader@hillside.test', phone: '01632 960123' },
      places: 30,
      payer: 'parents',
      school_share: null,
      pupils: 0,
    });
    const [leader] = await t.db.select().from(users).where(eq(users.id, made.leader.user_id));
    expect(leader).toMatchObject({ userRoleId: 3, firstName: 'Lee', lastName: 'Leader' });
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'group.created'));
    expect(event!.summary).toContain('added the group of Hillside Academy (30 places, led by Lee Leader)');
    expect(event!.tripId).toBe(tripId);
    // a second group of the same leader finds the same account
    const second = await admin.post(`/api/trips/${tripId}/groups`, {
      ...group,
      school: 'Brookfield School',
      leader_email: 'lee.leader@hillside.test',
    });
    expect(second.json().leader.user_id).toBe(made.leader.user_id);
    const list = (await admin.get(`/api/trips/${tripId}/groups`)).json();
    expect(list.map((g: { school: string }) => g.school)).toEqual(['Brookfield School', 'Hillside Academy']);
  });

  it('refuses bad input field by field, a trip that is not a school trip, and an unknown trip, changing nothing', async () => {
    const bad = await admin.post(`/api/trips/${tripId}/groups`, {
      school: ' ',
      leader_name: '',
      leader_email: 'not-an-email',
      leader_phone: 'call me',
      places: 0,
      payer: 'the council',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({
      school: ['The school field is required.'],
      leader_name: ['The group leader’s name field is required.'],
      leader_email: ['The group leader’s email must be a valid email address.'],
      leader_phone: ['The group leader’s telephone may only contain digits, spaces, +, ( ) and -.'],
      places: ['The places must be a whole number from 1 to 1,000.'],
      payer: ['Choose who pays: the parents, the school, or split.'],
    });
    const split = await admin.post(`/api/trips/${tripId}/groups`, { ...group, payer: 'split' });
    expect(split.json().errors).toEqual({
      school_share: ['Give what the school pays for each pupil when the cost is split.'],
    });
    const open = await insertTrip(t.db, { type: 'open' });
    const refused = await admin.post(`/api/trips/${open.id}/groups`, group);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('Groups are for school trips: make this a school trip first.');
    expect((await admin.post('/api/trips/999999/groups', group)).statusCode).toBe(404);
    expect((await admin.get(`/api/trips/${open.id}/groups`)).json()).toEqual([]);
    expect((await admin.get('/api/groups/999999')).statusCode).toBe(404);
    expect((await admin.put('/api/groups/999999', group)).statusCode).toBe(404);
    // a trip that has left takes no new group
    const gone = await insertTrip(t.db, {
      name: 'Gone Trip',
      type: 'school',
      departureDate: addDays(ukToday(), -3),
      returnDate: addDays(ukToday(), 2),
    });
    const late = await admin.post(`/api/trips/${gone.id}/groups`, group);
    expect(late.statusCode).toBe(422);
    expect(late.json().message).toBe('Gone Trip has left: a new group cannot join it.');
  });

  it('changes a group: who pays and the school’s share, a new leader by email; never fewer places than pupils', async () => {
    const made = (await admin.post(`/api/trips/${tripId}/groups`, { ...group, school: 'Change School' })).json();
    const changed = await admin.put(`/api/groups/${made.id}`, {
      ...group,
      school: 'Change School',
      payer: 'split',
      school_share: '150.50',
      leader_name: 'Ana Other',
      leader_email: 'ana.other@hillside.test',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ payer: 'split', school_share: 150.5, leader: { name: 'Ana Other' } });
    expect(changed.json().leader.user_id).not.toBe(made.leader.user_id);
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'group.updated'));
    expect(event!.changes).toMatchObject({ payer: ['parents', 'split'], school_share: [null, 150.5] });
    // back to parents: the share goes
    const back = await admin.put(`/api/groups/${made.id}`, { ...group, school: 'Change School', school_share: '99' });
    expect(back.json().school_share).toBeNull();
    // two pupils in it: two places at least
    for (let i = 0; i < 2; i++) await insertBooking(t.db, tripId, { groupId: made.id, status: 'confirmed' });
    await insertBooking(t.db, tripId, { groupId: made.id, status: 'cancelled' });
    expect((await admin.get(`/api/groups/${made.id}`)).json().pupils).toBe(2);
    const few = await admin.put(`/api/groups/${made.id}`, { ...group, school: 'Change School', places: 1 });
    expect(few.statusCode).toBe(422);
    expect(few.json().message).toBe('The group has 2 pupils: it needs at least as many places.');
    expect(
      (await admin.put(`/api/groups/${made.id}`, { ...group, school: 'Change School', places: 2 })).statusCode,
    ).toBe(200);
  });

  it('shows a group leader exactly their group: each pupil’s money, consent, form and readiness, never the medical detail', async () => {
    const made = (
      await admin.post(`/api/trips/${tripId}/groups`, {
        ...group,
        school: 'Leader School',
        leader_email: 'led.by@hillside.test',
      })
    ).json();
    const other = (
      await admin.post(`/api/trips/${tripId}/groups`, {
        ...group,
        school: 'Other School',
        leader_email: 'other@hillside.test',
      })
    ).json();
    await t.db
      .update(users)
      .set({ passwordHash: await hashPassword(PASSWORD) })
      .where(eq(users.id, made.leader.user_id));
    const today = ukToday();
    const pupil = await insertBooking(t.db, tripId, {
      groupId: made.id,
      status: 'confirmed',
      firstName: 'Pip',
      lastName: 'Pupil',
      dateOfBirth: `${Number(today.slice(0, 4)) - 13}-01-01`,
      medicalConditions: true,
      medicalDetail: 'Secret asthma detail',
      formComplete: true,
      consentName: 'Pat Parent',
      consentGivenAt: new Date(),
    });
    await insertBooking(t.db, tripId, {
      groupId: made.id,
      status: 'provisional',
      firstName: 'Ada',
      lastName: 'Absent',
    });
    await insertBooking(t.db, tripId, { groupId: other.id, status: 'confirmed', firstName: 'Not', lastName: 'Theirs' });
    // £120 owed since last week, £20 of it paid
    const invoice = await admin.post('/api/invoices', {
      booking_id: pupil.id,
      invoice_date: addDays(today, -14),
      due_date: addDays(today, -7),
      invoice_ref: `INV-LEAD-${pupil.id}`,
      description: 'Deposit',
      items: [{ description: 'Deposit', amount: 140 }],
    });
    expect(invoice.statusCode, invoice.body).toBe(201);
    const paid = await admin.post('/api/transactions', {
      booking_id: pupil.id,
      invoice_id: invoice.json().id,
      invoice_type: 'other',
      amount: 20,
      type: 'payment',
      processor: 'BACS',
      date: today,
    });
    expect(paid.statusCode, paid.body).toBeLessThan(300);
    const leader = t.client();
    expect((await leader.login('led.by@hillside.test', PASSWORD)).statusCode).toBe(204);
    await leader.refreshCsrf('/my');
    const mine = (await leader.get('/api/my/groups')).json();
    expect(mine).toEqual([
      { id: made.id, school: 'Leader School', trip: expect.objectContaining({ id: tripId }), places: 30, pupils: 2 },
    ]);
    const res = await leader.get(`/api/my/groups/${made.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toContain('Secret asthma detail');
    expect(res.body).not.toContain('Theirs');
    const view = res.json();
    expect(view.pupils.map((p: { name: string }) => p.name)).toEqual(['Ada Absent', 'Pip Pupil']);
    const pip = view.pupils.find((p: { name: string }) => p.name === 'Pip Pupil');
    expect(pip).toMatchObject({ consent: 'given', medical_given: true, overdue: 120, paid: 20, ready: false });
    expect(view.pupils[0].consent).toBe('missing');
    expect(view.summary).toEqual({ pupils: 2, ready: 0, consent_missing: 1, overdue: 1 });
    // another leader's group, and the back office, are not theirs
    expect((await leader.get(`/api/my/groups/${other.id}`)).statusCode).toBe(404);
    expect((await leader.get(`/api/trips/${tripId}/groups`)).statusCode).toBe(403);
    expect((await leader.get(`/api/bookings/${pupil.id}`)).statusCode).toBe(403);
    expect((await admin.get('/api/my/groups')).statusCode).toBe(403);
    const [b] = await t.db.select().from(bookings).where(eq(bookings.id, pupil.id));
    expect(b!.groupId).toBe(made.id);
    // the office's trip page reads the same money and readiness, group by group
    const office = (await admin.get(`/api/trips/${tripId}/groups`)).json();
    expect(office.find((g: { id: number }) => g.id === made.id)).toMatchObject({
      pupils: 2,
      paid: 20,
      overdue: 120,
      ready: 0,
      consent_missing: 1,
    });
    expect(office.find((g: { id: number }) => g.id === other.id)).toMatchObject({ pupils: 1, paid: 0, overdue: 0 });
  });
});
