import { and, asc, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import { auditEvents } from '../../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';
import { sanitiseNote } from './sanitise.ts';
import { excerpt } from './service.ts';

let t: TestApp;
let admin: TestClient;
let bookingId: number;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedIn(1, 'notes.admin@example.test');
  bookingId = (await insertBooking(t.db, (await insertTrip(t.db)).id)).id;
});
afterAll(() => t.close());

describe('booking notes', () => {
  it('adds, lists (newest first), edits and deletes a note, with author, time and address', async () => {
    const first = await admin.post('/api/bookingNotes', {
      booking_id: bookingId,
      note_text: '<p>Called about <strong>flights</strong>.</p>',
    });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      booking_id: bookingId,
      note_text: '<p>Called about <strong>flights</strong>.</p>',
      user: { name: expect.stringMatching(/^Sam Tester/), email: 'notes.admin@example.test' },
      ip_address: '127.0.0.1',
    });
    const second = (
      await admin.post('/api/bookingNotes', { booking_id: bookingId, note_text: '<p>Second</p>' })
    ).json();
    const list = (await admin.get(`/api/bookingNotes?booking_id=${bookingId}`)).json();
    expect(list.map((n: { id: number }) => n.id)).toEqual([second.id, first.json().id]);

    const edited = await admin.patch(`/api/bookingNotes/${second.id}`, { note_text: '<p>Second, <em>edited</em></p>' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().note_text).toBe('<p>Second, <em>edited</em></p>');
    expect(edited.json().created_at).toBe(second.created_at);
    expect(Date.parse(edited.json().updated_at)).toBeGreaterThanOrEqual(Date.parse(second.updated_at));

    expect((await admin.delete(`/api/bookingNotes/${second.id}`)).statusCode).toBe(204);
    expect((await admin.delete(`/api/bookingNotes/${second.id}`)).statusCode).toBe(404);
    expect((await admin.patch(`/api/bookingNotes/${second.id}`, { note_text: '<p>x</p>' })).statusCode).toBe(404);
    expect((await admin.get(`/api/bookingNotes?booking_id=${bookingId}`)).json()).toHaveLength(1);
  });

  it('refuses an empty note, a missing or unknown booking, and too long a note', async () => {
    const blank = await admin.post('/api/bookingNotes', { booking_id: bookingId, note_text: '<p> &nbsp; </p><p></p>' });
    expect(blank.statusCode).toBe(422);
    expect(blank.json().errors.note_text).toEqual(['The note field is required.']);
    const onlyScript = await admin.post('/api/bookingNotes', {
      booking_id: bookingId,
      note_text: '<script>alert(1)</script>',
    });
    expect(onlyScript.json().errors.note_text).toEqual(['The note field is required.']);
    expect((await admin.post('/api/bookingNotes', { note_text: '<p>x</p>' })).json().errors.booking_id).toBeDefined();
    expect(
      (await admin.post('/api/bookingNotes', { booking_id: 999999, note_text: '<p>x</p>' })).json().errors.booking_id,
    ).toEqual(['The selected booking is invalid.']);
    expect(
      (await admin.post('/api/bookingNotes', { booking_id: bookingId, note_text: 'x'.repeat(50_001) })).statusCode,
    ).toBe(422);
    expect((await admin.get('/api/bookingNotes?booking_id=abc')).statusCode).toBe(422);
  });

  it('stores XSS payloads harmless', async () => {
    const payload = [
      '<p onclick="alert(1)">click</p>',
      '<img src=x onerror=alert(1)>',
      '<a href="javascript:alert(1)">js</a>',
      '<a href="JaVaScRiPt:alert(1)">js2</a>',
      '<a href="https://example.org" onmouseover="x()">ok</a>',
      '<p style="display:none">hidden</p>',
      '<svg><script>alert(1)</script></svg>',
      '<iframe src="https://evil.example"></iframe>',
      '<style>p{display:none}</style>',
    ].join('');
    const res = await admin.post('/api/bookingNotes', { booking_id: bookingId, note_text: payload });
    expect(res.statusCode).toBe(201);
    const html: string = res.json().note_text;
    expect(html).not.toMatch(/script|onerror|onclick|onmouseover|javascript:|style|iframe|<img|<svg/i);
    expect(html).toContain('<p>hidden</p>');
    expect(html).toContain('<a href="https://example.org" target="_blank" rel="noopener noreferrer nofollow">ok</a>');
  });

  it('records the address a trusted proxy forwards, and only then', async () => {
    const forwarded = { 'x-forwarded-for': '203.0.113.9' };
    const untrusted = await admin.request({
      method: 'POST',
      url: '/api/bookingNotes',
      payload: { booking_id: bookingId, note_text: '<p>direct</p>' },
      headers: forwarded,
    });
    expect(untrusted.json().ip_address).toBe('127.0.0.1');
    const behindProxy = await createTestApp({ trustProxy: '127.0.0.1' });
    try {
      const client = await behindProxy.signedIn(1);
      const id = (await insertBooking(behindProxy.db, (await insertTrip(behindProxy.db)).id)).id;
      const res = await client.request({
        method: 'POST',
        url: '/api/bookingNotes',
        payload: { booking_id: id, note_text: '<p>proxied</p>' },
        headers: forwarded,
      });
      expect(res.json().ip_address).toBe('203.0.113.9');
    } finally {
      await behindProxy.close();
    }
  });

  it('is for staff only', async () => {
    const endUser = await t.signedIn(3);
    expect((await endUser.get(`/api/bookingNotes?booking_id=${bookingId}`)).statusCode).toBe(403);
    expect((await endUser.post('/api/bookingNotes', { booking_id: bookingId, note_text: '<p>x</p>' })).statusCode).toBe(
      403,
    );
  });
});

