import { describe, expect, it } from 'vitest';
import { addDays } from '../../../contract/dates.ts';
import {
  documentsCheck,
  formsCheck,
  fundraisingCheck,
  sharersMatch,
  isUrgent,
  medicalCheck,
  moneyCheck,
  nextOfKinCheck,
  passportCheck,
  readinessOf,
  roomCheck,
  consentCheck,
  underAgeOnDeparture,
  type BookingFacts,
  type TripFacts,
} from './rules.ts';

// The readiness rules on plain facts, with a fixed "today": no database, no clock.
const today = '2027-03-01';
const far: TripFacts = {
  departure: '2027-09-01',
  returnDate: '2027-09-12',
  requirePassport: true,
  country: 'Peru',
  passportMonths: 6,
};
const near: TripFacts = { ...far, departure: addDays(today, 56), returnDate: addDays(today, 66) };

const ready: BookingFacts = {
  passport: { state: 'ok', expiry: '2030-01-01', imageUploaded: true },
  formComplete: true,
  unanswered: [],
  money: { depositPaid: true, owedPence: 0, overduePence: 0, firstOverdue: null, nextDue: null },
  medical: { conditions: false, detail: null },
  nextOfKin: { name: 'Ann Lee', telephone: '07700 900123' },
  room: { type: 'Twin', shareWith: null, sharerNamesBack: null },
  documentsSentAt: null,
  fundraising: {
    standing: { state: 'not_fundraising', missed: null, shortfallPence: 0, next: null },
    raisedPence: 0,
    targetPence: 0,
  },
};

describe('departure is near', () => {
  it('from 56 days before it (the balance’s 8 weeks), and after', () => {
    expect(isUrgent({ departure: addDays(today, 57) }, today)).toBe(false);
    expect(isUrgent({ departure: addDays(today, 56) }, today)).toBe(true);
    expect(isUrgent({ departure: addDays(today, -3) }, today)).toBe(true);
  });
});

describe('passport', () => {
  it('is red when not valid for the destination, whatever the date', () => {
    expect(passportCheck({ state: 'expired', expiry: '2027-09-10', imageUploaded: true }, far, today)).toEqual({
      state: 'red',
      reason: 'Expires on 10 Sept 2027, before the trip is back on 12 Sept 2027.',
    });
    expect(passportCheck({ state: 'expires', expiry: '2028-01-01', imageUploaded: true }, far, today)).toEqual({
      state: 'red',
      reason: 'Expires on 1 Jan 2028: Peru asks for 6 months of validity after the return on 12 Sept 2027.',
    });
    expect(
      passportCheck(
        { state: 'expires', expiry: '2027-10-01', imageUploaded: true },
        { ...far, passportMonths: 1 },
        today,
      ).reason,
    ).toContain('asks for 1 month of');
  });

  it('missing details or image: amber, red near departure; an image is not asked for when the trip does not require a passport', () => {
    expect(passportCheck({ state: 'missing', expiry: null, imageUploaded: false }, far, today)).toEqual({
      state: 'amber',
      reason: 'No passport details yet.',
    });
    expect(passportCheck({ state: 'missing', expiry: null, imageUploaded: false }, near, today).state).toBe('red');
    expect(passportCheck({ state: 'ok', expiry: '2030-01-01', imageUploaded: false }, far, today)).toEqual({
      state: 'amber',
      reason: 'Passport details are valid, but no image of the passport has been uploaded.',
    });
    expect(
      passportCheck(
        { state: 'ok', expiry: '2030-01-01', imageUploaded: false },
        { ...far, requirePassport: false },
        today,
      ),
    ).toEqual({ state: 'green', reason: 'Valid until 1 Jan 2030, enough for Peru.' });
  });
});

describe('forms', () => {
  it('names the trip questions left blank', () => {
    expect(formsCheck({ formComplete: true, unanswered: [] }, far, today).state).toBe('green');
    expect(formsCheck({ formComplete: false, unanswered: [] }, far, today)).toEqual({
      state: 'amber',
      reason: 'The booking form is not complete.',
    });
    expect(formsCheck({ formComplete: true, unanswered: ['T-shirt size'] }, near, today)).toEqual({
      state: 'red',
      reason: 'A trip question is not answered (T-shirt size).',
    });
    expect(formsCheck({ formComplete: false, unanswered: ['T-shirt size', 'Diet'] }, far, today).reason).toBe(
      'The booking form is not complete, and 2 trip questions are not answered (T-shirt size, Diet).',
    );
  });
});

