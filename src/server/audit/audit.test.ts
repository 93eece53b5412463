import ExcelJS from 'exceljs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { auditEvents, charities } from '../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../tests/support/test-app.ts';
import { audit, describeChanges, diff } from './audit.ts';
import { purgeAuditEvents } from './retention.ts';

let t: TestApp;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedIn(1);
});
afterAll(() => t.close());

const eventsOf = (action: string) => t.db.select().from(auditEvents).where(eq(auditEvents.action, action));

describe('the history is append-only, by the database', () => {
  it('refuses UPDATE, DELETE and TRUNCATE of audit_events whatever the code asks', async () => {
    await admin.post('/api/charities', { name: 'Kept for ever' });
    const [event] = await eventsOf('charity.created');
    expect(event).toBeDefined();
    await expect(
      t.db.execute(sql`update audit_events set summary = 'nothing happened' where id = ${event!.id}`),
    ).rejects.toThrow();
    await expect(t.db.execute(sql`delete from audit_events where id = ${event!.id}`)).rejects.toThrow();
    await expect(t.db.execute(sql`truncate audit_events`)).rejects.toThrow();
    const [still] = await t.db.select().from(auditEvents).where(eq(auditEvents.id, event!.id));
    expect(still!.summary).toBe(event!.summary);
  });
});

describe('one transaction for a change and its event', () => {
  it('a change rolled back leaves no event, and an event never stands without its change', async () => {
    const before = await t.db.select().from(auditEvents);
    await expect(
      t.db.transaction(async (tx) => {
        await tx.insert(charities).values({ name: 'Never was' });
        await audit(tx, {
          action: 'charity.created',
          subject: { type: 'charity', id: 0 },
          summary: 'added the charity Never was',
        });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await t.db.select().from(auditEvents)).toHaveLength(before.length);
    expect(await t.db.select().from(charities).where(eq(charities.name, 'Never was'))).toHaveLength(0);
  });

  it('a refused request writes no event', async () => {
    const before = (await t.db.select().from(auditEvents)).length;
    expect((await admin.post('/api/charities', { name: '' })).statusCode).toBe(422);
    expect((await admin.patch('/api/charities/99999', { name: 'x', charity_type_id: 1 })).statusCode).toBe(404);
    expect(await t.db.select().from(auditEvents)).toHaveLength(before);
  });
});

describe('who acted', () => {
  it('names the signed-in user, the source web and the address', async () => {
    const res = await admin.post('/api/charities', { name: 'By hand' });
    const [event] = (await eventsOf('charity.created')).filter((e) => e.subjectId === String(res.json().id));
    expect(event).toMatchObject({ actorType: 'user', source: 'web', ipAddress: '127.0.0.1', subjectType: 'charity' });
    expect(event!.actorName).toMatch(/^Sam Tester\d+$/);
    expect(event!.summary).toBe(`${event!.actorName} added the charity By hand`);
  });

  it('names the personal access token when one acts, with the source api', async () => {
    const token = (
      await admin.post('/oauth/personal-access-tokens', { name: 'Script', scopes: ['trips:write'] })
    ).json().accessToken;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/charities',
      headers: { authorization: `Bearer ${token}` },
      payload: { name: 'By script' },
    });
    expect(res.statusCode).toBe(201);
    const [event] = (await eventsOf('charity.created')).filter((e) => e.subjectId === String(res.json().id));
    expect(event).toMatchObject({ actorType: 'personal_token', source: 'api' });
    expect(event!.actorTokenId).toMatch(/^[0-9a-f-]{36}$/);
    expect(event!.actorName).toContain('(personal access token)');
  });

  it('records sign-in and sign-out', async () => {
    const someone = await t.signedIn(1, 'history.person@example.test');
    expect((await someone.post('/logout')).statusCode).toBe(204);
    const rows = await queryRows<{ action: string }>(
      t.db,
      sql`select action from audit_events where action like 'auth.%' order by id`,
    );
    expect(rows.map((r) => r.action)).toEqual(expect.arrayContaining(['auth.signed_in', 'auth.signed_out']));
  });
});

describe('diffs', () => {
  it('keep changed fields only, never secrets, and mask passport numbers and medical text', () => {
    const changes = diff({
      first_name: ['Ann', 'Anne'],
      last_name: ['Lee', 'Lee'],
      password: ['old', 'new'],
      client_secret: ['a', 'b'],
      passport_number: ['123456789', '987654321'],
      medical_detail: ['Asthma', 'Asthma and diabetes'],
    });
    expect(changes).toEqual({
      first_name: ['Ann', 'Anne'],
      passport_number: ['•••789', '•••321'],
      medical_detail: ['(hidden)', '(hidden)'],
    });
    expect(describeChanges({ status: ['provisional', 'confirmed'] })).toBe(
      'changed status from provisional to confirmed',
    );
    expect(describeChanges({ a: [1, 2], b_c: [1, 3] }, 'the trip X')).toBe('changed a and b c of the trip X');
  });
});

