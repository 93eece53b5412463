import { PassThrough, type Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { and, count, desc, eq, gte, ilike, inArray, like, lt, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import {
  AUDIT_PER_PAGE,
  type AuditEventReply,
  type AuditPage,
  type AuditQuery,
  type SentEmail,
} from '../../contract/audit.ts';
import { queryRows, type Db } from '../../db/client.ts';
import { auditEvents, bookings, trips, users } from '../../db/schema/index.ts';
import { escapeLike } from '../sql.ts';
import { notFound } from '../errors.ts';
import { escapeCell } from '../common/spreadsheet.ts';
import { EXACT_COUNT_BELOW, pageOf, roundEstimate } from '../common/paging.ts';
import { audit } from './audit.ts';
import { hideInEvents, redactTravellerData } from '../common/traveller-data.ts';

type Row = typeof auditEvents.$inferSelect;

export function toAuditEvent(row: Row): AuditEventReply {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: {
      type: row.actorType as AuditEventReply['actor']['type'],
      id: row.actorUserId,
      name: row.actorName,
      token_id: row.actorTokenId,
      client_id: row.actorClientId,
      team: row.actorTeam,
    },
    source: row.source as AuditEventReply['source'],
    ip_address: row.ipAddress,
    action: row.action,
    subject_type: row.subjectType,
    subject_id: row.subjectId,
    booking_id: row.bookingId,
    trip_id: row.tripId,
    changes: row.changes ?? null,
    summary: row.summary,
    details: row.details ?? null,
  };
}

function toSentEmail(row: Row): SentEmail {
  const d = (row.details ?? {}) as {
    to?: string;
    subject?: string;
    text?: string;
    attachments?: string[];
    outcome?: SentEmail['outcome'];
    message_id?: string | null;
  };
  return {
    id: row.id,
    at: row.at.toISOString(),
    sent_by: row.actorName,
    to: d.to ?? '',
    subject: d.subject ?? '',
    text: d.text ?? '',
    attachments: d.attachments ?? [],
    outcome: d.outcome ?? (row.action === 'email.failed' ? 'refused' : 'sent'),
    message_id: d.message_id ?? null,
    about: { type: row.subjectType, id: row.subjectId },
  };
}

/**
 * An exact count stops here: when the planner's estimate was far too low (filters that go
 * together more often than it assumes), counting millions of rows would cost what the estimate
 * was meant to save. Reaching it, the total given is what was counted.
 */
const COUNT_AT_MOST = 10 * EXACT_COUNT_BELOW;

type Plan = { Plan: { 'Plan Rows': number } };

/** The planner's estimate of how many rows a query returns (EXPLAIN, nothing is run). */
async function estimateRows(db: Db, query: SQLWrapper): Promise<number> {
  const [row] = await queryRows<Record<string, unknown>>(db, sql`explain (format json) ${query}`);
  const raw = row ? Object.values(row)[0] : undefined;
  const plans = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Plan[] | undefined;
  return Math.max(0, Math.round(plans?.[0]?.Plan['Plan Rows'] ?? 0));
}

const newestFirst = [desc(auditEvents.at), desc(auditEvents.id)];

/** Reads of the history: newest first, a page at a time. */
export class AuditService {
  constructor(private readonly db: Db) {}

  /**
   * A page of the events that match, and how many match. Counting every match of a large
   * history (5,000,000 events: half a second and more) is what made every page slow, so the
   * total is worked out as the booking list does (modules/bookings/list.ts): the page is read
   * with one event more, and on the last page the total is known without counting; otherwise
   * the planner's estimate is given when it is 10,000 or more (two significant figures, never
   * fewer than the pages read show), and below that the matches are counted. A booking's and a
   * trip's history are always counted (up to COUNT_AT_MOST): each has an index of its own that
   * the count reads alone, and the estimate of "this trip, no booking" is several times too high.
   */
  private async page(
    where: SQL | undefined,
    page: number,
    perPage = AUDIT_PER_PAGE,
    countAlways = false,
  ): Promise<AuditPage> {
    const offset = (page - 1) * perPage;
    // the page's ids first, from an index alone where the filters allow (a deep page walks
    // 50,000 index entries, not 50,000 rows), then the page's rows by primary key
    const ids = this.db
      .select({ id: auditEvents.id })
      .from(auditEvents)
      .where(where)
      .orderBy(...newestFirst)
      .limit(perPage + 1)
      .offset(offset);
    const found = await this.db
      .select()
      .from(auditEvents)
      .where(inArray(auditEvents.id, ids))
      .orderBy(...newestFirst);
    const rows = found.slice(0, perPage);

    let n: number;
    let estimated = false;
    if (found.length <= perPage && (found.length > 0 || offset === 0)) {
      // the last page: the total is known without counting
      n = offset + found.length;
    } else {
      const estimate = countAlways
        ? 0
        : await estimateRows(
            this.db,
            this.db
              .select({ one: sql`1` })
              .from(auditEvents)
              .where(where),
          );
      if (estimate < EXACT_COUNT_BELOW) {
        const capped = this.db
          .select({ one: sql`1` })
          .from(auditEvents)
          .where(where)
          .limit(COUNT_AT_MOST)
          .as('m');
        const [total] = await this.db.select({ n: count() }).from(capped);
        n = Number(total?.n ?? 0);
      } else {
        n = roundEstimate(estimate);
        estimated = true;
      }
      // never fewer than the page read shows to be there
      if (found.length > perPage) n = Math.max(n, offset + perPage + 1);
    }
    return { ...pageOf(rows.map(toAuditEvent), n, page, perPage), total_is_estimate: estimated };
  }

  async forBooking(bookingId: number, page: number): Promise<AuditPage> {
    const [b] = await this.db.select({ id: bookings.id }).from(bookings).where(eq(bookings.id, bookingId));
    if (!b) throw notFound('Booking not found.');
    return this.page(eq(auditEvents.bookingId, bookingId), page, AUDIT_PER_PAGE, true);
  }

  /** The trip's own history and its add-ons', custom fields' and documents' (bookings have theirs). */
  async forTrip(tripId: number, page: number): Promise<AuditPage> {
    const [t] = await this.db.select({ id: trips.id }).from(trips).where(eq(trips.id, tripId));
    if (!t) throw notFound('Trip not found.');
    return this.page(
      and(eq(auditEvents.tripId, tripId), sql`${auditEvents.bookingId} is null`),
      page,
      AUDIT_PER_PAGE,
      true,
    );
  }

  /** Every email sent (or refused) about a booking, newest first, with its full text. */
  async emailsFor(bookingId: number): Promise<SentEmail[]> {
    const [b] = await this.db.select({ id: bookings.id }).from(bookings).where(eq(bookings.id, bookingId));
    if (!b) throw notFound('Booking not found.');
    const rows = await this.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.bookingId, bookingId), inArray(auditEvents.action, ['email.sent', 'email.failed'])))
      .orderBy(desc(auditEvents.at), desc(auditEvents.id))
      .limit(200);
    return rows.map(toSentEmail);
  }

  /** One email of a booking's, as recorded. */
  async email(bookingId: number, emailId: number): Promise<SentEmail> {
    const [row] = await this.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.id, emailId),
          eq(auditEvents.bookingId, bookingId),
          inArray(auditEvents.action, ['email.sent', 'email.failed']),
        ),
      );
    if (!row) throw notFound('Email not found.');
    return toSentEmail(row);
  }

  async search(q: AuditQuery, perPage = AUDIT_PER_PAGE): Promise<AuditPage> {
    let bookingId: number | undefined;
    if (q.booking_ref) {
      // the reference in any case. upper(ref) = upper(…) read every booking; references are
      // made in capitals, so the unique index finds one as typed in capitals, and only a
      // reference not found so is looked for case-blind (ILIKE without wildcards, on the trigram index)
      const [b] = await queryRows<{ id: number }>(
        this.db,
        sql`(select ${bookings.id} from ${bookings} where ${bookings.ref} = upper(${q.booking_ref}))
          union all (select ${bookings.id} from ${bookings} where ${bookings.ref} ilike ${escapeLike(q.booking_ref)} limit 1)
          limit 1`,
      );
      // an unknown reference has no history: an empty page, not an error
      bookingId = b ? Number(b.id) : -1;
    }
    let actorIds: number[] | undefined;
    if (q.actor) {
      const pattern = `%${escapeLike(q.actor)}%`;
      const found = await this.db
        .select({ id: users.id })
        .from(users)
        .where(or(ilike(users.email, pattern), ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern)))
        .limit(1000);
      actorIds = found.map((u) => u.id);
    }
    const where = and(
      actorIds !== undefined ? (actorIds.length ? inArray(auditEvents.actorUserId, actorIds) : sql`false`) : undefined,
      q.actor_id !== undefined ? eq(auditEvents.actorUserId, q.actor_id) : undefined,
      q.actor_type ? eq(auditEvents.actorType, q.actor_type) : undefined,
      q.action
        ? q.action.endsWith('.')
          ? like(auditEvents.action, `${escapeLike(q.action)}%`)
          : eq(auditEvents.action, q.action)
        : undefined,
      q.subject_type ? eq(auditEvents.subjectType, q.subject_type) : undefined,
      q.subject_id ? eq(auditEvents.subjectId, q.subject_id) : undefined,
      bookingId !== undefined ? eq(auditEvents.bookingId, bookingId) : undefined,
      q.source ? eq(auditEvents.source, q.source) : undefined,
      // whole days in the office's time zone
      q.from ? gte(auditEvents.at, sql`(${q.from}::date)::timestamp at time zone 'Europe/London'`) : undefined,
      q.to ? lt(auditEvents.at, sql`(${q.to}::date + 1)::timestamp at time zone 'Europe/London'`) : undefined,
    );
    return this.page(where, q.page, perPage);
  }
}

