import { addDays, ukToday } from '../../../contract/dates.ts';
import { formatPence } from '../../../contract/money.ts';
import type { FundraisingStanding } from '../fundraising/rules.ts';
import {
  CONSENT_UNDER_AGE,
  READINESS_URGENT_DAYS,
  type CheckResult,
  type ReadinessCheck,
} from '../../../contract/readiness.ts';

/**
 * The checks of "ready to depart", one function each, on plain facts about a booking
 * (loaded by service.ts). The one place these rules live: the trip's board, the booking page and
 * (later) the chasers all read them from here. The passport's state comes from the booking list's
 * own SQL rule (passportState), so the list's filter and the board never disagree.
 *
 * green: nothing to do. amber: something to do, departure more than READINESS_URGENT_DAYS away.
 * red: something wrong (a passport not valid, money overdue), or something to do with departure
 * within READINESS_URGENT_DAYS.
 */

export type TripFacts = {
  departure: string;
  /** a school trip asks a parent's consent for each pupil under 18 (issue 37) */
  asksConsent?: boolean;
  returnDate: string;
  requirePassport: boolean;
  country: string;
  passportMonths: number;
};

export type BookingFacts = {
  passport: {
    state: 'missing' | 'expired' | 'expires' | 'ok';
    expiry: string | null;
    imageUploaded: boolean;
    /** a photo page the traveller uploaded that the office has not yet looked at */
    imageToCheck?: boolean;
  };
  formComplete: boolean;
  /** the trip's custom fields this booking has not answered (by label) */
  unanswered: string[];
  money: {
    depositPaid: boolean;
    owedPence: number;
    overduePence: number;
    firstOverdue: string | null;
    nextDue: string | null;
  };
  medical: { conditions: boolean; detail: string | null };
  nextOfKin: { name: string | null; telephone: string | null };
  room: { type: string | null; shareWith: string | null; sharerNamesBack: boolean | null };
  /** when the trip's documents were last emailed to this traveller (an ISO instant) */
  documentsSentAt: string | null;
  /** the standing of a traveller who fundraises (fundraising/rules.ts decides it) */
  fundraising: { standing: FundraisingStanding; raisedPence: number; targetPence: number };
  /** a parent's consent (school trips): the traveller's date of birth, and when it was given or withdrawn */
  consent?: { dateOfBirth: string | null; name: string | null; givenAt: string | null; withdrawnAt: string | null };
};

/** The trip's documents that have a file: how many, and the one uploaded last. */
export type TripDocuments = { count: number; lastUploadedAt: string | null; lastName: string | null };

const DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const day = (iso: string) => DATE.format(new Date(`${iso}T00:00:00Z`));
const blank = (v: string | null | undefined) => !v || !v.trim();

const green = (reason: string): CheckResult => ({ state: 'green', reason });
const red = (reason: string): CheckResult => ({ state: 'red', reason });
/** something still to do: amber, or red once departure is near */
const toDo = (reason: string, urgent: boolean): CheckResult => ({ state: urgent ? 'red' : 'amber', reason });

const sameName = (name: string | null | undefined) => (name ?? '').trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * Who shares with whom, the one rule for the board and the rooming list: "share with" names
 * another traveller of those given (case and spacing aside), who names this one back. Per
 * traveller: true (matched), false (the sharer does not name them back), null (no such traveller,
 * or themselves); a traveller who names no one is left out.
 */
export function sharersMatch<
  T extends { id: number; first_name: string; last_name: string; share_with: string | null },
>(travellers: T[]): Map<number, boolean | null> {
  const byName = new Map<string, T>();
  for (const t of travellers) byName.set(sameName(`${t.first_name} ${t.last_name}`), t);
  const out = new Map<number, boolean | null>();
  for (const t of travellers) {
    if (!t.share_with || !t.share_with.trim()) continue;
    const sharer = byName.get(sameName(t.share_with));
    out.set(
      t.id,
      sharer === undefined || sharer.id === t.id
        ? null
        : sameName(sharer.share_with) === sameName(`${t.first_name} ${t.last_name}`),
    );
  }
  return out;
}

