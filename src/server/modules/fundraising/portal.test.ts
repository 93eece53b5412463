import { and, eq, getTableColumns } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ukToday } from '../../../contract/dates.ts';
import { FUNDRAISER_FIELDS, PORTAL_FUNDRAISER_FIELDS } from '../../../contract/fundraising.ts';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import { insertUser } from '../../../db/factories/users.ts';
import { auditEvents, bookingNotes, bookings, charities, fundraisingEntries, users } from '../../../db/schema/index.ts';
import { createTestApp, PASSWORD, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';

// The charity portal's API: a Charity user sees and acts on only their own charity's
// fundraisers, whatever id they send; the back office stays closed to them; what they receive is
// an allow-list; every action is in the history; a token with the fundraising scope does the same.

let t: TestApp;
let admin: TestClient;
let charityA: TestClient;
let charityB: TestClient;
let unlinked: TestClient;
const ids = {} as Record<'a' | 'b' | 'peak' | 'coast' | 'river' | 'ann' | 'bob' | 'self' | 'gone' | 'rita', number>;
const today = ukToday();

async function charityUser(email: string, charityId: number | null, firstName: string) {
  await insertUser(t.db, { email, password: PASSWORD, roleId: 2, charityId, firstName, lastName: 'Partner' });
  const client = t.client();
  expect((await client.login(email, PASSWORD)).statusCode).toBeLessThan(400);
  return client;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedIn(1);
  const [a] = await t.db.insert(charities).values({ name: 'Mountain Aid' }).returning();
  const [b] = await t.db.insert(charities).values({ name: 'River Trust' }).returning();
  ids.a = a!.id;
  ids.b = b!.id;
  // departs in 100 days: the 16-week (50%) milestone passed 12 days ago
  ids.peak = (
    await insertTrip(t.db, { name: 'Peak Trek', departureDate: addDays(today, 100), returnDate: addDays(today, 110) })
  ).id;
  ids.coast = (
    await insertTrip(t.db, { name: 'Coast Walk', departureDate: addDays(today, 300), returnDate: addDays(today, 305) })
  ).id;
  ids.river = (
    await insertTrip(t.db, { name: 'River Row', departureDate: addDays(today, 200), returnDate: addDays(today, 205) })
  ).id;
  const secret = {
    passportNumber: 'PASS-SECRET-1',
    email: 'hidden@example.test',
    mobile: '07700 900999',
    address1: '1 Secret Street',
    postCode: 'SE1 1CR',
    medicalConditions: true,
    medicalDetail: 'MEDICAL-SECRET',
    nokName: 'NOK-SECRET',
    dietary: 'DIET-SECRET',
  };
  ids.ann = (
    await insertBooking(t.db, ids.peak, {
      ...secret,
      charityId: ids.a,
      fundingType: 'fundraise',
      status: 'confirmed',
      firstName: 'Ann',
      lastName: 'Alpine',
    })
  ).id;
  ids.bob = (
    await insertBooking(t.db, ids.coast, {
      charityId: ids.a,
      fundingType: 'flexi',
      status: 'provisional',
      firstName: 'Bob',
      lastName: 'Beach',
    })
  ).id;
  ids.self = (
    await insertBooking(t.db, ids.peak, {
      charityId: ids.a,
      fundingType: 'self',
      status: 'confirmed',
      firstName: 'Sal',
      lastName: 'Self',
    })
  ).id;
  ids.gone = (
    await insertBooking(t.db, ids.peak, {
      charityId: ids.a,
      fundingType: 'fundraise',
      status: 'cancelled',
      firstName: 'Gil',
      lastName: 'Gone',
    })
  ).id;
  ids.rita = (
    await insertBooking(t.db, ids.river, {
      charityId: ids.b,
      fundingType: 'fundraise',
      status: 'confirmed',
      firstName: 'Rita',
      lastName: 'River',
    })
  ).id;
  charityA = await charityUser('aid@mountain.example', ids.a, 'Alex');
  charityB = await charityUser('trust@river.example', ids.b, 'Bea');
  unlinked = await charityUser('nobody@charity.example', null, 'Nia');
});
afterAll(() => t.close());