describe('money', () => {
  it('overdue is red; the deposit unpaid is to do; the rest not yet due is fine', () => {
    expect(
      moneyCheck(
        { depositPaid: true, owedPence: 5_000, overduePence: 5_000, firstOverdue: '2027-02-20', nextDue: null },
        far,
        today,
      ),
    ).toEqual({ state: 'red', reason: '£50.00 is overdue (due since 20 Feb 2027).' });
    expect(
      moneyCheck(
        { depositPaid: false, owedPence: 20_000, overduePence: 0, firstOverdue: null, nextDue: '2027-03-10' },
        far,
        today,
      ),
    ).toEqual({ state: 'amber', reason: 'The deposit is not paid yet (due on 10 Mar 2027).' });
    expect(
      moneyCheck(
        { depositPaid: false, owedPence: 20_000, overduePence: 0, firstOverdue: null, nextDue: null },
        near,
        today,
      ).state,
    ).toBe('red');
    expect(
      moneyCheck(
        { depositPaid: true, owedPence: 120_000, overduePence: 0, firstOverdue: null, nextDue: '2027-07-07' },
        far,
        today,
      ),
    ).toEqual({
      state: 'green',
      reason: 'Deposit paid; £1,200.00 still to pay, next due on 7 Jul 2027, nothing overdue.',
    });
    expect(moneyCheck(ready.money, far, today)).toEqual({ state: 'green', reason: 'Paid in full.' });
  });
});

describe('medical, next of kin and room', () => {
  it('asks for detail of declared conditions', () => {
    expect(medicalCheck({ conditions: true, detail: '  ' }, far, today)).toEqual({
      state: 'amber',
      reason: 'Medical conditions are declared, but no detail is given.',
    });
    expect(medicalCheck({ conditions: true, detail: 'Asthma' }, far, today).state).toBe('green');
    expect(medicalCheck({ conditions: false, detail: null }, near, today)).toEqual({
      state: 'green',
      reason: 'No medical conditions declared.',
    });
  });

  it('needs the next of kin’s name and telephone', () => {
    expect(nextOfKinCheck({ name: null, telephone: ' ' }, far, today)).toEqual({
      state: 'amber',
      reason: "The next of kin's name and telephone are missing.",
    });
    expect(nextOfKinCheck({ name: 'Ann Lee', telephone: null }, near, today)).toEqual({
      state: 'red',
      reason: "The next of kin's telephone is missing.",
    });
    expect(nextOfKinCheck({ name: ' Ann Lee ', telephone: '07700 900123' }, far, today)).toEqual({
      state: 'green',
      reason: 'Ann Lee, 07700 900123.',
    });
  });

  it('needs a room type, and sharers who name each other', () => {
    expect(roomCheck({ type: null, shareWith: null, sharerNamesBack: null }, far, today)).toEqual({
      state: 'amber',
      reason: 'No room type set.',
    });
    expect(roomCheck({ type: 'Twin', shareWith: 'Bo Ray', sharerNamesBack: false }, far, today)).toEqual({
      state: 'amber',
      reason: 'Shares with Bo Ray, who does not name this traveller back.',
    });
    expect(roomCheck({ type: 'Twin', shareWith: 'Zed Nobody', sharerNamesBack: null }, near, today)).toEqual({
      state: 'red',
      reason: 'Shares with Zed Nobody, who is not a traveller on this trip.',
    });
    expect(roomCheck({ type: 'Twin', shareWith: 'Bo Ray', sharerNamesBack: true }, far, today)).toEqual({
      state: 'green',
      reason: 'Twin, sharing with Bo Ray.',
    });
  });
});

describe('a booking', () => {
  it('with everything in order is green on every check', () => {
    const checks = readinessOf(ready, far, today);
    expect(Object.values(checks).map((c) => c.state)).toEqual([
      'green',
      'green',
      'green',
      'green',
      'green',
      'green',
      'green',
      'green',
      'green',
    ]);
  });
});

describe('documents', () => {
  const docs = { count: 2, lastUploadedAt: '2027-02-10T10:00:00.000Z', lastName: 'Kit list' };
  it('green when the trip has none to send', () => {
    expect(documentsCheck(null, { count: 0, lastUploadedAt: null, lastName: null }, near, today)).toEqual({
      state: 'green',
      reason: 'This trip has no documents to send.',
    });
  });
  it('to do when not sent: amber far from departure, red within 8 weeks', () => {
    expect(documentsCheck(null, docs, far, today)).toEqual({
      state: 'amber',
      reason: "The trip's 2 documents have not been sent yet.",
    });
    expect(documentsCheck(null, { ...docs, count: 1 }, near, today)).toEqual({
      state: 'red',
      reason: "The trip's document has not been sent yet.",
    });
  });
  it('green when sent after the last upload, to do again when one is uploaded after sending', () => {
    expect(documentsCheck('2027-02-11T09:00:00.000Z', docs, far, today)).toEqual({
      state: 'green',
      reason: 'Sent on 11 Feb 2027.',
    });
    expect(documentsCheck('2027-02-09T09:00:00.000Z', docs, far, today)).toEqual({
      state: 'amber',
      reason: 'Sent on 9 Feb 2027, but “Kit list” was uploaded after that.',
    });
  });
  it('the day sent is the UK day (23:30 UTC in summer is the next day in London)', () => {
    expect(
      documentsCheck('2027-06-30T23:30:00.000Z', { ...docs, lastUploadedAt: '2027-06-01T10:00:00.000Z' }, far, today)
        .reason,
    ).toBe('Sent on 1 Jul 2027.');
  });
});