/** departure within READINESS_URGENT_DAYS of today (or past) */
export const isUrgent = (trip: Pick<TripFacts, 'departure'>, today: string) =>
  addDays(today, READINESS_URGENT_DAYS) >= trip.departure;

/** The passport check's reason when the details pass but there is no photo page yet. */
export const NO_PASSPORT_IMAGE = 'Passport details are valid, but no image of the passport has been uploaded.';

export function passportCheck(b: BookingFacts['passport'], trip: TripFacts, today: string): CheckResult {
  const urgent = isUrgent(trip, today);
  if (b.state === 'missing') return toDo('No passport details yet.', urgent);
  if (b.state === 'expired')
    return red(`Expires on ${day(b.expiry!)}, before the trip is back on ${day(trip.returnDate)}.`);
  if (b.state === 'expires') {
    const months = trip.passportMonths === 1 ? '1 month' : `${trip.passportMonths} months`;
    return red(
      `Expires on ${day(b.expiry!)}: ${trip.country} asks for ${months} of validity after the return on ${day(trip.returnDate)}.`,
    );
  }
  if (trip.requirePassport && !b.imageUploaded) return toDo(NO_PASSPORT_IMAGE, urgent);
  if (b.imageToCheck)
    return {
      ...green(`Valid until ${day(b.expiry!)}, enough for ${trip.country}; the photo page is to check.`),
      to_check: true,
    };
  return green(`Valid until ${day(b.expiry!)}, enough for ${trip.country}.`);
}

export function formsCheck(
  b: Pick<BookingFacts, 'formComplete' | 'unanswered'>,
  trip: TripFacts,
  today: string,
): CheckResult {
  const urgent = isUrgent(trip, today);
  const missing = b.unanswered.length
    ? `${b.unanswered.length === 1 ? 'A trip question is' : `${b.unanswered.length} trip questions are`} not answered (${b.unanswered.join(', ')})`
    : '';
  if (!b.formComplete && missing)
    return toDo(`The booking form is not complete, and ${missing.charAt(0).toLowerCase()}${missing.slice(1)}.`, urgent);
  if (!b.formComplete) return toDo('The booking form is not complete.', urgent);
  if (missing) return toDo(`${missing}.`, urgent);
  return green('The booking form is complete and every trip question is answered.');
}

export function moneyCheck(b: BookingFacts['money'], trip: TripFacts, today: string): CheckResult {
  if (b.overduePence > 0) return red(`${formatPence(b.overduePence)} is overdue (due since ${day(b.firstOverdue!)}).`);
  if (!b.depositPaid)
    return toDo(
      b.nextDue ? `The deposit is not paid yet (due on ${day(b.nextDue)}).` : 'The deposit is not paid yet.',
      isUrgent(trip, today),
    );
  if (b.owedPence > 0)
    return green(
      `Deposit paid; ${formatPence(b.owedPence)} still to pay${b.nextDue ? `, next due on ${day(b.nextDue)}` : ''}, nothing overdue.`,
    );
  return green('Paid in full.');
}

export function medicalCheck(b: BookingFacts['medical'], trip: TripFacts, today: string): CheckResult {
  if (b.conditions && blank(b.detail))
    return toDo('Medical conditions are declared, but no detail is given.', isUrgent(trip, today));
  return green(b.conditions ? 'Medical conditions declared, with detail.' : 'No medical conditions declared.');
}

export function nextOfKinCheck(b: BookingFacts['nextOfKin'], trip: TripFacts, today: string): CheckResult {
  const missing = [blank(b.name) && 'name', blank(b.telephone) && 'telephone'].filter(Boolean);
  if (missing.length)
    return toDo(
      `The next of kin's ${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} missing.`,
      isUrgent(trip, today),
    );
  return green(`${b.name!.trim()}, ${b.telephone!.trim()}.`);
}

export function roomCheck(b: BookingFacts['room'], trip: TripFacts, today: string): CheckResult {
  const urgent = isUrgent(trip, today);
  if (blank(b.type)) return toDo('No room type set.', urgent);
  if (!blank(b.shareWith) && b.sharerNamesBack !== true) {
    return toDo(
      b.sharerNamesBack === null
        ? `Shares with ${b.shareWith!.trim()}, who is not a traveller on this trip.`
        : `Shares with ${b.shareWith!.trim()}, who does not name this traveller back.`,
      urgent,
    );
  }
  return green(blank(b.shareWith) ? `${b.type!.trim()}.` : `${b.type!.trim()}, sharing with ${b.shareWith!.trim()}.`);
}