describe('GET /api/charity/fundraisers', () => {
  it("lists only the user's charity's fundraisers (provisional and confirmed, fundraise and flexi), its trips and totals", async () => {
    const res = await charityA.get('/api/charity/fundraisers');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.charity).toEqual({ id: ids.a, name: 'Mountain Aid' });
    expect(body.trips.map((x: { name: string }) => x.name)).toEqual(['Peak Trek', 'Coast Walk']);
    expect(body.fundraisers.map((f: { traveller: string }) => f.traveller)).toEqual(['Ann Alpine', 'Bob Beach']);
    const [ann] = body.fundraisers;
    expect(Object.keys(ann).sort()).toEqual([...FUNDRAISER_FIELDS].sort());
    expect(ann).toMatchObject({
      booking_id: ids.ann,
      trip: { id: ids.peak, name: 'Peak Trek' },
      target: 2500,
      raised: 0,
      state: 'behind',
      shortfall: 1250,
      acknowledged_at: null,
    });
    expect(body.totals).toMatchObject({ fundraisers: 2, raised: 0, pledged: 3750, behind: 1, met: 0 });

    const other = (await charityB.get('/api/charity/fundraisers')).json();
    expect(other.fundraisers.map((f: { booking_id: number }) => f.booking_id)).toEqual([ids.rita]);
  });

  it('filters by trip and state; a trip of another charity gives an empty list, a bad filter a 422', async () => {
    const byTrip = (await charityA.get(`/api/charity/fundraisers?trip_id=${ids.coast}`)).json();
    expect(byTrip.fundraisers.map((f: { traveller: string }) => f.traveller)).toEqual(['Bob Beach']);
    const behind = (await charityA.get('/api/charity/fundraisers?state=behind')).json();
    expect(behind.fundraisers.map((f: { traveller: string }) => f.traveller)).toEqual(['Ann Alpine']);
    expect((await charityA.get(`/api/charity/fundraisers?trip_id=${ids.river}`)).json().fundraisers).toEqual([]);
    // a page past the last: no rows, the same totals and trips
    const past = (await charityA.get('/api/charity/fundraisers?page=2')).json();
    expect(past).toMatchObject({ current_page: 2, last_page: 1, per_page: 50, from: null, to: null, fundraisers: [] });
    expect(past.totals.fundraisers).toBe(2);
    expect(past.trips).toHaveLength(2);
    const bad = await charityA.get('/api/charity/fundraisers?state=lost');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({ state: ['The state must be on_track, behind, met or not_fundraising.'] });
  });

  it('downloads the same rows as an .xlsx, recorded in the history', async () => {
    // every row, whichever page the screen shows
    const res = await charityA.get('/api/charity/fundraisers?format=xlsx&page=2');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="fundraisers-mountain-aid.xlsx"');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows = (book.getWorksheet('Fundraisers')!.getSheetValues() as unknown[][])
      .filter(Boolean)
      .map((r) => r.slice(1));
    expect(rows[0]).toEqual([
      'Traveller',
      'Booking',
      'Trip',
      'Departure',
      'Target (£)',
      'Raised (£)',
      'State',
      'Shortfall (£)',
      'Fundraising page',
      'Acknowledged',
    ]);
    expect(rows.slice(1).map((r) => [r[0], r[4], r[6], r[7]])).toEqual([
      ['Ann Alpine', 2500, 'Behind', 1250],
      ['Bob Beach', 1250, 'On track', undefined],
    ]);
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'export.fundraisers'));
    expect(event).toMatchObject({
      actorName: 'Alex Partner',
      summary: 'Alex Partner downloaded the fundraisers of Mountain Aid (2 travellers)',
    });
  });
});

