import { PassThrough, type Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { and, count, desc, eq, gte, ilike, inArray, like, lt, or, sql, type SQL } from 'drizzle-orm';
import { AUDIT_PER_PAGE, type AuditEventReply, type AuditQuery, type SentEmail } from '../../contract/audit.ts';
import type { Paged } from '../../contract/common.ts';
import type { Db } from '../../db/client.ts';
import { auditEvents, bookings, trips, users } from '../../db/schema/index.ts';
import { escapeLike } from '../sql.ts';
import { notFound } from '../errors.ts';
import { escapeCell } from '../modules/bookings/export.ts';
import { audit } from './audit.ts';

type Row = typeof auditEvents.$inferSelect;

export function toAuditEvent(row: Row): AuditEventReply {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: { type: row.actorType as AuditEventReply['actor']['type'], id: row.actorUserId, name: row.actorName, token_id: row.actorTokenId, client_id: row.actorClientId },
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
  const d = (row.details ?? {}) as { to?: string; subject?: string; text?: string; attachments?: string[]; outcome?: SentEmail['outcome']; message_id?: string | null };
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

/** Reads of the history: newest first, a page at a time. */
export class AuditService {
  constructor(private readonly db: Db) {}

  private async page(where: SQL | undefined, page: number, perPage = AUDIT_PER_PAGE): Promise<Paged<AuditEventReply>> {
    const [total] = await this.db.select({ n: count() }).from(auditEvents).where(where);
    const n = Number(total?.n ?? 0);
    const rows = await this.db
      .select()
      .from(auditEvents)
      .where(where)
      .orderBy(desc(auditEvents.at), desc(auditEvents.id))
      .limit(perPage)
      .offset((page - 1) * perPage);
    const from = rows.length ? (page - 1) * perPage + 1 : null;
    return {
      data: rows.map(toAuditEvent),
      total: n,
      from,
      to: from === null ? null : from + rows.length - 1,
      per_page: perPage,
      current_page: page,
      last_page: Math.max(1, Math.ceil(n / perPage)),
    };
  }

  async forBooking(bookingId: number, page: number): Promise<Paged<AuditEventReply>> {
    const [b] = await this.db.select({ id: bookings.id }).from(bookings).where(eq(bookings.id, bookingId));
    if (!b) throw notFound('Booking not found.');
    return this.page(eq(auditEvents.bookingId, bookingId), page);
  }

  /** The trip's own history and its add-ons', custom fields' and documents' (bookings have theirs). */
  async forTrip(tripId: number, page: number): Promise<Paged<AuditEventReply>> {
    const [t] = await this.db.select({ id: trips.id }).from(trips).where(eq(trips.id, tripId));
    if (!t) throw notFound('Trip not found.');
    return this.page(and(eq(auditEvents.tripId, tripId), sql`${auditEvents.bookingId} is null`), page);
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
      .where(and(eq(auditEvents.id, emailId), eq(auditEvents.bookingId, bookingId), inArray(auditEvents.action, ['email.sent', 'email.failed'])));
    if (!row) throw notFound('Email not found.');
    return toSentEmail(row);
  }

  async search(q: AuditQuery, perPage = AUDIT_PER_PAGE): Promise<Paged<AuditEventReply>> {
    let bookingId: number | undefined;
    if (q.booking_ref) {
      const [b] = await this.db.select({ id: bookings.id }).from(bookings).where(sql`upper(${bookings.ref}) = upper(${q.booking_ref})`);
      // an unknown reference has no history: an empty page, not an error
      bookingId = b?.id ?? -1;
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
      q.action ? (q.action.endsWith('.') ? like(auditEvents.action, `${escapeLike(q.action)}%`) : eq(auditEvents.action, q.action)) : undefined,
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
export function auditSpreadsheet(db: Db, q: AuditQuery): Readable {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet('History');
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
      if (page >= batch.last_page) break;
    }
    const kept = rows.slice(0, AUDIT_EXPORT_MAX_ROWS);
    // reading the history in bulk is itself history
    await audit(db, {
      action: 'export.audit',
      subject: { type: 'audit_export', id: null },
      summary: `exported ${kept.length.toLocaleString('en-GB')} history event${kept.length === 1 ? '' : 's'} to a spreadsheet`,
      details: { filters: Object.fromEntries(Object.entries(q).filter(([k, v]) => k !== 'page' && v !== undefined)), rows: kept.length },
    });
    for (const e of kept) {
      sheet
        .addRow({
          at: new Date(e.at),
          actor: escapeCell(e.actor.name),
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