export function documentsCheck(
  sentAt: string | null,
  docs: TripDocuments,
  trip: TripFacts,
  today: string,
): CheckResult {
  const urgent = isUrgent(trip, today);
  if (docs.count === 0) return green('This trip has no documents to send.');
  if (sentAt === null)
    return toDo(
      `The trip's ${docs.count === 1 ? 'document has' : `${docs.count} documents have`} not been sent yet.`,
      urgent,
    );
  const sentOn = day(ukToday(new Date(sentAt)));
  if (docs.lastUploadedAt !== null && docs.lastUploadedAt > sentAt)
    return toDo(`Sent on ${sentOn}, but “${docs.lastName}” was uploaded after that.`, urgent);
  return green(`Sent on ${sentOn}.`);
}

export function fundraisingCheck(f: BookingFacts['fundraising']): CheckResult {
  const s = f.standing;
  if (s.state === 'not_fundraising') return green('Does not fundraise.');
  if (s.state === 'met')
    return green(`Target met: ${formatPence(f.raisedPence)} raised of ${formatPence(f.targetPence)}.`);
  if (s.state === 'behind')
    return red(
      `Behind: ${s.missed!.percent}% (${formatPence(s.missed!.pence)}) was due by ${day(s.missed!.due)}; ${formatPence(s.shortfallPence)} short.`,
    );
  return {
    state: 'amber',
    reason: `On track: ${formatPence(f.raisedPence)} raised of ${formatPence(f.targetPence)}${s.next ? `; next, ${s.next.percent}% by ${day(s.next.due)}` : ''}.`,
  };
}

/** Whether a traveller is under CONSENT_UNDER_AGE on the day the trip departs (no date of birth: taken as a pupil). */
export function underAgeOnDeparture(dateOfBirth: string | null, departure: string): boolean {
  if (!dateOfBirth) return true;
  const [y, m, d] = dateOfBirth.slice(0, 10).split('-').map(Number) as [number, number, number];
  const adult = `${String(y + CONSENT_UNDER_AGE).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  const at = y + CONSENT_UNDER_AGE;
  const leap = (at % 4 === 0 && at % 100 !== 0) || at % 400 === 0;
  // born on 29 February: of age on 1 March of a year without one
  return departure < (m === 2 && d === 29 && !leap ? `${String(at).padStart(4, '0')}-03-01` : adult);
}

export function consentCheck(b: BookingFacts['consent'], trip: TripFacts, today: string): CheckResult {
  if (!trip.asksConsent) return green('Not a school trip: no consent is asked.');
  if (!b || !underAgeOnDeparture(b.dateOfBirth, trip.departure))
    return green(`${CONSENT_UNDER_AGE} or over on departure: no parent’s consent is needed.`);
  if (b.withdrawnAt) return red(`The parent’s consent was withdrawn on ${day(ukToday(new Date(b.withdrawnAt)))}.`);
  if (b.givenAt) return green(`Consent given by ${b.name} on ${day(ukToday(new Date(b.givenAt)))}.`);
  return toDo('No parent’s consent yet.', isUrgent(trip, today));
}

/** Every check of one booking. */
export function readinessOf(
  b: BookingFacts,
  trip: TripFacts,
  today: string,
  docs: TripDocuments = { count: 0, lastUploadedAt: null, lastName: null },
): Record<ReadinessCheck, CheckResult> {
  return {
    passport: passportCheck(b.passport, trip, today),
    forms: formsCheck(b, trip, today),
    money: moneyCheck(b.money, trip, today),
    medical: medicalCheck(b.medical, trip, today),
    next_of_kin: nextOfKinCheck(b.nextOfKin, trip, today),
    room: roomCheck(b.room, trip, today),
    documents: documentsCheck(b.documentsSentAt, docs, trip, today),
    fundraising: fundraisingCheck(b.fundraising),
    consent: consentCheck(b.consent, trip, today),
  };
}