describe('what a charity receives', () => {
  it('is an allow-list: no other column of the booking reaches the portal, whatever it holds', async () => {
    // every text column of the booking given a value of its own; a new column is covered as it is added
    const allowed = new Set(['ref', 'firstName', 'lastName', 'fundraisingPageUrl', 'fundingType', 'status']);
    const columns = Object.entries(getTableColumns(bookings)).filter(
      ([key, c]) => c.dataType === 'string' && c.columnType === 'PgText' && !allowed.has(key),
    );
    expect(columns.length).toBeGreaterThan(20);
    const planted: string[] = [];
    for (const [key] of columns) {
      const value = `planted-${key}`;
      try {
        await t.db
          .update(bookings)
          .set({ [key]: value })
          .where(eq(bookings.id, ids.bob));
        planted.push(value);
      } catch {
        // a column whose values are checked (an enum in all but name) cannot take it
      }
    }
    expect(planted.length).toBeGreaterThan(20);
    const replies = [
      (await charityA.get('/api/charity/fundraisers')).body,
      (await charityA.get(`/api/charity/fundraisers/${ids.bob}`)).body,
    ];
    for (const body of replies) for (const value of planted) expect(body).not.toContain(value);
    for (const body of [(await charityA.get(`/api/charity/fundraisers/${ids.ann}`)).body]) {
      for (const value of [
        'PASS-SECRET-1',
        'hidden@example.test',
        '07700 900999',
        'Secret Street',
        'MEDICAL-SECRET',
        'NOK-SECRET',
        'DIET-SECRET',
      ])
        expect(body).not.toContain(value);
    }
    const detail = (await charityA.get(`/api/charity/fundraisers/${ids.ann}`)).json();
    expect(Object.keys(detail).sort()).toEqual([...PORTAL_FUNDRAISER_FIELDS].sort());
    expect(FUNDRAISER_FIELDS).toEqual([
      'booking_id',
      'booking_ref',
      'traveller',
      'trip',
      'departure',
      'funding_type',
      'target',
      'raised',
      'state',
      'shortfall',
      'page_url',
      'acknowledged_at',
    ]);
  });
});

