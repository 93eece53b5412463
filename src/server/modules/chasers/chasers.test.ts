import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ukToday } from '../../../contract/dates.ts';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import { auditEvents, bookings, chasers } from '../../../db/schema/index.ts';
import { makePdf } from '../../../db/seed/images.ts';
import { multipart } from '../../../../tests/support/multipart.ts';
import { smtpSink } from '../../../../tests/support/smtp.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';
import { createMailer } from '../../mail/transport.ts';
import { ukHour } from '../../common/sending-hours.ts';
import { ChaserService } from './service.ts';

// Passport and forms chasers with the clock moved day by day through a trip (cadence, one a day,
// stop on green, opt-out, sending hours), staff's "send chaser" and "send documents" from the
// board, each through a real SMTP exchange.

let t: TestApp;
let admin: TestClient;
let sink: Awaited<ReturnType<typeof smtpSink>>;
const today = ukToday();
beforeAll(async () => {
  sink = await smtpSink();
  t = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${sink.port}` });
  admin = await t.signedIn(1);
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

/** A clock at a UK wall-clock hour on a day counted from today. */
const at = (day: number, hour: number) => {
  const base = new Date(`${addDays(today, day)}T12:00:00Z`);
  return { now: () => base.getTime() + (hour - ukHour(base)) * 3_600_000 };
};
const service = (day: number, hour = 10) =>
  new ChaserService(
    t.db,
    createMailer(t.config),
    { name: t.config.operatorName, address: [] },
    t.config.fundraisingDefaults,
    at(day, hour),
  );
const subjectsTo = (address: string) =>
  sink.received.filter((m) => m.to.includes(address)).map((m) => /^Subject: (.*)$/m.exec(m.raw)?.[1] ?? '');
const ready = { passportExpiryDate: addDays(today, 2000), formComplete: true, status: 'confirmed' } as const;
const bookedAt = at(0, 9).now();

describe('the chasers job, day by day through a trip', () => {
  it('chases a missing passport on its cadence, one email a day per traveller, and stops when the check turns green', async () => {
    const trip = await insertTrip(t.db, {
      name: 'Chase Trek',
      departureDate: addDays(today, 100),
      returnDate: addDays(today, 110),
      requirePassport: false,
    });
    const passport = await insertBooking(t.db, trip.id, {
      ...ready,
      passportExpiryDate: null,
      email: 'pat.passport@example.test',
      firstName: 'Pat',
      createdAt: new Date(bookedAt),
    });
    await insertBooking(t.db, trip.id, {
      ...ready,
      passportExpiryDate: null,
      formComplete: false,
      email: 'bo.both@example.test',
      createdAt: new Date(bookedAt),
    });
    const fine = await insertBooking(t.db, trip.id, {
      ...ready,
      email: 'fay.fine@example.test',
      createdAt: new Date(bookedAt),
    });

    // out of sending hours nothing goes
    expect(await service(7, 7).run()).toEqual({ sent: 0, failed: 0, skipped: 0 });

    const days: Record<string, number[]> = { passport: [], both: [] };
    for (let day = 0; day <= 60; day++) {
      if (day === 50)
        await t.db
          .update(bookings)
          .set({ passportExpiryDate: addDays(today, 2000) })
          .where(eq(bookings.id, passport.id));
      const before = sink.received.length;
      await service(day).run();
      // a second run the same day sends nothing again
      await service(day, 15).run();
      for (const m of sink.received.slice(before)) {
        if (m.to.includes('pat.passport@example.test')) days.passport!.push(day);
        if (m.to.includes('bo.both@example.test')) days.both!.push(day);
      }
    }
    // 7, then every 14 days while more than 8 weeks (day 44) before departure, then weekly; green from day 50
    expect(days.passport).toEqual([7, 21, 35, 42, 49]);
    // passport and forms both due on day 7: the forms chaser waits a day, and keeps its own cadence
    expect(days.both).toEqual([7, 8, 21, 22, 35, 36, 42, 43, 49, 50, 56, 57]);
    expect(subjectsTo('pat.passport@example.test')[0]).toBe('We need your passport details for Chase Trek');
    expect(subjectsTo('bo.both@example.test').slice(0, 2)).toEqual([
      'We need your passport details for Chase Trek',
      'Please complete your booking form for Chase Trek',
    ]);
    expect(subjectsTo('fay.fine@example.test')).toEqual([]);
    const mail = sink.received.find((m) => m.to.includes('pat.passport@example.test'))!.raw;
    expect(mail).toContain('No passport details yet.');

    // each email and the stop are in the booking's history
    const history = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.bookingId, passport.id))
      .orderBy(auditEvents.id);
    expect(history.filter((e) => e.action === 'email.sent')).toHaveLength(5);
    const stop = history.filter((e) => e.action === 'chaser.skipped');
    expect(stop).toHaveLength(1);
    expect(stop[0]!.summary).toMatch(
      /^System did not send the passport chaser to pat\.passport@example\.test: the passport check is now green \(Valid until/,
    );
    expect(await t.db.select().from(auditEvents).where(eq(auditEvents.bookingId, fine.id))).toEqual([]);
  });

  it('a booking with chasers off gets none: each skipped one is in its history with why; back on, they go again', async () => {
    const trip = await insertTrip(t.db, {
      name: 'Quiet Trek',
      departureDate: addDays(today, 100),
      returnDate: addDays(today, 110),
      requirePassport: false,
    });
    const quiet = await insertBooking(t.db, trip.id, {
      ...ready,
      passportExpiryDate: null,
      email: 'quinn.quiet@example.test',
      createdAt: new Date(bookedAt),
    });

    const off = await admin.put(`/api/bookings/${quiet.id}/chasers`, { send: false });
    expect(off.statusCode).toBe(422);
    expect(off.json().errors).toEqual({ reason: ['Say why automatic chasers are turned off.'] });
    expect(
      (
        await admin.put(`/api/bookings/${quiet.id}/chasers`, {
          send: false,
          reason: 'Renewing the passport; will send it in March',
        })
      ).json(),
    ).toEqual({ message: 'Automatic chasers are off.' });
    expect((await admin.get(`/api/bookings/${quiet.id}/readiness`)).json()).toMatchObject({
      chasers_off: true,
      chasers_off_reason: 'Renewing the passport; will send it in March',
    });

    for (let day = 0; day <= 22; day++) await service(day).run();
    expect(subjectsTo('quinn.quiet@example.test')).toEqual([]);
    const skipped = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.bookingId, quiet.id), eq(auditEvents.action, 'chaser.skipped')))
      .orderBy(auditEvents.id);
    expect(skipped.map((e) => (e.details as { due_on: string }).due_on)).toEqual([
      addDays(today, 7),
      addDays(today, 21),
    ]);
    expect(skipped[0]!.summary).toBe(
      'System did not send the passport chaser to quinn.quiet@example.test: automatic chasers are off for this booking (Renewing the passport; will send it in March)',
    );
    const [changed] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.bookingId, quiet.id), eq(auditEvents.action, 'booking.chasers_changed')));
    expect(changed?.changes).toMatchObject({ send_automatic_chasers: [true, false] });

    expect((await admin.put(`/api/bookings/${quiet.id}/chasers`, { send: true })).json()).toEqual({
      message: 'Automatic chasers will be sent.',
    });
    for (let day = 23; day <= 35; day++) await service(day).run();
    expect(subjectsTo('quinn.quiet@example.test')).toHaveLength(1);
    expect((await admin.put('/api/bookings/999999/chasers', { send: true })).statusCode).toBe(404);
  });

  it('a chaser the mail server refuses is in the history and goes on the next run', async () => {
    const trip = await insertTrip(t.db, {
      name: 'Refused Trek',
      departureDate: addDays(today, 100),
      returnDate: addDays(today, 110),
      requirePassport: false,
    });
    const b = await insertBooking(t.db, trip.id, {
      ...ready,
      formComplete: false,
      email: 'rae.refused@example.test',
      createdAt: new Date(bookedAt),
    });
    const refusing = new ChaserService(
      t.db,
      { send: () => Promise.reject(Object.assign(new Error('no'), { responseCode: 451 })) },
      { name: 'Op', address: [] },
      t.config.fundraisingDefaults,
      at(7, 10),
    );
    expect(await refusing.runTrip(trip.id, addDays(today, 7))).toEqual({ sent: 0, failed: 1, skipped: 0 });
    const [failed] = await t.db.select().from(chasers).where(eq(chasers.bookingId, b.id));
    expect(failed).toMatchObject({ outcome: 'failed', reason: '451', check: 'forms' });
    expect(await service(7, 11).runTrip(trip.id, addDays(today, 7))).toEqual({ sent: 1, failed: 0, skipped: 0 });
    expect(subjectsTo('rae.refused@example.test')).toEqual(['Please complete your booking form for Refused Trek']);
    expect(await t.db.select({ outcome: chasers.outcome }).from(chasers).where(eq(chasers.bookingId, b.id))).toEqual([
      { outcome: 'sent' },
    ]);
  });
});

describe('from the board: send chaser and send documents', () => {
  let tripId: number;
  const b = {} as Record<'missing' | 'fine' | 'off' | 'gone', number>;
  beforeAll(async () => {
    tripId = (
      await insertTrip(t.db, {
        name: 'Board Trek',
        departureDate: addDays(today, 40),
        returnDate: addDays(today, 50),
        requirePassport: false,
      })
    ).id;
    b.missing = (
      await insertBooking(t.db, tripId, {
        ...ready,
        passportExpiryDate: null,
        formComplete: false,
        email: 'mo.missing@example.test',
      })
    ).id;
    b.fine = (await insertBooking(t.db, tripId, { ...ready, email: 'fin.fine@example.test' })).id;
    b.off = (
      await insertBooking(t.db, tripId, {
        ...ready,
        passportExpiryDate: null,
        email: 'oz.off@example.test',
        chasersOff: true,
        chasersOffReason: 'Asked us not to',
      })
    ).id;
    b.gone = (
      await insertBooking(t.db, tripId, {
        ...ready,
        passportExpiryDate: null,
        email: 'gil.gone@example.test',
        status: 'cancelled',
      })
    ).id;
  });

  it('sends each chosen check that is not green, and says why the rest were left', async () => {
    const res = await admin.post(`/api/trips/${tripId}/chasers`, {
      booking_ids: [b.missing, b.fine, b.off, b.gone],
      checks: ['passport', 'forms'],
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.sent).toEqual([
      { booking_id: b.missing, check: 'passport' },
      { booking_id: b.missing, check: 'forms' },
    ]);
    expect(body.skipped).toEqual([
      { booking_id: b.fine, check: 'passport', reason: 'The passport check is already green.' },
      { booking_id: b.fine, check: 'forms', reason: 'The forms check is already green.' },
      { booking_id: b.off, check: 'passport', reason: 'Automatic chasers are off for this booking (Asked us not to).' },
      { booking_id: b.off, check: 'forms', reason: 'The forms check is already green.' },
      { booking_id: b.gone, check: 'passport', reason: 'Not a provisional or confirmed booking of this trip.' },
      { booking_id: b.gone, check: 'forms', reason: 'Not a provisional or confirmed booking of this trip.' },
    ]);
    expect(body.message).toBe('2 chasers sent; 6 were not needed or not wanted.');
    expect(subjectsTo('mo.missing@example.test')).toEqual([
      'We need your passport details for Board Trek',
      'Please complete your booking form for Board Trek',
    ]);
    expect(subjectsTo('gil.gone@example.test')).toEqual([]);
    const [sent] = await t.db.select().from(chasers).where(eq(chasers.bookingId, b.missing));
    expect(sent).toMatchObject({ outcome: 'sent', dueOn: null, sentBy: 1 });
    // the board shows when a traveller was last chased
    const row = (await admin.get(`/api/trips/${tripId}/readiness`))
      .json()
      .rows.find((r: { booking_id: number }) => r.booking_id === b.missing);
    expect(row.last_chaser).toMatchObject({ sent_on: ukToday() });
  });

  it('refuses what it cannot do, changing nothing', async () => {
    const before = sink.received.length;
    expect(
      (await admin.post(`/api/trips/${tripId}/chasers`, { booking_ids: [], checks: ['passport'] })).json().errors,
    ).toEqual({ booking_ids: ['Choose the bookings to chase.'] });
    expect(
      (await admin.post(`/api/trips/${tripId}/chasers`, { booking_ids: [b.missing], checks: [] })).json().errors,
    ).toEqual({ checks: ['Choose what to chase: the passport, the forms or both.'] });
    expect(
      (await admin.post(`/api/trips/${tripId}/chasers`, { booking_ids: [b.missing], checks: ['money'] })).json().errors,
    ).toEqual({ 'checks.0': ['A chaser can be sent for the passport or the forms.'] });
    expect(
      (await admin.post('/api/trips/999999/chasers', { booking_ids: [b.missing], checks: ['passport'] })).statusCode,
    ).toBe(404);
    expect(sink.received.length).toBe(before);
  });

  it('sends the trip’s documents attached; the documents check turns green, and amber again when one is uploaded after', async () => {
    const docCheck = async () => (await admin.get(`/api/bookings/${b.missing}/readiness`)).json().checks.documents;
    expect(await docCheck()).toEqual({ state: 'green', reason: 'This trip has no documents to send.' });
    const none = await admin.post(`/api/trips/${tripId}/documents/send`, { booking_ids: [b.missing] });
    expect(none.statusCode).toBe(422);
    expect(none.json().message).toBe('This trip has no documents to send: upload them on the trip page first.');

    const upload = async (name: string) => {
      const doc = (await admin.post('/api/documents', { trip_id: tripId, name })).json() as { id: number };
      const body = multipart(
        { document_id: String(doc.id) },
        {
          field: 'document_file',
          filename: 'kit.pdf',
          contentType: 'application/pdf',
          bytes: makePdf(name, ['Boots']),
        },
      );
      expect(
        (
          await admin.request({
            method: 'POST',
            url: `/api/documents/${doc.id}/upload`,
            payload: body.payload,
            headers: body.headers,
          })
        ).statusCode,
      ).toBe(200);
    };
    await upload('Kit list');
    // departure is 40 days away: not sent yet is red
    expect(await docCheck()).toEqual({ state: 'red', reason: "The trip's document has not been sent yet." });

    const res = await admin.post(`/api/trips/${tripId}/documents/send`, { booking_ids: [b.missing, b.gone] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'The documents were sent to 1 traveller; 1 booking is not provisional or confirmed on this trip.',
      sent: [{ booking_id: b.missing, check: 'documents' }],
    });
    const mail = sink.received.at(-1)!;
    expect(mail.to).toEqual(['mo.missing@example.test']);
    expect(mail.raw).toContain('Subject: Your documents for Board Trek');
    expect(mail.raw).toMatch(/filename="?Kit list\.pdf"?/);
    expect((await docCheck()).state).toBe('green');
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.bookingId, b.missing), eq(auditEvents.action, 'email.sent')))
      .orderBy(auditEvents.id)
      .limit(1)
      .offset(2);
    expect(event?.summary).toBe("Sam Tester1 emailed the trip's documents (Kit list) to mo.missing@example.test");

    await new Promise((r) => setTimeout(r, 5));
    await upload('Itinerary');
    expect(await docCheck()).toMatchObject({
      state: 'red',
      reason: expect.stringContaining('but “Itinerary” was uploaded after that.'),
    });
  });
});