describe('the history of notes', () => {
  const noteEvents = (booking: number) =>
    t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.bookingId, booking), like(auditEvents.action, 'note.%')))
      .orderBy(asc(auditEvents.id));

  it('records note.created, note.updated and note.deleted with the booking, its trip, who and an excerpt', async () => {
    const trip = await insertTrip(t.db);
    const booking = await insertBooking(t.db, trip.id);
    const note = (
      await admin.post('/api/bookingNotes', {
        booking_id: booking.id,
        note_text: '<p>Called about <strong>flights</strong> &amp; visas.</p><p>Rings back Friday.</p>',
      })
    ).json();
    await admin.patch(`/api/bookingNotes/${note.id}`, { note_text: '<p>Flights booked.</p>' });
    await admin.delete(`/api/bookingNotes/${note.id}`);
    const events = await noteEvents(booking.id);
    expect(events.map((e) => e.action)).toEqual(['note.created', 'note.updated', 'note.deleted']);
    const about = {
      subjectType: 'note',
      subjectId: String(note.id),
      bookingId: booking.id,
      tripId: trip.id,
      actorType: 'user',
      actorName: note.user.name,
      source: 'web',
      changes: null,
    };
    expect(events[0]).toMatchObject({
      ...about,
      summary: `${note.user.name} added a note to the booking ${booking.ref}`,
      details: { excerpt: 'Called about flights & visas. Rings back Friday.' },
    });
    expect(events[1]).toMatchObject({
      ...about,
      summary: `${note.user.name} edited a note on the booking ${booking.ref}`,
      details: { before: 'Called about flights & visas. Rings back Friday.', after: 'Flights booked.' },
    });
    expect(events[2]).toMatchObject({
      ...about,
      summary: `${note.user.name} deleted a note from the booking ${booking.ref}`,
      details: { excerpt: 'Flights booked.' },
    });
  });

  it('writes nothing for a refused note, edit or delete', async () => {
    const trip = await insertTrip(t.db);
    const booking = await insertBooking(t.db, trip.id);
    const note = (await admin.post('/api/bookingNotes', { booking_id: booking.id, note_text: '<p>Keep</p>' })).json();
    expect((await admin.post('/api/bookingNotes', { booking_id: booking.id, note_text: '<p> </p>' })).statusCode).toBe(
      422,
    );
    expect((await admin.patch(`/api/bookingNotes/${note.id}`, { note_text: '<script>x</script>' })).statusCode).toBe(
      422,
    );
    expect(
      (await admin.request({ method: 'DELETE', url: `/api/bookingNotes/${note.id}`, csrf: false })).statusCode,
    ).toBe(419);
    expect((await (await t.signedIn(3)).delete(`/api/bookingNotes/${note.id}`)).statusCode).toBe(403);
    expect((await admin.delete('/api/bookingNotes/999999')).statusCode).toBe(404);
    expect((await admin.post('/api/bookingNotes', { booking_id: 999999, note_text: '<p>x</p>' })).statusCode).toBe(422);
    expect((await noteEvents(booking.id)).map((e) => e.action)).toEqual(['note.created']);
    expect(await noteEvents(999999)).toEqual([]);
  });

  it('names the personal access token a note was written with', async () => {
    const made = (
      await admin.post('/oauth/personal-access-tokens', { name: 'Notes robot', scopes: ['bookings:write'] })
    ).json() as { token: { id: string }; accessToken: string };
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/bookingNotes',
      payload: { booking_id: bookingId, note_text: '<p>From the API</p>' },
      headers: { authorization: `Bearer ${made.accessToken}` },
    });
    expect(res.statusCode, res.body).toBe(201);
    const event = (await noteEvents(bookingId)).find((e) => e.subjectId === String(res.json().id));
    expect(event).toMatchObject({
      action: 'note.created',
      actorType: 'personal_token',
      actorTokenId: made.token.id,
      source: 'api',
      actorName: expect.stringMatching(/\(personal access token\)$/),
    });
  });

  it('makes a short plain-text excerpt of a note', () => {
    expect(excerpt('<h2>Title</h2><ul><li>one</li><li>two</li></ul><p>a&nbsp;b &lt;c&gt;<br>d</p>')).toBe(
      'Title one two a b <c> d',
    );
    const long = excerpt(`<p>${'word '.repeat(60)}</p>`);
    expect(long).toHaveLength(120);
    expect(long.endsWith('word…')).toBe(true);
  });
});

describe('sanitiseNote', () => {
  it('keeps the editor’s formatting', () => {
    const html =
      '<h2>Title</h2><p><strong>b</strong> <em>i</em> <u>u</u> <s>s</s> <code>c</code></p><ul><li>one</li></ul><ol><li>two</li></ol><blockquote><p>q</p></blockquote>';
    expect(sanitiseNote(html)).toBe(html);
  });
});