describe('one fundraiser', () => {
  it("is found only when it is the charity's own, provisional or confirmed, and fundraising", async () => {
    const ann = await charityA.get(`/api/charity/fundraisers/${ids.ann}`);
    expect(ann.statusCode).toBe(200);
    expect(ann.json()).toMatchObject({
      traveller: 'Ann Alpine',
      milestones: [
        { percent: 50, weeks_before: 16 },
        { percent: 80, weeks_before: 12 },
        { percent: 100, weeks_before: 4 },
      ],
      missed: { percent: 50 },
      entries: [],
      notes: [],
    });
    for (const id of [ids.rita, ids.self, ids.gone, 999999]) {
      const res = await charityA.get(`/api/charity/fundraisers/${id}`);
      expect(res.statusCode, `booking ${id}`).toBe(404);
      expect(res.json()).toEqual({ message: 'Fundraiser not found' });
    }
    expect((await charityB.get(`/api/charity/fundraisers/${ids.ann}`)).statusCode).toBe(404);
  });

  it('is acknowledged once, by the charity, in the history; another charity cannot', async () => {
    const res = await charityA.post(`/api/charity/fundraisers/${ids.ann}/acknowledge`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ acknowledged_at: expect.any(String), acknowledged_by: 'Alex Partner' });
    const again = await charityA.post(`/api/charity/fundraisers/${ids.ann}/acknowledge`);
    expect(again.json().acknowledged_at).toBe(res.json().acknowledged_at);
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'fundraising.acknowledged'));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      bookingId: ids.ann,
      actorName: 'Alex Partner',
      summary: `Alex Partner acknowledged Ann Alpine (${res.json().booking_ref}) as a fundraiser of Mountain Aid`,
    });
    expect((await charityB.post(`/api/charity/fundraisers/${ids.ann}/acknowledge`)).statusCode).toBe(404);
    expect((await charityA.post(`/api/charity/fundraisers/${ids.rita}/acknowledge`)).statusCode).toBe(404);
    const [rita] = await t.db
      .select({ at: bookings.charityAcknowledgedAt })
      .from(bookings)
      .where(eq(bookings.id, ids.rita));
    expect(rita!.at).toBeNull();
    // staff see it on the booking
    expect((await admin.get(`/api/bookings/${ids.ann}/fundraising`)).json()).toMatchObject({
      acknowledged_by: 'Alex Partner',
    });
  });

  it('takes a raised-to-date entry, always as charity confirmed; staff see it; bad input and other charities change nothing', async () => {
    const res = await charityA.post(`/api/charity/fundraisers/${ids.ann}/entries`, {
      amount: '1,300.50',
      date: today,
      note: 'Gift Aid claimed',
      source: 'offline',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      raised: 1300.5,
      state: 'on_track',
      entries: [
        {
          amount: 1300.5,
          date: today,
          source: 'charity_confirmed',
          note: 'Gift Aid claimed',
          recorded_by: 'Alex Partner',
        },
      ],
    });
    const staff = (await admin.get(`/api/bookings/${ids.ann}/fundraising`)).json();
    expect(staff.entries).toMatchObject([{ source: 'charity_confirmed', recorded_by: 'Alex Partner' }]);
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'fundraising.entry_added'), eq(auditEvents.bookingId, ids.ann)));
    expect(event).toMatchObject({ actorName: 'Alex Partner' });

    const bad = await charityA.post(`/api/charity/fundraisers/${ids.ann}/entries`, { amount: 'lots', date: 'soon' });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['amount', 'date']);
    const future = await charityA.post(`/api/charity/fundraisers/${ids.ann}/entries`, {
      amount: 10,
      date: addDays(today, 1),
    });
    expect(future.statusCode).toBe(422);
    expect(future.json().errors).toEqual({ date: ['The date must not be after today.'] });
    expect(
      (await charityB.post(`/api/charity/fundraisers/${ids.ann}/entries`, { amount: 10, date: today })).statusCode,
    ).toBe(404);
    expect(
      (await charityA.post(`/api/charity/fundraisers/${ids.rita}/entries`, { amount: 10, date: today })).statusCode,
    ).toBe(404);
    expect(
      (await charityA.post(`/api/charity/fundraisers/${ids.self}/entries`, { amount: 10, date: today })).statusCode,
    ).toBe(404);
    expect(await t.db.select().from(fundraisingEntries)).toHaveLength(1);
  });

  it('takes a note for the office: kept on the booking as text, not markup; seen by staff and by the charity', async () => {
    const res = await charityA.post(`/api/charity/fundraisers/${ids.ann}/notes`, {
      note: 'Ann has <b>raised</b> more offline.\nCheque to follow.',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().notes).toEqual([
      {
        id: expect.any(Number),
        html: '<p>Ann has &lt;b&gt;raised&lt;/b&gt; more offline.<br />Cheque to follow.</p>',
        author: 'Alex Partner',
        created_at: expect.any(String),
      },
    ]);
    const staffNotes = (await admin.get(`/api/bookingNotes?booking_id=${ids.ann}`)).json() as Array<{
      note_text: string;
      user: { name: string };
    }>;
    expect(staffNotes[0]).toMatchObject({
      note_text: expect.stringContaining('&lt;b&gt;raised'),
      user: { name: 'Alex Partner' },
    });
    // a staff note stays with staff
    await admin.post('/api/bookingNotes', { booking_id: ids.ann, note_text: '<p>Staff only: chase the cheque.</p>' });
    expect((await charityA.get(`/api/charity/fundraisers/${ids.ann}`)).json().notes).toHaveLength(1);
    expect((await charityA.post(`/api/charity/fundraisers/${ids.ann}/notes`, { note: '   ' })).json().errors).toEqual({
      note: ['Write the note.'],
    });
    expect((await charityB.post(`/api/charity/fundraisers/${ids.ann}/notes`, { note: 'Hello' })).statusCode).toBe(404);
    expect(await t.db.select().from(bookingNotes).where(eq(bookingNotes.bookingId, ids.ann))).toHaveLength(2);
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'note.created'), eq(auditEvents.actorName, 'Alex Partner')));
    expect(event).toMatchObject({ bookingId: ids.ann });
  });

  it('never shows a note written as staff, even when its author is later made a user of the charity', async () => {
    const staffer = await insertUser(t.db, {
      email: 'seasonal@office.example',
      password: PASSWORD,
      roleId: 1,
      firstName: 'Sid',
      lastName: 'Seasonal',
    });
    const client = t.client();
    expect((await client.login('seasonal@office.example', PASSWORD)).statusCode).toBeLessThan(400);
    const written = await client.post('/api/bookingNotes', {
      booking_id: ids.ann,
      note_text: '<p>Internal: Ann disputes the invoice.</p>',
    });
    expect(written.statusCode, written.body).toBe(201);
    await t.db.update(users).set({ userRoleId: 2, charityId: ids.a }).where(eq(users.id, staffer.id));
    const portal = (await charityA.get(`/api/charity/fundraisers/${ids.ann}`)).json() as {
      notes: Array<{ html: string }>;
    };
    expect(portal.notes.map((n) => n.html).join()).not.toContain('Internal');
    const [row] = await t.db
      .select({ visible: bookingNotes.visibleToCharity })
      .from(bookingNotes)
      .where(eq(bookingNotes.id, written.json().id));
    expect(row!.visible).toBe(false);
  });
});

