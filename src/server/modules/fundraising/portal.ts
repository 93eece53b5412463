import ExcelJS from 'exceljs';
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import {
  FUNDRAISING_STATE_LABELS,
  PORTAL_FUNDRAISER_FIELDS,
  type FundraisingState,
  type PortalFundraiser,
  type PortalFundraisers,
} from '../../../contract/fundraising.ts';
import type { Db, Tx } from '../../../db/client.ts';
import { bookingNotes, bookings, charities, trips, users } from '../../../db/schema/index.ts';
import { audit } from '../../audit/audit.ts';
import { nowOf, systemClock, type Clock } from '../../clock.ts';
import { HttpError } from '../../errors.ts';
import { escapeHtml } from '../../html.ts';
import { escapeCell } from '../../common/spreadsheet.ts';
import { NoteService } from '../notes/service.ts';
import { FundraisingService, type FundraisingDefaults } from './service.ts';
import { fundraiserOf } from './sql.ts';

const notFound = () => new HttpError(404, 'Fundraiser not found');

/**
 * The charity portal: what a Charity user may see and do, always of the charity their
 * account is linked to (the caller passes the signed-in user's charity, never an id from the
 * request). A fundraiser is a provisional or confirmed booking of that charity that fundraises;
 * any other booking is "not found", whoever's it is. Only the fields of portalFundraiserSchema
 * leave here: no passport, medical, next of kin, address, contact or trip money.
 */
export class CharityPortal {
  private readonly fundraising: FundraisingService;
  private readonly notes: NoteService;

  constructor(
    private readonly db: Db,
    defaults: FundraisingDefaults,
    private readonly clock: Pick<Clock, 'now'> = systemClock,
  ) {
    this.fundraising = new FundraisingService(db, defaults, clock);
    this.notes = new NoteService(db);
  }

  /** GET /api/charity/fundraisers. */
  async list(
    charityId: number,
    filter: { trip_id?: number | undefined; state?: FundraisingState | undefined; page?: number | undefined },
  ): Promise<PortalFundraisers> {
    const [charity] = await this.db
      .select({ id: charities.id, name: charities.name })
      .from(charities)
      .where(eq(charities.id, charityId));
    if (!charity) throw new HttpError(403, 'Your account is not linked to a charity yet: ask the office to link it.');
    const { portal_users: _, ...page } = await this.fundraising.ofCharity(charityId, filter);
    // the trips of all the charity's fundraisers (the filter's choices), from their index alone
    const tripRows = await this.db
      .select({ id: trips.id, name: trips.name, departure: trips.departureDate })
      .from(trips)
      .where(
        inArray(
          trips.id,
          this.db.selectDistinct({ id: bookings.tripId }).from(bookings).where(fundraiserOf(charityId)),
        ),
      )
      .orderBy(asc(trips.departureDate), asc(trips.name), asc(trips.id));
    return {
      charity,
      trips: tripRows.map((t) => ({ id: t.id, name: t.name, departure: iso(t.departure) })),
      ...page,
    };
  }

  /** GET /api/charity/fundraisers?format=xlsx: the same rows as a spreadsheet; recorded in the history. */
  async workbook(
    charityId: number,
    filter: { trip_id?: number | undefined; state?: FundraisingState | undefined },
  ): Promise<{ name: string; body: Buffer }> {
    // every row, whatever page the screen shows
    const { charity, fundraisers } = await this.list(charityId, { trip_id: filter.trip_id, state: filter.state });
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Fundraisers');
    sheet.columns = [
      { header: 'Traveller', width: 26 },
      { header: 'Booking', width: 12 },
      { header: 'Trip', width: 30 },
      { header: 'Departure', width: 12, style: { numFmt: 'dd/mm/yyyy' } },
      { header: 'Target (£)', width: 12, style: { numFmt: '#,##0.00' } },
      { header: 'Raised (£)', width: 12, style: { numFmt: '#,##0.00' } },
      { header: 'State', width: 16 },
      { header: 'Shortfall (£)', width: 13, style: { numFmt: '#,##0.00' } },
      { header: 'Fundraising page', width: 40 },
      { header: 'Acknowledged', width: 14, style: { numFmt: 'dd/mm/yyyy' } },
    ];
    sheet.getRow(1).font = { bold: true };
    sheet.views = [{ state: 'frozen', ySplit: 1 }];
    for (const f of fundraisers) {
      sheet.addRow([
        escapeCell(f.traveller),
        f.booking_ref,
        escapeCell(f.trip.name),
        new Date(`${f.departure}T00:00:00Z`),
        f.target,
        f.raised,
        FUNDRAISING_STATE_LABELS[f.state],
        f.state === 'behind' ? f.shortfall : null,
        f.page_url ? escapeCell(f.page_url) : null,
        f.acknowledged_at ? new Date(`${f.acknowledged_at.slice(0, 10)}T00:00:00Z`) : null,
      ]);
    }
    await audit(this.db, {
      action: 'export.fundraisers',
      subject: { type: 'charity', id: charityId },
      summary: `downloaded the fundraisers of ${charity.name} (${fundraisers.length} ${fundraisers.length === 1 ? 'traveller' : 'travellers'})`,
      details: { rows: fundraisers.length, trip_id: filter.trip_id ?? null, state: filter.state ?? null },
    });
    const slug =
      charity.name
        .replace(/[^\w]+/g, '-')
        .replace(/^-|-$/g, '')
        .toLowerCase() || `charity-${charity.id}`;
    return { name: `fundraisers-${slug}.xlsx`, body: Buffer.from(await workbook.xlsx.writeBuffer()) };
  }

