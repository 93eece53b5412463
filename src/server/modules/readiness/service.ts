import { sql } from 'drizzle-orm';
import { READINESS_CHECKS, type ReadinessRow, type TripReadiness } from '../../../contract/readiness.ts';
import { queryRows, type Db } from '../../../db/client.ts';
import { nowOf, systemClock, type Clock } from '../../clock.ts';
import { HttpError } from '../../errors.ts';
import { passportState } from '../bookings/list.ts';
import { ukToday } from '../../../contract/dates.ts';
import {
  fundraises,
  FundraisingService,
  type FundraisingDefaults,
  type FundraisingRule,
} from '../fundraising/service.ts';
import { fundraisingStanding } from '../fundraising/rules.ts';
import type { FundraisingType } from '../../../contract/fundraising-constants.ts';
import { readinessOf, sharersMatch, type BookingFacts, type TripDocuments, type TripFacts } from './rules.ts';

type FactsRow = {
  id: number;
  ref: string;
  first_name: string;
  last_name: string;
  status: string;
  passport: BookingFacts['passport']['state'];
  passport_expiry: string | null;
  image: boolean;
  image_to_check: boolean;
  form_complete: boolean;
  medical_conditions: boolean;
  medical_detail: string | null;
  nok_name: string | null;
  nok_telephone: string | null;
  room_type: string | null;
  share_with: string | null;
  deposit_paid: boolean;
  chasers_off: boolean;
  chasers_off_reason: string | null;
  last_chaser_check: string | null;
  last_chaser_on: string | Date | null;
  documents_sent_at: Date | string | null;
  funding_type: string;
  fundraising_target_pence: number | null;
  date_of_birth: string | Date | null;
  consent_name: string | null;
  consent_given_at: string | Date | null;
  consent_withdrawn_at: string | Date | null;
  raised: string | number;
  owed: string | number;
  overdue: string | number;
  first_overdue: string | null;
  next_due: string | null;
};

/** a timestamp as an ISO instant (PGlite gives Dates, node-postgres too; raw text from either is parsed) */
const instant = (v: string | Date | null) => (v === null ? null : new Date(v).toISOString());
const iso = (v: string | Date | null) =>
  v === null ? null : typeof v === 'string' ? v.slice(0, 10) : v.toISOString().slice(0, 10);

function fundraisingFacts(
  f: FactsRow,
  rules: Record<FundraisingType, FundraisingRule>,
  departure: string,
  today: string,
): BookingFacts['fundraising'] {
  const rule = fundraises(f.funding_type) ? rules[f.funding_type] : null;
  const targetPence = f.fundraising_target_pence ?? rule?.minimumPence ?? 0;
  const raisedPence = Number(f.raised);
  return {
    standing: fundraisingStanding(
      { fundraises: rule !== null, targetPence, raisedPence, milestones: rule?.milestones ?? [], departure },
      today,
    ),
    raisedPence,
    targetPence,
  };
}

/**
 * Loads what the readiness checks (rules.ts) need for a trip's live bookings (provisional and
 * confirmed), in four statements whatever the number of bookings, and applies them.
 */
export class ReadinessService {
  private readonly fundraising: FundraisingService;

  constructor(
    private readonly db: Db,
    fundraisingDefaults: FundraisingDefaults,
    private readonly clock: Pick<Clock, 'now'> = systemClock,
  ) {
    this.fundraising = new FundraisingService(db, fundraisingDefaults, clock);
  }

  private async trip(tripId: number) {
    const [trip] = await queryRows<{
      id: number;
      name: string;
      departure: string | Date;
      return_date: string | Date;
      require_passport: boolean;
      type: string;
      country: string;
      passport_months: number;
      passport_note: string | null;
    }>(
      this.db,
      sql`select t.id, t.name, t.departure_date as departure, t.return_date, t.require_passport, t.type, c.name as country, c.passport_months, c.passport_note
        from trips t join countries c on c.id = t.country_id where t.id = ${tripId} and t.deleted_at is null`,
    );
    if (!trip) throw new HttpError(404, 'Trip not found');
    return trip;
  }

