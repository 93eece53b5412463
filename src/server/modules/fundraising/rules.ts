import { addDays } from '../../../contract/dates.ts';
import type { FundraisingState, Milestone } from '../../../contract/fundraising-constants.ts';

/** The day a milestone falls due: its weeks before departure. */
export const milestoneDate = (departure: string, m: Milestone) => addDays(departure, -7 * m.weeks_before);

/** The pence a milestone asks for: its percentage of the target, rounded up to the penny. */
export const milestonePence = (targetPence: number, m: Milestone) => Math.ceil((targetPence * m.percent) / 100);

export type FundraisingStanding = {
  state: FundraisingState;
  /** the latest milestone passed and not reached (behind only) */
  missed: (Milestone & { due: string; pence: number }) | null;
  /** what is still to raise to that milestone (behind), or to the target (on track) */
  shortfallPence: number;
  /** the next milestone still to come, if any */
  next: (Milestone & { due: string; pence: number }) | null;
};

/**
 * A fundraising traveller's standing, the one place it is decided: the target met;
 * behind when a milestone's day has passed (the day itself still counts as in time) with less
 * raised than it asks; otherwise on track. A booking that does not fundraise is not fundraising.
 */
export function fundraisingStanding(
  f: { fundraises: boolean; targetPence: number; raisedPence: number; milestones: Milestone[]; departure: string },
  today: string,
): FundraisingStanding {
  const none = { missed: null, shortfallPence: 0, next: null };
  if (!f.fundraises) return { state: 'not_fundraising', ...none };
  const dated = [...f.milestones]
    .map((m) => ({ ...m, due: milestoneDate(f.departure, m), pence: milestonePence(f.targetPence, m) }))
    .sort((a, b) => a.due.localeCompare(b.due) || a.percent - b.percent);
  const next = dated.find((m) => m.due >= today) ?? null;
  if (f.raisedPence >= f.targetPence) return { state: 'met', ...none };
  const missed = dated.filter((m) => m.due < today && f.raisedPence < m.pence).at(-1) ?? null;
  if (missed) return { state: 'behind', missed, shortfallPence: missed.pence - f.raisedPence, next };
  return { state: 'on_track', missed: null, shortfallPence: f.targetPence - f.raisedPence, next };
}