  /** GET /api/charity/fundraisers/{booking_id}. */
  async get(charityId: number, bookingId: number): Promise<PortalFundraiser> {
    await this.assertOurs(this.db, charityId, bookingId);
    const full = await this.fundraising.forBooking(bookingId);
    const [row] = (await this.fundraising.ofCharity(charityId, { booking_id: bookingId })).fundraisers;
    if (!row) throw notFound();
    const author = users;
    const notes = await this.db
      .select({
        id: bookingNotes.id,
        html: bookingNotes.noteText,
        createdAt: bookingNotes.createdAt,
        firstName: author.firstName,
        lastName: author.lastName,
      })
      .from(bookingNotes)
      .leftJoin(author, eq(author.id, bookingNotes.userId))
      // the notes written through the portal, marked so when written: never staff's own, even
      // if their author's role changes later
      .where(and(eq(bookingNotes.bookingId, bookingId), eq(bookingNotes.visibleToCharity, true)))
      .orderBy(desc(bookingNotes.createdAt), desc(bookingNotes.id));
    const reply: PortalFundraiser = {
      ...row,
      acknowledged_by: full.acknowledged_by,
      milestones: full.milestones,
      next: full.next,
      missed: full.missed,
      entries: full.entries.map((e) => ({
        id: e.id,
        amount: e.amount,
        date: e.date,
        source: e.source,
        note: e.note,
        recorded_by: e.recorded_by,
        recorded_at: e.recorded_at,
        struck_at: e.struck_at,
        struck_reason: e.struck_reason,
      })),
      notes: notes.map((n) => ({
        id: n.id,
        html: n.html,
        author: n.firstName === null ? null : `${n.firstName} ${n.lastName}`,
        created_at: n.createdAt.toISOString(),
      })),
    };
    // the allow-list, once more at the door: nothing beyond the contract's fields
    return Object.fromEntries(
      PORTAL_FUNDRAISER_FIELDS.map((k) => [k, reply[k as keyof PortalFundraiser]]),
    ) as PortalFundraiser;
  }

  /** POST /api/charity/fundraisers/{booking_id}/acknowledge: the charity knows of this fundraiser; once. */
  async acknowledge(charityId: number, bookingId: number, userId: number): Promise<PortalFundraiser> {
    await this.db.transaction(async (tx) => {
      const b = await this.assertOurs(tx, charityId, bookingId, true);
      if (b.acknowledgedAt) return;
      await tx
        .update(bookings)
        .set({ charityAcknowledgedAt: nowOf(this.clock), charityAcknowledgedBy: userId })
        .where(eq(bookings.id, bookingId));
      await audit(tx, {
        action: 'fundraising.acknowledged',
        subject: { type: 'booking', id: bookingId },
        bookingId,
        tripId: b.tripId,
        summary: `acknowledged ${b.firstName} ${b.lastName} (${b.ref}) as a fundraiser of ${b.charityName}`,
      });
    });
    return this.get(charityId, bookingId);
  }

  /** POST /api/charity/fundraisers/{booking_id}/entries: recorded as charity confirmed. */
  async addEntry(
    charityId: number,
    bookingId: number,
    v: { amount: number; date: string; note: string | null },
    userId: number,
  ): Promise<PortalFundraiser> {
    await this.fundraising.addEntry(bookingId, { ...v, source: 'charity_confirmed' }, userId, (tx) =>
      this.assertOurs(tx, charityId, bookingId, true).then(() => undefined),
    );
    return this.get(charityId, bookingId);
  }

  /** POST /api/charity/fundraisers/{booking_id}/notes: a note for the office, kept on the booking beside staff's notes. */
  async addNote(
    charityId: number,
    bookingId: number,
    text: string,
    by: { userId: number; ip: string },
  ): Promise<PortalFundraiser> {
    await this.assertOurs(this.db, charityId, bookingId);
    const html = text
      .split(/\r?\n\s*\r?\n/)
      .map((para) => `<p>${para.split(/\r?\n/).map(escapeHtml).join('<br>')}</p>`)
      .join('');
    await this.notes.create({ booking_id: bookingId, note_text: html }, { ...by, forCharity: true });
    return this.get(charityId, bookingId);
  }

  /** The booking, when it is one of this charity's fundraisers; otherwise 404, as for a booking that does not exist. */
  private async assertOurs(db: Db | Tx, charityId: number, bookingId: number, lock = false) {
    const q = db
      .select({
        id: bookings.id,
        ref: bookings.ref,
        tripId: bookings.tripId,
        firstName: bookings.firstName,
        lastName: bookings.lastName,
        acknowledgedAt: bookings.charityAcknowledgedAt,
        charityName: charities.name,
      })
      .from(bookings)
      .innerJoin(charities, eq(charities.id, bookings.charityId))
      .where(and(eq(bookings.id, bookingId), fundraiserOf(charityId)));
    const [b] = lock ? await q.for('update', { of: bookings }) : await q;
    if (!b) throw notFound();
    return b;
  }
}

const iso = (v: string | Date) => (typeof v === 'string' ? v.slice(0, 10) : v.toISOString().slice(0, 10));