  /** The bookings' facts: the live ones of the trip, and `also` (a booking of any status) when asked. */
  private async facts(tripId: number, today: string, also?: number): Promise<FactsRow[]> {
    const which =
      also === undefined
        ? sql`bookings.status in ('provisional', 'confirmed')`
        : sql`(bookings.status in ('provisional', 'confirmed') or bookings.id = ${also})`;
    return queryRows<FactsRow>(
      this.db,
      sql`select bookings.id, bookings.ref, bookings.first_name, bookings.last_name, bookings.status, ${passportState} as passport, bookings.passport_expiry_date as passport_expiry, bookings.passport_image_file is not null as image, (bookings.passport_image_file is not null and bookings.passport_image_checked_at is null and bookings.passport_image_uploaded_at is not null) as image_to_check,
          bookings.form_complete, bookings.medical_conditions, bookings.medical_detail, bookings.nok_name, bookings.nok_telephone, bookings.room_type, bookings.share_with, bookings.documents_sent_at, bookings.funding_type, bookings.fundraising_target_pence,
          bookings.date_of_birth, bookings.consent_name, bookings.consent_given_at, bookings.consent_withdrawn_at,
          (select coalesce(sum(fe.amount_pence), 0) from fundraising_entries fe where fe.booking_id = bookings.id and fe.struck_at is null) as raised, bookings.chasers_off, bookings.chasers_off_reason, lc.check as last_chaser_check, lc.sent_on as last_chaser_on,
          (bookings.deposit_payment_date is not null or trips.deposit_pence = 0
            -- a pupil whose school pays the whole trip (issue 37): the parents have no deposit to pay
            or exists (select 1 from school_groups g where g.id = bookings.group_id and g.payer = 'school')
            or exists (select 1 from invoices i where i.booking_id = bookings.id and i.type = 'deposit'
                       and not exists (select 1 from money_owed m where m.kind = 'invoice' and m.id = i.id))) as deposit_paid,
          coalesce(o.owed, 0) as owed, coalesce(o.overdue, 0) as overdue, o.first_overdue, o.next_due
        from bookings
        join trips on trips.id = bookings.trip_id
        left join countries on countries.id = trips.country_id
        left join lateral (
          select sum(m.outstanding_pence) as owed,
            sum(m.outstanding_pence) filter (where m.due_date < ${today}::date) as overdue,
            min(m.due_date) filter (where m.due_date < ${today}::date) as first_overdue,
            min(m.due_date) filter (where m.due_date >= ${today}::date) as next_due
          from money_owed m where m.booking_id = bookings.id
        ) o on true
        left join lateral (select c.check, c.sent_on from chasers c where c.booking_id = bookings.id and c.outcome = 'sent' order by c.created_at desc, c.id desc limit 1) lc on true
        where bookings.trip_id = ${tripId} and ${which}
        order by lower(bookings.last_name), lower(bookings.first_name), bookings.id`,
    );
  }

  /** The trip's custom fields each booking has left blank, by label. */
  private async unanswered(tripId: number): Promise<Map<number, string[]>> {
    const rows = await queryRows<{ booking_id: number; label: string }>(
      this.db,
      sql`select b.id as booking_id, f.label from trip_custom_fields f
        join bookings b on b.trip_id = f.trip_id
        left join booking_custom_field_answers a on a.booking_id = b.id and a.custom_field_id = f.id
        where f.trip_id = ${tripId} and coalesce(trim(a.answer), '') = ''
        order by f.id`,
    );
    const out = new Map<number, string[]>();
    for (const r of rows) out.set(Number(r.booking_id), [...(out.get(Number(r.booking_id)) ?? []), r.label]);
    return out;
  }

  /** The trip's documents with a file: how many, and which was uploaded last. */
  private async documents(tripId: number): Promise<TripDocuments> {
    const [d] = await queryRows<{ count: string | number; last_at: Date | string | null; last_name: string | null }>(
      this.db,
      sql`select count(*) as count, max(uploaded_at) as last_at,
          (select name from trip_documents where trip_id = ${tripId} and stored_file is not null order by uploaded_at desc nulls last, id desc limit 1) as last_name
        from trip_documents where trip_id = ${tripId} and stored_file is not null`,
    );
    return {
      count: Number(d?.count ?? 0),
      lastUploadedAt: instant(d?.last_at ?? null),
      lastName: d?.last_name ?? null,
    };
  }