describe('fundraising', () => {
  const m = { percent: 50, weeks_before: 16, due: '2027-05-12', pence: 125_000 };
  it('green when the booking does not fundraise or the target is met', () => {
    expect(fundraisingCheck(ready.fundraising)).toEqual({ state: 'green', reason: 'Does not fundraise.' });
    expect(
      fundraisingCheck({
        standing: { state: 'met', missed: null, shortfallPence: 0, next: null },
        raisedPence: 260_000,
        targetPence: 250_000,
      }),
    ).toEqual({ state: 'green', reason: 'Target met: £2,600.00 raised of £2,500.00.' });
  });
  it('amber while on track, red when behind a milestone, with the shortfall', () => {
    expect(
      fundraisingCheck({
        standing: { state: 'on_track', missed: null, shortfallPence: 200_000, next: m },
        raisedPence: 50_000,
        targetPence: 250_000,
      }),
    ).toEqual({ state: 'amber', reason: 'On track: £500.00 raised of £2,500.00; next, 50% by 12 May 2027.' });
    expect(
      fundraisingCheck({
        standing: { state: 'behind', missed: m, shortfallPence: 25_000, next: null },
        raisedPence: 100_000,
        targetPence: 250_000,
      }),
    ).toEqual({ state: 'red', reason: 'Behind: 50% (£1,250.00) was due by 12 May 2027; £250.00 short.' });
  });
});

describe('sharers', () => {
  const t = (id: number, first: string, last: string, share: string | null) => ({
    id,
    first_name: first,
    last_name: last,
    share_with: share,
  });
  it('match when each names the other (case and spacing aside); else not back, or no such traveller', () => {
    const got = sharersMatch([
      t(1, 'Rosa', 'Ready', 'sam  SHARER'),
      t(2, 'Sam', 'Sharer', 'Rosa Ready'),
      t(3, 'Sid', 'Short', 'Rosa Ready'),
      t(4, 'Ann', 'Alone', 'Nobody Here'),
      t(5, 'Me', 'Myself', 'me myself'),
      t(6, 'No', 'One', null),
    ]);
    expect(Object.fromEntries(got)).toEqual({ 1: true, 2: true, 3: false, 4: null, 5: null });
  });
});

describe('a parent’s consent (issue 37)', () => {
  it('is needed until the pupil is 18 on the day of departure, a 29 February birthday counting from 1 March', () => {
    expect(underAgeOnDeparture('2010-06-15', '2028-06-14')).toBe(true);
    expect(underAgeOnDeparture('2010-06-15', '2028-06-15')).toBe(false);
    expect(underAgeOnDeparture('2008-02-29', '2026-02-28')).toBe(true);
    expect(underAgeOnDeparture('2008-02-29', '2026-03-01')).toBe(false);
    // of age on 29 February itself in a leap year
    expect(underAgeOnDeparture('2012-02-29', '2030-02-28')).toBe(true);
    expect(underAgeOnDeparture('2014-02-28', '2032-02-28')).toBe(false);
    expect(underAgeOnDeparture('2010-02-28', '2028-02-28')).toBe(false);
    // no date of birth: taken as a pupil
    expect(underAgeOnDeparture(null, '2030-01-01')).toBe(true);
  });

  it('is green when given, red when withdrawn, to do when not yet given, and not asked beyond school trips', () => {
    const school: TripFacts = { ...far, asksConsent: true };
    const pupil = { dateOfBirth: '2015-01-01', name: null, givenAt: null, withdrawnAt: null };
    expect(consentCheck(pupil, school, today)).toEqual({ state: 'amber', reason: 'No parent’s consent yet.' });
    expect(consentCheck(pupil, { ...near, asksConsent: true }, today).state).toBe('red');
    expect(consentCheck({ ...pupil, name: 'Pat Parent', givenAt: '2026-03-02T10:00:00Z' }, school, today)).toEqual({
      state: 'green',
      reason: 'Consent given by Pat Parent on 2 Mar 2026.',
    });
    expect(
      consentCheck(
        { ...pupil, name: 'Pat Parent', givenAt: '2026-03-02T10:00:00Z', withdrawnAt: '2026-03-09T23:30:00Z' },
        school,
        today,
      ),
    ).toEqual({ state: 'red', reason: 'The parent’s consent was withdrawn on 9 Mar 2026.' });
    expect(consentCheck(pupil, far, today).state).toBe('green');
    expect(consentCheck({ ...pupil, dateOfBirth: '1990-01-01' }, school, today).state).toBe('green');
  });
});