describe('reading the history', () => {
  it('GET /api/audit pages every event newest first, filtered by action, actor, subject and dates', async () => {
    const all = await admin.get('/api/audit');
    expect(all.statusCode).toBe(200);
    const body = all.json();
    expect(body).toMatchObject({ current_page: 1, per_page: 25 });
    expect(body.data[0].id).toBeGreaterThan(body.data.at(-1).id);
    expect(body.data[0]).toHaveProperty('actor.name');
    const created = (await admin.get('/api/audit?action=charity.created')).json();
    expect(created.data.every((e: { action: string }) => e.action === 'charity.created')).toBe(true);
    const kind = (await admin.get('/api/audit?action=charity.')).json();
    expect(kind.total).toBeGreaterThanOrEqual(created.total);
    const mine = (await admin.get(`/api/audit?actor_type=personal_token`)).json();
    expect(mine.data.every((e: { actor: { type: string } }) => e.actor.type === 'personal_token')).toBe(true);
    expect((await admin.get('/api/audit?from=2099-01-01')).json().total).toBe(0);
    expect((await admin.get('/api/audit?from=2026-02-31')).statusCode).toBe(422);
    expect((await admin.get('/api/audit?from=2026-03-02&to=2026-03-01')).statusCode).toBe(422);
    expect((await admin.get('/api/audit?booking_ref=TD-NOPE')).json().total).toBe(0);
  });

  it('downloads a search as a real .xlsx, and the download is history too', async () => {
    const res = await admin.get('/audit/export?action=charity.');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="history-\d{4}-\d{2}-\d{2}\.xlsx"/);
    expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
    // a workbook Excel opens: its sheet's name is not one Excel keeps for itself ("History")
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(wb.getWorksheet('Events')!.getRow(1).values).toContain('What happened');
    const [event] = await eventsOf('export.audit');
    expect(event!.details).toMatchObject({ filters: { action: 'charity.' } });
    expect((event!.details as { rows: number }).rows).toBeGreaterThan(0);
    expect((await admin.get('/audit/export?from=nope')).statusCode).toBe(422);
  });

  it('is for Administrators, and for tokens with users:read only', async () => {
    const charity = await t.signedIn(2);
    expect((await charity.get('/api/audit')).statusCode).toBe(403);
    const token = (
      await admin.post('/oauth/personal-access-tokens', { name: 'Reader', scopes: ['bookings:read'] })
    ).json().accessToken;
    const res = await t.app.inject({ method: 'GET', url: '/api/audit', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(403);
  });

  it('a trip or booking that does not exist has no history to read', async () => {
    expect((await admin.get('/api/trips/999999/history')).statusCode).toBe(404);
    expect((await admin.get('/api/bookings/999999/history')).statusCode).toBe(404);
  });
});

describe('retention', () => {
  it('removes only events older than the retention period, and records how many it removed', async () => {
    const old = (years: number) => new Date(Date.now() - years * 365.25 * 86_400_000);
    await t.db.insert(auditEvents).values([
      {
        at: old(8),
        actorType: 'system',
        actorName: 'System',
        source: 'system',
        action: 'test.ancient',
        subjectType: 'test',
        summary: 'System did something long ago',
      },
      {
        at: old(6),
        actorType: 'system',
        actorName: 'System',
        source: 'system',
        action: 'test.kept',
        subjectType: 'test',
        summary: 'System did something within seven years',
      },
    ]);
    // outside the job, even an ancient event cannot be deleted
    await expect(t.db.execute(sql`delete from audit_events where action = 'test.ancient'`)).rejects.toThrow();
    expect(await purgeAuditEvents(t.db, 2555)).toBe(1);
    expect(await eventsOf('test.ancient')).toHaveLength(0);
    expect(await eventsOf('test.kept')).toHaveLength(1);
    const [purged] = await eventsOf('audit.purged');
    expect(purged).toMatchObject({
      actorType: 'system',
      source: 'system',
      summary: 'System (audit retention) removed 1 history event older than 2555 days',
    });
    // nothing more to remove: no event
    expect(await purgeAuditEvents(t.db, 2555)).toBe(0);
    expect(await eventsOf('audit.purged')).toHaveLength(1);
  });

  it('never lets the job remove an event less than a year old, whatever it is told', async () => {
    await t.db.insert(auditEvents).values({
      at: new Date(Date.now() - 100 * 86_400_000),
      actorType: 'system',
      actorName: 'System',
      source: 'system',
      action: 'test.recent',
      subjectType: 'test',
      summary: 'System did something recently',
    });
    await expect(
      t.db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('tripdesk.audit_retention', 'purge', true)`);
        await tx.execute(sql`delete from audit_events where action = 'test.recent'`);
      }),
    ).rejects.toThrow();
    expect(await eventsOf('test.recent')).toHaveLength(1);
  });
});

describe('emails of a booking', () => {
  it('lists what was sent with its full text, and sends an invoice again', async () => {
    const { insertTrip } = await import('../../db/factories/trips.ts');
    const trip = await insertTrip(t.db, {});
    const booking = (
      await admin.post('/api/bookings', {
        trip_id: trip.id,
        title: 'Ms',
        first_name: 'Erin',
        last_name: 'Mail',
        preferred_name: 'Erin',
        email: 'erin.mail@example.test',
        as_on_passport: true,
        terms_accepted: true,
      })
    ).json();
    const invoice = (await admin.post(`/api/bookings/${booking.id}/invoices`, { invoice_type: 'deposit' })).json();
    expect((await admin.post(`/api/bookings/${booking.id}/invoices/${invoice.id}/send`)).statusCode).toBe(200);
    const emails = (await admin.get(`/api/bookings/${booking.id}/emails`)).json();
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({
      to: 'erin.mail@example.test',
      outcome: 'written_to_eml',
      attachments: [`${invoice.invoice_ref}.pdf`],
      about: { type: 'invoice', id: String(invoice.id) },
    });
    expect(emails[0].subject).toContain(invoice.invoice_ref);
    expect(emails[0].text).toContain('Dear Ms Erin Mail');
    expect((await admin.post(`/api/bookings/${booking.id}/emails/${emails[0].id}/resend`)).statusCode).toBe(200);
    expect((await admin.get(`/api/bookings/${booking.id}/emails`)).json()).toHaveLength(2);
    // an email of another booking, or none at all, is not found
    expect((await admin.post(`/api/bookings/${booking.id}/emails/999999/resend`)).statusCode).toBe(404);
    expect((await admin.get('/api/bookings/999999/emails')).statusCode).toBe(404);
  });
});
