/** Emails to travellers leave between 09:00 and 18:00, UK time, only. */
export const SENDING_HOURS = { from: 9, to: 18 } as const;

const UK_HOUR = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', hourCycle: 'h23' });
export function ukHour(at: Date): number {
  return Number(UK_HOUR.format(at));
}
export const inSendingHours = (at: Date) => ukHour(at) >= SENDING_HOURS.from && ukHour(at) < SENDING_HOURS.to;
