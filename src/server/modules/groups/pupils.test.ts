import { and, eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ukToday } from '../../../contract/dates.ts';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import { auditEvents, bookings, scheduleRows, users } from '../../../db/schema/index.ts';
import { hashPassword } from '../../../shared/password.ts';
import { operatorOf } from '../../config.ts';
import { createMailer } from '../../mail/transport.ts';
import { PupilService } from './pupils.ts';
import { smtpSink } from '../../../../tests/support/smtp.ts';
import { startStripeStandIn, type StripeStandIn } from '../../../../tests/support/stripe-stand-in.ts';
import { createTestApp, PASSWORD, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';

/**
 * Issue 37: a group leader adds pupils, one by one or from a list (.xlsx or .csv, checked row by
 * row, nothing saved while any row is bad); each parent is invited to their child's page; the
 * leader's one click reminds the parents of those behind or not ready; the group list as .xlsx.
 */
let sink: Awaited<ReturnType<typeof smtpSink>>;
let stripe: StripeStandIn;
let t: TestApp;
let admin: TestClient;
let n = 0;
const today = ukToday();
const yearsAgo = (years: number) => `${Number(today.slice(0, 4)) - years}${today.slice(4)}`;

beforeAll(async () => {
  sink = await smtpSink();
  stripe = await startStripeStandIn();
  t = await createTestApp({
    smtpUrl: `smtp://127.0.0.1:${sink.port}`,
    stripe: { secretKey: stripe.secretKey, webhookSecret: stripe.webhookSecret, apiBase: stripe.url },
  });
  admin = await t.signedIn(1);
});
afterAll(async () => {
  await t.close();
  await sink.close();
  await stripe.close();
});

/** A school trip 90 days away (cost £1,895, deposit £250) with one group, and its leader signed in. */
async function groupOf(opts: { payer?: string; school_share?: string; places?: number; capacity?: number } = {}) {
  n += 1;
  const trip = await insertTrip(t.db, {
    name: `Year 8 Rome ${n}`,
    type: 'school',
    departureDate: addDays(today, 90),
    returnDate: addDays(today, 95),
    ...(opts.capacity ? { capacity: opts.capacity } : {}),
  });
  const email = `leader${n}@school.test`;
  const group = await admin.post(`/api/trips/${trip.id}/groups`, {
    school: `School ${n}`,
    leader_name: `Lee Leader${n}`,
    leader_email: email,
    places: opts.places ?? 40,
    payer: opts.payer ?? 'parents',
    ...(opts.school_share ? { school_share: opts.school_share } : {}),
  });
  expect(group.statusCode, group.body).toBe(201);
  await t.db
    .update(users)
    .set({ passwordHash: await hashPassword(PASSWORD) })
    .where(eq(users.email, email));
  const leader = t.client();
  expect((await leader.login(email, PASSWORD)).statusCode).toBe(204);
  await leader.refreshCsrf('/my');
  return { tripId: trip.id, groupId: group.json().id as number, leader };
}

const pupil = (i: number, over: Record<string, string> = {}) => ({
  first_name: `Pupil${i}`,
  last_name: 'Smith',
  date_of_birth: yearsAgo(13),
  parent_name: `Pat Smith${i}`,
  parent_email: `parent${n}.${i}@home.test`,
  ...over,
});

function multipart(filename: string, bytes: Buffer, type: string) {
  const boundary = '----pupils';
  return {
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
      ),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
const upload = (leader: TestClient, groupId: number, filename: string, bytes: Buffer, type = 'text/csv') =>
  leader.request({
    method: 'POST',
    url: `/api/my/groups/${groupId}/pupils/import`,
    ...multipart(filename, bytes, type),
  });

const HEADER = 'First name,Last name,Date of birth,Parent’s name,Parent’s email';
const csvOf = (rows: string[]) => Buffer.from([HEADER, ...rows].join('\r\n'));

/** The emails to an address, once they have come (invitations go after the answer). */
async function mailTo(address: string, count = 1) {
  for (let i = 0; i < 250; i++) {
    const mail = sink.received.filter((m) => m.to.includes(address));
    if (mail.length >= count) return mail;
    await new Promise((r) => setTimeout(r, 20));
  }
  return sink.received.filter((m) => m.to.includes(address));
}
const plain = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=E2=80=99/g, '’');

/** The parent of a pupil, signed in from the link in their invitation (as on their phone). */
async function parentFromInvitation(address: string): Promise<TestClient> {
  const [mail] = await mailTo(address);
  const token = /\/my\/sign-in\/([0-9a-z]+\.[0-9a-z]+\.[0-9a-z]+\.[0-9a-z]+\.[A-Za-z0-9_-]{32})/.exec(
    plain(mail!.raw),
  )![1]!;
  const client = t.client();
  await client.refreshCsrf('/my/sign-in');
  expect((await client.post('/api/my/sign-in', { token })).statusCode).toBe(200);
  await client.refreshCsrf('/my');
  return client;
}

const groupBookings = (groupId: number) =>
  t.db.select().from(bookings).where(eq(bookings.groupId, groupId)).orderBy(bookings.id);

describe('a group leader adds pupils', () => {
  it('adds one: a provisional booking in the group on the parent’s new account, the parent invited, the leader the actor', async () => {
    const { groupId, tripId, leader } = await groupOf();
    const res = await leader.post(`/api/my/groups/${groupId}/pupils`, pupil(1, { date_of_birth: '3/5/2013' }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe(
      'Pupil1 Smith is in the group. We have emailed their parent an invitation to their page.',
    );
    const [b] = await groupBookings(groupId);
    expect(b).toMatchObject({
      tripId,
      status: 'provisional',
      source: 'group',
      firstName: 'Pupil1',
      lastName: 'Smith',
      dateOfBirth: '2013-05-03',
      email: `parent${n}.1@home.test`,
      nokName: 'Pat Smith1',
      nokRelationship: 'Parent',
    });
    const [parent] = await t.db.select().from(users).where(eq(users.id, b!.userId!));
    expect(parent).toMatchObject({ userRoleId: 3, firstName: 'Pat', lastName: 'Smith1' });
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.bookingId, b!.id), eq(auditEvents.action, 'booking.created')));
    expect(event!.summary).toContain(`added Pupil1 Smith to the group of School ${n}`);
    expect(event!.actorName).toContain('Lee Leader');
    // the invitation: the school, the leader, and a link that signs the parent in to the child's page
    const [mail] = await mailTo(`parent${n}.1@home.test`);
    const text = plain(mail!.raw);
    expect(text).toContain(`Lee Leader${n} of School ${n} has added Pupil1 Smith`);
    const token = /\/my\/sign-in\/([0-9a-z]+\.[0-9a-z]+\.[0-9a-z]+\.[0-9a-z]+\.[A-Za-z0-9_-]{32})/.exec(text)![1]!;
    const parentClient = t.client();
    await parentClient.refreshCsrf('/my/sign-in');
    const signedIn = await parentClient.post('/api/my/sign-in', { token });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().redirect).toBe(`/my/bookings/${b!.id}`);
    await parentClient.refreshCsrf('/my');
    const mine = (await parentClient.get('/api/my/bookings')).json();
    expect(mine.bookings.map((x: { ref: string }) => x.ref)).toEqual([b!.ref]);
    const [invited] = await t.db.select().from(bookings).where(eq(bookings.id, b!.id));
    expect(invited!.parentInvitedAt).not.toBeNull();
    expect((await leader.get(`/api/my/groups/${groupId}`)).json().pupils[0]).toMatchObject({
      name: 'Pupil1 Smith',
      parent_invited: true,
      consent: 'missing',
    });
  });

  it('schedules the parents’ rest when the school pays a share, nothing when the school pays all: each adds up to the cost', async () => {
    const split = await groupOf({ payer: 'split', school_share: '400' });
    expect((await split.leader.post(`/api/my/groups/${split.groupId}/pupils`, pupil(1))).statusCode).toBe(201);
    const [b] = await groupBookings(split.groupId);
    const rows = await t.db.select().from(scheduleRows).where(eq(scheduleRows.bookingId, b!.id));
    expect(rows.reduce((sum, r) => sum + r.amountPence, 0)).toBe(189_500 - 40_000);
    const school = await groupOf({ payer: 'school' });
    expect((await school.leader.post(`/api/my/groups/${school.groupId}/pupils`, pupil(1))).statusCode).toBe(201);
    const [c] = await groupBookings(school.groupId);
    expect(await t.db.select().from(scheduleRows).where(eq(scheduleRows.bookingId, c!.id))).toEqual([]);
    const parents = await groupOf();
    expect((await parents.leader.post(`/api/my/groups/${parents.groupId}/pupils`, pupil(1))).statusCode).toBe(201);
    const [d] = await groupBookings(parents.groupId);
    const full = await t.db.select().from(scheduleRows).where(eq(scheduleRows.bookingId, d!.id));
    expect(full.reduce((sum, r) => sum + r.amountPence, 0)).toBe(189_500);
  });

  it('refuses bad input field by field, a pupil already in the group, a full group, and a group not theirs', async () => {
    const { groupId, leader } = await groupOf({ places: 2 });
    const bad = await leader.post(`/api/my/groups/${groupId}/pupils`, {
      first_name: ' ',
      last_name: 'Smith',
      date_of_birth: '31/02/2013',
      parent_name: '',
      parent_email: 'not-an-email',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({
      first_name: ['The pupil’s first name field is required.'],
      date_of_birth: ['The date of birth must be a date, as 31/12/2012 or 2012-12-31.'],
      parent_name: ['The parent’s name field is required.'],
      parent_email: ['The parent’s email must be a valid email address.'],
    });
    const future = await leader.post(
      `/api/my/groups/${groupId}/pupils`,
      pupil(1, { date_of_birth: addDays(today, 3) }),
    );
    expect(future.json().errors).toEqual({ date_of_birth: ['The date of birth must be in the past.'] });
    expect((await leader.post(`/api/my/groups/${groupId}/pupils`, pupil(1))).statusCode).toBe(201);
    const twice = await leader.post(`/api/my/groups/${groupId}/pupils`, pupil(1, { first_name: 'pupil1' }));
    expect(twice.statusCode).toBe(422);
    expect(twice.json().errors.first_name[0]).toMatch(/^pupil1 Smith is already in the group \(booking /);
    expect((await leader.post(`/api/my/groups/${groupId}/pupils`, pupil(2))).statusCode).toBe(201);
    const full = await leader.post(`/api/my/groups/${groupId}/pupils`, pupil(3));
    expect(full.statusCode).toBe(422);
    expect(full.json().message).toBe('The group’s 2 places are all taken: ask the office for more places.');
    expect(await groupBookings(groupId)).toHaveLength(2);
    // another leader's group is not found; the office cannot call a leader's routes
    const other = await groupOf();
    expect((await other.leader.post(`/api/my/groups/${groupId}/pupils`, pupil(4))).statusCode).toBe(404);
    expect((await other.leader.post(`/api/my/groups/${groupId}/reminders`)).statusCode).toBe(404);
    expect((await other.leader.get(`/api/my/groups/${groupId}/list`)).statusCode).toBe(404);
    expect((await admin.post(`/api/my/groups/${groupId}/pupils`, pupil(5))).statusCode).toBe(403);
  });
});

describe("a parent's invitation", () => {
  it('that the mail server refuses is marked failed, and the hourly job sends it again a day later, once', async () => {
    const { groupId, leader } = await groupOf();
    const address = `bounce${n}@refused.test`;
    const added = await leader.post(`/api/my/groups/${groupId}/pupils`, pupil(1, { parent_email: address }));
    expect(added.statusCode, added.body).toBe(201);
    const id = added.json().added[0].booking_id as number;
    const marked = async () => {
      for (let i = 0; i < 250; i++) {
        const [b] = await t.db.select().from(bookings).where(eq(bookings.id, id));
        // claimed (invited_at) while it is being sent; a refusal puts that back and marks it failed
        if (b!.parentInviteFailedAt) return b!;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error('the invitation was never refused');
    };
    const tried = await marked();
    expect(tried.parentInvitedAt).toBeNull();
    expect(tried.parentInviteFailedAt).not.toBeNull();
    expect((await leader.get(`/api/my/groups/${groupId}`)).json().pupils[0].parent_invited).toBe(false);
    const job = (hoursLater: number) =>
      new PupilService({
        db: t.db,
        mailer: createMailer(t.config),
        operator: operatorOf(t.config),
        clock: { now: () => Date.now() + hoursLater * 3_600_000 },
      });
    // an hour later: not yet (a refused address is tried again a day after)
    expect((await job(1).inviteOwed()).sent + (await job(1).inviteOwed()).failed).toBe(0);
    // the parent's address is put right; a day later the job sends it, and then never again
    await t.db
      .update(bookings)
      .set({ email: `fixed${n}@home.test` })
      .where(eq(bookings.id, id));
    expect(await job(25).inviteOwed()).toMatchObject({ sent: 1, failed: 0 });
    expect((await mailTo(`fixed${n}@home.test`)).length).toBe(1);
    expect(await job(26).inviteOwed()).toMatchObject({ sent: 0, failed: 0 });
  });
});

describe('a group leader imports a list', () => {
  it('adds every row of a CSV (a BOM, semicolons and UK dates are fine), each parent invited once', async () => {
    const { groupId, leader } = await groupOf();
    const csv = Buffer.from(
      '\uFEFFfirst name;LAST NAME;Date of Birth;Parent’s Name;Parent’s E-mail;Form\r\n' +
        `Ann;Lee;01/09/2012;Al Lee;al.lee${n}@home.test;8B\r\n` +
        ';;;;;\r\n' +
        `Ben;Lee;2012-10-02;Al Lee;al.lee${n}@home.test;8B\r\n`,
    );
    const res = await upload(leader, groupId, 'pupils.csv', csv);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe(
      '2 pupils are in the group. We have emailed each parent an invitation to their child’s page.',
    );
    const made = await groupBookings(groupId);
    expect(made.map((b) => [b.firstName, b.dateOfBirth])).toEqual([
      ['Ann', '2012-09-01'],
      ['Ben', '2012-10-02'],
    ]);
    // one parent of two: one account, an invitation for each child
    expect(made[0]!.userId).toBe(made[1]!.userId);
    expect(await mailTo(`al.lee${n}@home.test`, 2)).toHaveLength(2);
    const [imported] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'group.pupils_imported'));
    expect(imported!.summary).toContain('imported a list of 2 pupils');
  });

  it('reads an .xlsx: dates as dates, emails as links', async () => {
    const { groupId, leader } = await groupOf();
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Year 8');
    sheet.addRow(['First Name', 'Last Name', 'Date of birth', "Parent's name", "Parent's email"]);
    sheet.addRow([
      'Cai',
      'Ng',
      new Date('2012-11-30T00:00:00Z'),
      'Mo Ng',
      { text: 'mo.ng@home.test', hyperlink: 'mailto:mo.ng@home.test' },
    ]);
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    const res = await upload(leader, groupId, 'year8.xlsx', bytes, 'application/octet-stream');
    expect(res.statusCode, res.body).toBe(201);
    const [b] = await groupBookings(groupId);
    expect(b).toMatchObject({ firstName: 'Cai', dateOfBirth: '2012-11-30', email: 'mo.ng@home.test' });
  });

  it('names each bad row and saves nothing: missing fields, bad dates, a pupil twice, one already in the group', async () => {
    const { groupId, tripId, leader } = await groupOf();
    expect((await leader.post(`/api/my/groups/${groupId}/pupils`, pupil(1, { first_name: 'Dee' }))).statusCode).toBe(
      201,
    );
    // its invitation's event written, so that the count below stands still
    for (let i = 0; i < 250; i++) {
      const sent = await t.db
        .select({ id: auditEvents.id })
        .from(auditEvents)
        .where(and(eq(auditEvents.tripId, tripId), eq(auditEvents.action, 'email.sent')));
      if (sent.length) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const before = (await groupBookings(groupId)).length;
    // the trip's events (other tests' invitations go on being written meanwhile)
    const tripEvents = async () =>
      (
        await t.db
          .select({ n: sql<number>`count(*)::int` })
          .from(auditEvents)
          .where(eq(auditEvents.tripId, tripId))
      )[0]!.n;
    const events = await tripEvents();
    const res = await upload(
      leader,
      groupId,
      'list.csv',
      csvOf([
        `Eve,Ray,${yearsAgo(12)},Jo Ray,jo.ray@home.test`,
        `,Ray,2012-13-01,Jo Ray,jo.ray`,
        `Eve,ray,${yearsAgo(12)},Jo Ray,jo.ray@home.test`,
        `Dee,Smith,${yearsAgo(13)},Pat Smith,p@home.test`,
      ]),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(
      '3 rows of the list have errors, so no pupil was added. Row 3: The pupil’s first name field is required.',
    );
    expect(res.json().errors).toEqual({
      'rows.3.first_name': ['The pupil’s first name field is required.'],
      'rows.3.date_of_birth': ['The date of birth must be a date, as 31/12/2012 or 2012-12-31.'],
      'rows.3.parent_email': ['The parent’s email must be a valid email address.'],
      'rows.4.first_name': ['The same pupil as row 2.'],
      'rows.5.first_name': [expect.stringMatching(/^Dee Smith is already in the group \(booking /)],
    });
    expect(await groupBookings(groupId)).toHaveLength(before);
    expect(await tripEvents()).toBe(events);
  });

  it('refuses a file that is not a list, one without its columns, and one bigger than its group', async () => {
    const { groupId, leader } = await groupOf({ places: 3 });
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const notList = await upload(leader, groupId, 'pupils.png', png, 'image/png');
    expect(notList.json().errors).toEqual({
      file: ['The list must be an Excel workbook (.xlsx) or a CSV file (.csv) saved as UTF-8.'],
    });
    const columns = await upload(leader, groupId, 'pupils.csv', Buffer.from('Name,Email\nAnn Lee,al@home.test\n'));
    expect(columns.json().errors.file[0]).toBe(
      'The list has no “First name”, “Last name”, “Date of birth”, “Parent’s name”, “Parent’s email” columns: its first row must name the columns First name, Last name, Date of birth, Parent’s name, Parent’s email.',
    );
    const empty = await upload(leader, groupId, 'pupils.csv', csvOf([]));
    expect(empty.json().errors).toEqual({ file: ['The list has no pupils: only its heading row.'] });
    const nothing = await leader.request({
      method: 'POST',
      url: `/api/my/groups/${groupId}/pupils/import`,
      payload: {},
    });
    expect(nothing.statusCode).toBe(422);
    const four = await upload(
      leader,
      groupId,
      'pupils.csv',
      csvOf([1, 2, 3, 4].map((i) => `P${i},Lee,${yearsAgo(12)},Al Lee,al${i}@home.test`)),
    );
    expect(four.statusCode).toBe(422);
    expect(four.json().message).toBe(
      'The group has 3 of its 3 places left, and this adds 4 pupils: ask the office for more places, or add fewer.',
    );
    expect(await groupBookings(groupId)).toHaveLength(0);
  });

  it('takes a list of 500 pupils in one go', async () => {
    const { groupId, leader } = await groupOf({ places: 600 });
    const rows = Array.from({ length: 500 }, (_, i) => `P${i},Big,${yearsAgo(12)},Pa ${i},pa${n}.${i}@home.test`);
    const res = await upload(leader, groupId, 'big.csv', csvOf(rows));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().added).toHaveLength(500);
    expect((await leader.get(`/api/my/groups/${groupId}`)).json().summary.pupils).toBe(500);
  }, 60_000);
});

describe('a parent pays', () => {
  it('pays their child’s deposit by card from their page (the stand-in Stripe), and the leader sees it paid', async () => {
    const { groupId, leader } = await groupOf({ payer: 'split', school_share: '400' });
    const address = `payer${n}@home.test`;
    expect(
      (await leader.post(`/api/my/groups/${groupId}/pupils`, pupil(1, { parent_email: address }))).statusCode,
    ).toBe(201);
    const [b] = await groupBookings(groupId);
    // the office raises the deposit (the money job does it on its day)
    const raised = await admin.post(`/api/bookings/${b!.id}/invoices`, { invoice_type: 'deposit' });
    expect(raised.statusCode, raised.body).toBe(201);
    const parent = await parentFromInvitation(address);
    const page = (await parent.get(`/api/my/bookings/${b!.id}`)).json();
    const owed = page.invoices.find((i: { outstanding: number }) => i.outstanding > 0);
    expect(owed).toMatchObject({ outstanding: 250 });
    const token = owed.pay_url.split('/pay/')[1];
    const payer = t.client();
    await payer.refreshCsrf(`/pay/${token}`);
    const checkout = await payer.post(`/api/public/pay/${token}/checkout`);
    expect(checkout.statusCode, checkout.body).toBe(200);
    const session = stripe.pay(/\/c\/pay\/(cs_\w+)$/.exec(checkout.json().url)![1]!);
    const signed = stripe.signed(stripe.event('checkout.session.completed', session));
    const hook = await t.client().request({
      method: 'POST',
      url: '/webhooks/stripe',
      payload: signed.payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': signed.header },
      csrf: false,
    });
    expect(hook.json()).toEqual({ received: true, outcome: 'payment recorded' });
    expect((await leader.get(`/api/my/groups/${groupId}`)).json().pupils[0]).toMatchObject({ paid: 250, overdue: 0 });
    // the parents' schedule is the rest of the cost: £1,895 less the school's £400
    const schedule = (await parent.get(`/api/my/bookings/${b!.id}`)).json().schedule as Array<{ amount: number }>;
    expect(schedule.reduce((sum, r) => sum + r.amount, 0)).toBe(1495);
  });
});

describe("the leader's reminders and list", () => {
  it('reminds the parents of those behind or not ready, leaves out those whose chasers are off, and only once a day', async () => {
    const { groupId, tripId, leader } = await groupOf();
    const behind = await insertBooking(t.db, tripId, {
      groupId,
      status: 'confirmed',
      firstName: 'Owen',
      lastName: 'Owes',
      email: `owen${n}@home.test`,
      dateOfBirth: yearsAgo(13),
    });
    const invoice = await admin.post('/api/invoices', {
      booking_id: behind.id,
      invoice_date: addDays(today, -14),
      due_date: addDays(today, -7),
      invoice_ref: `INV-GRP-${behind.id}`,
      description: 'Deposit',
      items: [{ description: 'Deposit', amount: 250 }],
    });
    expect(invoice.statusCode, invoice.body).toBe(201);
    const quiet = await insertBooking(t.db, tripId, {
      groupId,
      status: 'confirmed',
      firstName: 'Quin',
      lastName: 'Quiet',
      email: `quin${n}@home.test`,
      dateOfBirth: yearsAgo(13),
      chasersOff: true,
      chasersOffReason: 'Parent asked',
    });
    const res = await leader.post(`/api/my/groups/${groupId}/reminders`);
    expect(res.statusCode, res.body).toBe(200);
    const sent = res.json();
    // one chaser to a parent: for the consent, the first thing missing (not the form and the passport too)
    expect(sent).toEqual({
      message:
        'Sent 1 payment reminder, 1 chaser, 2 invitations to parents. 1 pupil’s parent was left out: the office has turned their reminders off.',
      reminders: 1,
      chasers: 1,
      invitations: 2,
      opted_out: 1,
      failed: 0,
    });
    const owen = (await mailTo(`owen${n}@home.test`, 3)).map((m) => plain(m.raw));
    expect(owen.some((m) => m.includes(`INV-GRP-${behind.id}`))).toBe(true);
    expect(owen.some((m) => m.includes('we need a parent’s consent'))).toBe(true);
    // the quiet parent gets their invitation, never a chaser
    const quin = (await mailTo(`quin${n}@home.test`)).map((m) => plain(m.raw));
    expect(quin).toHaveLength(1);
    expect(quin[0]).toContain('has added Quin Quiet');
    expect(quiet.id).toBeGreaterThan(0);
    const again = await leader.post(`/api/my/groups/${groupId}/reminders`);
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toMatch(
      /^This group’s reminders went today at \d\d:\d\d: the next can be sent tomorrow\.$/,
    );
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'group.reminders_sent'), eq(auditEvents.subjectId, String(groupId))));
    expect(event!.actorName).toContain('Lee Leader');
  });

  it('downloads the group list as an .xlsx without the medical detail', async () => {
    const { groupId, tripId, leader } = await groupOf();
    await insertBooking(t.db, tripId, {
      groupId,
      status: 'confirmed',
      firstName: 'Mia',
      lastName: 'Medic',
      nokName: 'Mo Medic',
      dateOfBirth: '2012-06-01',
      medicalConditions: true,
      medicalDetail: 'Secret peanut allergy',
    });
    const res = await leader.get(`/api/my/groups/${groupId}/list`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="pupils-school-${n}.xlsx"`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).values).toContain('Medical information given');
    const row = sheet.getRow(2).values as unknown[];
    expect(row).toContain('Mia Medic');
    expect(row).toContain('Mo Medic');
    expect(JSON.stringify(sheet.getSheetValues())).not.toContain('peanut');
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'export.group_list'));
    expect(event!.summary).toContain('downloaded the list of the group of');
  });
});