describe('who may use the portal', () => {
  it('a Charity user with no charity linked, staff and strangers are refused', async () => {
    const none = await unlinked.get('/api/charity/fundraisers');
    expect(none.statusCode).toBe(403);
    expect(none.json().message).toBe('Your account is not linked to a charity yet: ask the office to link it.');
    expect((await admin.get('/api/charity/fundraisers')).statusCode).toBe(403);
    expect((await t.client().get('/api/charity/fundraisers')).statusCode).toBe(401);
    const endUser = await t.signedIn(3);
    expect((await endUser.get(`/api/charity/fundraisers/${ids.ann}`)).statusCode).toBe(403);
  });

  it('a Charity user gets 403 from every back-office route, walked from the route table', async () => {
    const backOffice = t.app.routeScopes.filter((r) => r.access === 'admin' && r.method !== 'HEAD');
    expect(backOffice.length).toBeGreaterThan(80);
    const open: string[] = [];
    for (const route of backOffice) {
      // every parameter points at charity A's own fundraiser, or its trip: still not theirs to reach here
      const url = route.url.replace(/:([A-Za-z_]+)/g, (_, name: string) =>
        name.toLowerCase().includes('trip')
          ? String(ids.peak)
          : name === 'queue'
            ? 'chasers'
            : name === 'key'
              ? 'reminder_due'
              : String(ids.ann),
      );
      const res = await charityA.request({
        method: route.method as 'GET',
        url,
        payload: route.method === 'GET' ? undefined : {},
      });
      if (res.statusCode !== 403) open.push(`${route.method} ${route.url} → ${res.statusCode}`);
    }
    expect(open).toEqual([]);
    // the staff download of bookings too
    expect((await charityA.get('/bookings/export?format=xls&timing=all')).statusCode).toBe(403);
  });

  it('a token with the fundraising scope reads and records for its own charity only; other scopes and areas are refused', async () => {
    // a Charity user is offered the portal's scope; staff are not
    const scopes = (await charityA.get('/oauth/scopes')).json() as Array<{ id: string }>;
    expect(scopes.map((s) => s.id)).toContain('fundraising');
    expect(((await admin.get('/oauth/scopes')).json() as Array<{ id: string }>).map((s) => s.id)).not.toContain(
      'fundraising',
    );
    const made = await charityA.post('/oauth/personal-access-tokens', { name: 'Our CRM', scopes: ['fundraising'] });
    expect(made.statusCode, made.body).toBeLessThan(300);
    const token = made.json().accessToken as string;
    const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
      t.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${token}` },
        ...(payload ? { payload: payload as object } : {}),
      });
    const list = await call('GET', '/api/charity/fundraisers');
    expect(list.statusCode).toBe(200);
    expect(list.json().fundraisers.map((f: { booking_id: number }) => f.booking_id)).toEqual([ids.ann, ids.bob]);
    const entry = await call('POST', `/api/charity/fundraisers/${ids.bob}/entries`, { amount: 25, date: today });
    expect(entry.statusCode, entry.body).toBe(201);
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'fundraising.entry_added'), eq(auditEvents.bookingId, ids.bob)));
    expect(event).toMatchObject({ actorType: 'personal_token', actorUserId: expect.any(Number) });
    expect((await call('POST', `/api/charity/fundraisers/${ids.rita}/acknowledge`)).statusCode).toBe(404);
    // the scope opens nothing else, and the role still closes the back office
    expect((await call('GET', '/api/bookings')).statusCode).toBe(403);
    const wide = (
      await charityA.post('/oauth/personal-access-tokens', { name: 'Wide', scopes: ['bookings:read'] })
    ).json().accessToken as string;
    const narrow = await t.app.inject({
      method: 'GET',
      url: '/api/charity/fundraisers',
      headers: { authorization: `Bearer ${wide}` },
    });
    expect(narrow.statusCode).toBe(403);
    expect(narrow.json().message).toBe('This token does not have the fundraising scope.');
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/bookings/${ids.ann}`,
          headers: { authorization: `Bearer ${wide}` },
        })
      ).statusCode,
    ).toBe(403);
  });

  it('unlinking the user from the charity ends their access', async () => {
    const client = await charityUser('moving@mountain.example', ids.a, 'Mo');
    expect((await client.get('/api/charity/fundraisers')).statusCode).toBe(200);
    const me = (await client.get('/api/me')).json() as { id: number; charity_id: number | null };
    expect(me.charity_id).toBe(ids.a);
    const res = await admin.patch('/api/users/update', {
      id: me.id,
      email: 'moving@mountain.example',
      first_name: 'Mo',
      last_name: 'Partner',
      user_role_id: 2,
      charity_id: ids.b,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await client.get('/api/charity/fundraisers')).statusCode).toBe(401);
  });
});
