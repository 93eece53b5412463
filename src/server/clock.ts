import { systemClock as bossSystemClock, type Clock as BossClock } from 'pg-boss';

/**
 * The one clock of the server: what time it is, and timers that follow it. The job queue reads
 * the same clock, so a test that moves it (pg-boss's TestClock) moves the jobs, the schedules
 * and every rule that asks what day it is, together.
 */
export type Clock = BossClock;
export const systemClock: Clock = bossSystemClock;

/** now, as a Date */
export const nowOf = (clock: Pick<Clock, 'now'>): Date => new Date(clock.now());