export const AUDIT_EXPORT_MAX_ROWS = 10_000;

/** The events of a search as a real .xlsx (newest first, at most 10,000), written as they are read. */
export function auditSpreadsheet(db: Db, q: AuditQuery, hideTravellerData = false): Readable {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  // not "History": Excel keeps that name for itself, and refuses (or "repairs") a workbook using it
  const sheet = workbook.addWorksheet('Events');
  sheet.columns = [
    { header: 'When', key: 'at', width: 20, style: { numFmt: 'dd/mm/yyyy hh:mm' } },
    { header: 'Who', key: 'actor', width: 28 },
    { header: 'Source', key: 'source', width: 8 },
    { header: 'IP Address', key: 'ip', width: 16 },
    { header: 'Action', key: 'action', width: 26 },
    { header: 'What happened', key: 'summary', width: 70 },
    { header: 'Subject', key: 'subject', width: 24 },
    { header: 'Booking ID', key: 'booking', width: 11 },
    { header: 'Trip ID', key: 'trip', width: 9 },
    { header: 'Changes', key: 'changes', width: 60 },
  ];
  const service = new AuditService(db);
  (async () => {
    const rows: AuditEventReply[] = [];
    for (let page = 1; rows.length < AUDIT_EXPORT_MAX_ROWS; page++) {
      const batch = await service.search({ ...q, page }, 500);
      rows.push(...batch.data);
      if (batch.data.length < 500 || page >= batch.last_page) break;
    }
    const first = rows.slice(0, AUDIT_EXPORT_MAX_ROWS);
    const kept = hideTravellerData ? (await hideInEvents(db, first)).map(redactTravellerData) : first;
    // reading the history in bulk is itself history
    await audit(db, {
      action: 'export.audit',
      subject: { type: 'audit_export', id: null },
      summary: `exported ${kept.length.toLocaleString('en-GB')} history event${kept.length === 1 ? '' : 's'} to a spreadsheet`,
      details: {
        filters: Object.fromEntries(Object.entries(q).filter(([k, v]) => k !== 'page' && v !== undefined)),
        rows: kept.length,
      },
    });
    for (const e of kept) {
      sheet
        .addRow({
          at: new Date(e.at),
          actor: escapeCell(e.actor.team ? `${e.actor.name} (${e.actor.team})` : e.actor.name),
          source: e.source,
          ip: e.ip_address ?? '',
          action: e.action,
          summary: escapeCell(e.summary),
          subject: `${e.subject_type}${e.subject_id ? ` ${e.subject_id}` : ''}`,
          booking: e.booking_id ?? '',
          trip: e.trip_id ?? '',
          changes: e.changes ? escapeCell(JSON.stringify(e.changes)) : '',
        })
        .commit();
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}