  private async rows(tripId: number, also?: number) {
    const today = ukToday(nowOf(this.clock));
    const trip = await this.trip(tripId);
    const [facts, unanswered, documents, rules] = await Promise.all([
      this.facts(tripId, today, also),
      this.unanswered(tripId),
      this.documents(tripId),
      this.fundraising.rulesOf(this.db, tripId),
    ]);
    const tripFacts: TripFacts = {
      departure: iso(trip.departure)!,
      returnDate: iso(trip.return_date)!,
      requirePassport: trip.require_passport,
      asksConsent: trip.type === 'school',
      country: trip.country,
      passportMonths: Number(trip.passport_months),
    };
    // who shares with whom: "share with" names another live traveller of the trip, who names this one back
    const sharers = sharersMatch(facts.filter((f) => f.status !== 'cancelled'));
    const rows: ReadinessRow[] = facts.map((f) => {
      const facts: BookingFacts = {
        passport: {
          state: f.passport,
          expiry: iso(f.passport_expiry),
          imageUploaded: f.image,
          imageToCheck: f.image_to_check,
        },
        formComplete: f.form_complete,
        unanswered: unanswered.get(Number(f.id)) ?? [],
        money: {
          depositPaid: f.deposit_paid,
          owedPence: Number(f.owed),
          overduePence: Number(f.overdue),
          firstOverdue: iso(f.first_overdue),
          nextDue: iso(f.next_due),
        },
        medical: { conditions: f.medical_conditions, detail: f.medical_detail },
        nextOfKin: { name: f.nok_name, telephone: f.nok_telephone },
        room: { type: f.room_type, shareWith: f.share_with, sharerNamesBack: sharers.get(f.id) ?? null },
        documentsSentAt: instant(f.documents_sent_at),
        fundraising: fundraisingFacts(f, rules, tripFacts.departure, today),
        consent: {
          dateOfBirth: iso(f.date_of_birth),
          name: f.consent_name,
          givenAt: instant(f.consent_given_at),
          withdrawnAt: instant(f.consent_withdrawn_at),
        },
      };
      const checks = readinessOf(facts, tripFacts, today, documents);
      return {
        booking_id: Number(f.id),
        booking_ref: f.ref,
        traveller: `${f.first_name} ${f.last_name}`,
        status: f.status,
        ready: READINESS_CHECKS.every((c) => checks[c].state === 'green'),
        checks,
        chasers_off: f.chasers_off,
        chasers_off_reason: f.chasers_off_reason,
        last_chaser: f.last_chaser_check ? { check: f.last_chaser_check, sent_on: iso(f.last_chaser_on)! } : null,
      };
    });
    return { trip, tripFacts, rows };
  }

  private tripReply(trip: Awaited<ReturnType<ReadinessService['trip']>>, facts: TripFacts): TripReadiness['trip'] {
    return {
      id: trip.id,
      name: trip.name,
      departure: facts.departure,
      return: facts.returnDate,
      country: trip.country,
      passport_months: facts.passportMonths,
      passport_note: trip.passport_note,
      asks_consent: facts.asksConsent === true,
    };
  }

  /** GET /api/trips/{id}/readiness: every live booking's checks, and how many are green per check. */
  async forTrip(tripId: number): Promise<TripReadiness> {
    const { trip, tripFacts, rows } = await this.rows(tripId);
    const checks = Object.fromEntries(
      READINESS_CHECKS.map((c) => [
        c,
        {
          green: rows.filter((r) => r.checks[c].state === 'green').length,
          amber: rows.filter((r) => r.checks[c].state === 'amber').length,
          red: rows.filter((r) => r.checks[c].state === 'red').length,
        },
      ]),
    ) as TripReadiness['summary']['checks'];
    return {
      trip: this.tripReply(trip, tripFacts),
      summary: { bookings: rows.length, ready: rows.filter((r) => r.ready).length, checks },
      rows,
    };
  }

  /** One booking's checks (of any status) and its trip. */
  async ofBooking(bookingId: number): Promise<{ trip: TripReadiness['trip']; row: ReadinessRow }> {
    const [b] = await queryRows<{ trip_id: number }>(
      this.db,
      sql`select trip_id from bookings where id = ${bookingId}`,
    );
    if (!b) throw new HttpError(404, 'Booking not found');
    const { trip, tripFacts, rows } = await this.rows(b.trip_id, bookingId);
    return { trip: this.tripReply(trip, tripFacts), row: rows.find((r) => r.booking_id === bookingId)! };
  }

  /** GET /api/bookings/{id}/readiness: the same checks for one booking (of any status). */
  async forBooking(bookingId: number): Promise<ReadinessRow> {
    return (await this.ofBooking(bookingId)).row;
  }
}
