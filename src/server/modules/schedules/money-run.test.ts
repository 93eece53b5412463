import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ukToday } from '../../../contract/dates.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import { auditEvents, bookings, invoices, paymentReminders, scheduleRows } from '../../../db/schema/index.ts';
import { smtpSink } from '../../../../tests/support/smtp.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';
import { createMailer } from '../../mail/transport.ts';
import { InvoiceService } from '../invoices/service.ts';
import { moneyRun } from './money-run.ts';
import { ukHour } from '../../common/sending-hours.ts';
import { ReminderService } from './reminders.ts';
import { sendDigest } from './digest.ts';

let t: TestApp;
let admin: TestClient;
let sink: Awaited<ReturnType<typeof smtpSink>>;
let service: InvoiceService;
beforeAll(async () => {
  sink = await smtpSink();
  t = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${sink.port}` });
  admin = await t.signedIn(1);
  service = new InvoiceService(
    t.db,
    { name: t.config.operatorName, address: t.config.operatorAddress },
    createMailer(t.config),
  );
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

/** A clock at a UK wall-clock hour on a day counted from today (schedules are made from today's date). */
const at = (day: number, hour: number) => {
  const date = addDays(ukToday(), day);
  // noon UTC is 12:00 or 13:00 in London; step from there to the hour wanted
  const base = new Date(`${date}T12:00:00Z`);
  return { now: () => base.getTime() + (hour - ukHour(base)) * 3_600_000 };
};
const run = (day: number, hour: number) => {
  const clock = at(day, hour);
  return moneyRun(
    t.db,
    service,
    new ReminderService(t.db, createMailer(t.config), { name: t.config.operatorName, address: [] }, clock),
    clock,
    21,
  );
};
const subjectsTo = (address: string) =>
  sink.received.filter((m) => m.to.includes(address)).map((m) => /^Subject: (.*)$/m.exec(m.raw)?.[1] ?? '');
let n = 0;
const book = async (tripId: number) => {
  n += 1;
  const res = await admin.post('/api/bookings', {
    trip_id: tripId,
    title: 'Mr',
    first_name: 'Ben',
    last_name: `Money${n}`,
    preferred_name: 'Ben',
    email: `ben.money${n}@example.test`,
    as_on_passport: true,
    terms_accepted: true,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
};
const invoicesOf = (bookingId: number) =>
  t.db.select().from(invoices).where(eq(invoices.bookingId, bookingId)).orderBy(invoices.id);

describe('the money job, day by day through a trip', () => {
  it('raises each instalment once at its lead time, and emails it with its PDF in sending hours only', async () => {
    const trip = await insertTrip(t.db, {
      costPence: 200_000,
      depositPence: 30_000,
      departureDate: addDays(ukToday(), 100),
      returnDate: addDays(ukToday(), 110),
    });
    const id = await book(trip.id);

    // day 0, 08:00: the deposit (due on day 14) is within 21 days: raised, but no email before 09:00
    expect(await run(0, 8)).toMatchObject({ raised: 1, sent: 0 });
    expect(await run(0, 8)).toMatchObject({ raised: 0, sent: 0 });
    const [deposit] = await invoicesOf(id);
    expect(deposit).toMatchObject({ type: 'deposit', dueDate: addDays(ukToday(), 14), createdBy: null, sentAt: null });
    const before = sink.received.length;

    // 10:00: the email leaves, once, with the PDF
    expect(await run(0, 10)).toMatchObject({ raised: 0, sent: 1 });
    expect(await run(0, 11)).toMatchObject({ sent: 0 });
    expect(sink.received.length).toBe(before + 1);
    expect(sink.received.at(-1)!.to).toEqual([`ben.money${n}@example.test`]);
    expect(sink.received.at(-1)!.raw).toContain(`${deposit!.invoiceRef}.pdf`);

    // the balance is due on day 44 (56 days before departure): nothing until day 23, then once;
    // the deposit (due day 14) is reminded on days 7 and 11, on day 14, then chased on days 16 and 21
    const reminded: number[] = [];
    for (let day = 1; day <= 22; day++) {
      const r = await run(day, 10);
      expect(r.raised, `day ${day}`).toBe(0);
      if (r.reminders.sent) reminded.push(day);
      // a second run the same day sends nothing again
      expect((await run(day, 15)).reminders.sent, `day ${day}, again`).toBe(0);
    }
    expect(reminded).toEqual([7, 11, 14, 16, 21]);
    expect(await run(23, 10)).toMatchObject({ raised: 1, sent: 1 });
    expect(await run(24, 10)).toMatchObject({ raised: 0, sent: 0 });
    const all = await invoicesOf(id);
    expect(all.map((i) => [i.type, i.dueDate])).toEqual([
      ['deposit', addDays(ukToday(), 14)],
      ['balance', addDays(ukToday(), 44)],
    ]);

    // the booking's schedule, history and emails show it, done by the system
    const schedule = (await admin.get(`/api/bookings/${id}/schedule`)).json();
    expect(schedule.rows.map((r: { state: string; invoice_ref: string }) => [r.state, r.invoice_ref])).toEqual([
      ['invoiced', deposit!.invoiceRef],
      ['invoiced', all[1]!.invoiceRef],
    ]);
    const events = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.bookingId, id), eq(auditEvents.action, 'invoice.created')));
    expect(events.map((e) => e.actorType)).toEqual(['system', 'system']);
    expect((await admin.get(`/api/bookings/${id}/emails`)).json()).toHaveLength(7);
    expect(subjectsTo(`ben.money${n}@example.test`).filter((s) => !s.startsWith('Invoice'))).toEqual([
      expect.stringMatching(/^Payment reminder: INV-\d+ for Test Trek \d+ is due on /),
      expect.stringMatching(/^Payment reminder: /),
      expect.stringMatching(/^Payment due today: /),
      expect.stringMatching(/^Overdue: /),
      expect.stringMatching(/^Overdue: /),
    ]);
  });

  it('stops reminding once the invoice is paid, and when reminders are off; never two emails a day to one traveller', async () => {
    const trip = await insertTrip(t.db, {
      costPence: 100_000,
      depositPence: 10_000,
      departureDate: addDays(ukToday(), 120),
      returnDate: addDays(ukToday(), 130),
    });
    const paid = await book(trip.id);
    await run(0, 10);
    const [deposit] = await invoicesOf(paid);
    const pay = await admin.post('/api/transactions', {
      booking_id: paid,
      invoice_id: deposit!.id,
      invoice_type: 'deposit',
      amount: 100,
      type: 'payment',
      processor: 'BACS',
      date: ukToday(),
    });
    expect(pay.statusCode, pay.body).toBeLessThan(300);
    for (let day = 1; day <= 30; day++) expect((await run(day, 10)).reminders.sent, `day ${day}`).toBe(0);

    // two instalments due the same day for one traveller: one reminder that day
    const trip2 = await insertTrip(t.db, {
      costPence: 100_000,
      depositPence: 10_000,
      departureDate: addDays(ukToday(), 300),
      returnDate: addDays(ukToday(), 310),
    });
    const twice = await book(trip2.id);
    await admin.put(`/api/trips/${trip2.id}/payment-plan`, {
      instalments: [
        { label: 'First', amount_kind: 'percent', percent: 50, due_kind: 'after_booking', due_days: 10 },
        { label: 'Second', amount_kind: 'rest', due_kind: 'after_booking', due_days: 10 },
      ],
    });
    await admin.post(`/api/bookings/${twice}/schedule/rebuild`);
    expect((await run(0, 10)).raised).toBe(2);
    expect((await run(3, 10)).reminders).toMatchObject({ sent: 1, skipped: 1 });

    // reminders off for the booking: nothing
    const off = await book(trip.id);
    await t.db
      .update(bookings)
      .set({ remindersOff: true, remindersOffReason: 'Paying by standing order' })
      .where(eq(bookings.id, off));
    await run(0, 10);
    for (const day of [7, 11, 14, 16]) await run(day, 10);
    expect(await t.db.select().from(paymentReminders).where(eq(paymentReminders.bookingId, off))).toEqual([]);
    expect(await t.db.select().from(paymentReminders).where(eq(paymentReminders.bookingId, paid))).toEqual([]);
  });

  it('raises nothing for a cancelled booking', async () => {
    const trip = await insertTrip(t.db, {
      costPence: 100_000,
      depositPence: 10_000,
      departureDate: addDays(ukToday(), 60),
      returnDate: addDays(ukToday(), 70),
    });
    const id = await book(trip.id);
    const cancel = await admin.patch(`/api/bookings/${id}`, {
      status: 'cancelled',
      first_name: 'Ben',
      last_name: `Money${n}`,
      email: `ben.money${n}@example.test`,
      double_room: false,
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    await run(0, 10);
    expect(await invoicesOf(id)).toEqual([]);
  });

  it('never bills beyond the trip cost: what staff invoiced by hand counts, and an instalment left with nothing is waived', async () => {
    const trip = await insertTrip(t.db, {
      costPence: 100_000,
      depositPence: 10_000,
      departureDate: addDays(ukToday(), 200),
      returnDate: addDays(ukToday(), 210),
    });
    const id = await book(trip.id);
    const balance = await admin.post(`/api/bookings/${id}/invoices`, { invoice_type: 'balance' });
    expect(balance.statusCode, balance.body).toBeLessThan(300);
    await run(0, 10);
    expect((await invoicesOf(id)).map((i) => i.type)).toEqual(['balance']);
    const rows = (await admin.get(`/api/bookings/${id}/schedule`)).json().rows;
    expect(
      rows.map((r: { label: string; state: string; invoice_id: number | null }) => [r.label, r.state, r.invoice_id]),
    ).toEqual([
      ['Deposit', 'waived', null],
      ['Balance', 'invoiced', balance.json().id],
    ]);
    expect(rows[0].waived_reason).toBe('Nothing was left to bill: earlier invoices cover the trip cost.');
  });

  it('two workers raising the same instalment at once raise one invoice', async () => {
    const trip = await insertTrip(t.db, {
      costPence: 100_000,
      depositPence: 10_000,
      departureDate: addDays(ukToday(), 300),
      returnDate: addDays(ukToday(), 310),
    });
    const id = await book(trip.id);
    const [first] = await t.db
      .select()
      .from(scheduleRows)
      .where(eq(scheduleRows.bookingId, id))
      .orderBy(scheduleRows.position);
    const other = new InvoiceService(t.db, { name: 'x', address: [] }, createMailer(t.config));
    const results = await Promise.all([
      service.raiseScheduled(first!.id, ukToday()),
      other.raiseScheduled(first!.id, ukToday()),
    ]);
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect(await invoicesOf(id)).toHaveLength(1);
  });

  it('the evening digest tells the office what went overdue today', async () => {
    const trip = await insertTrip(t.db, {
      costPence: 100_000,
      depositPence: 10_000,
      departureDate: addDays(ukToday(), 150),
      returnDate: addDays(ukToday(), 160),
    });
    const id = await book(trip.id);
    await run(0, 10);
    const office = 'office@example.test';
    // the deposit is due on day 14: on day 15 it went overdue "today"
    expect(await sendDigest(t.db, createMailer(t.config), office, at(14, 18))).toEqual({ sent: false });
    expect(await sendDigest(t.db, createMailer(t.config), office, at(15, 18))).toEqual({ sent: true });
    const mail = sink.received.filter((m) => m.to.includes(office)).at(-1)!;
    expect(mail.raw).toContain(`Money${n}`);
    expect(mail.raw).toMatch(/Instalments that went overdue today: [1-9]/);
    expect(await sendDigest(t.db, createMailer(t.config), undefined, at(15, 18))).toEqual({ sent: false });
    void id;
  });

  it('a run cut off half way (a restart) loses and doubles nothing when the next run picks up', async () => {
    const trips = await Promise.all(
      [1, 2, 3].map((k) =>
        insertTrip(t.db, {
          costPence: 100_000,
          depositPence: 10_000,
          departureDate: addDays(ukToday(), 400 + k),
          returnDate: addDays(ukToday(), 410 + k),
        }),
      ),
    );
    const ids = [] as number[];
    for (const trip of trips) ids.push(await book(trip.id));
    await t.db
      .update(scheduleRows)
      .set({ dueDate: addDays(ukToday(), 5) })
      .where(
        sql`${scheduleRows.bookingId} in (${sql.join(
          ids.map((i) => sql`${i}`),
          sql`, `,
        )}) and ${scheduleRows.position} = 1`,
      );
    // the second email never comes back: the process is killed while it waits
    let calls = 0;
    const real = createMailer(t.config);
    const hanging = {
      send: (mail: Parameters<typeof real.send>[0]) =>
        ++calls === 2 ? new Promise<never>(() => undefined) : real.send(mail),
    };
    const cut = new InvoiceService(t.db, { name: t.config.operatorName, address: [] }, hanging);
    const clock = at(0, 10);
    const first = moneyRun(t.db, cut, new ReminderService(t.db, hanging, { name: 'x', address: [] }, clock), clock, 21);
    await Promise.race([first, new Promise((r) => setTimeout(r, 1500))]);
    // the next run, after the restart
    const again = await run(0, 10);
    const raised = (await Promise.all(ids.map((id) => invoicesOf(id)))).map((list) =>
      list.filter((i) => i.type === 'deposit'),
    );
    expect(raised.map((list) => list.length)).toEqual([1, 1, 1]);
    expect(raised.every((list) => list[0]!.sentAt !== null)).toBe(true);
    const mailed = ids.map(
      (_, k) => subjectsTo(`ben.money${n - 2 + k}@example.test`).filter((x) => x.startsWith('Invoice')).length,
    );
    expect(mailed).toEqual([1, 1, 1]);
    expect(again.raised).toBe(0);
  });
});
