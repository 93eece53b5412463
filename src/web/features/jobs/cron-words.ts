const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

const num = (field: string, max: number): number | null =>
  /^\d{1,2}$/.test(field) && Number(field) <= max ? Number(field) : null;
const two = (n: number) => String(n).padStart(2, '0');
const ordinal = (n: number) => {
  const rem = n % 100;
  const suffix = rem >= 11 && rem <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
};

/**
 * A queue's schedule as an office reads it ("hourly at :17", "daily at 18:00"), for the common
 * shapes of a cron expression; null when it is anything else (the screen then shows the cron).
 */
export function cronInWords(cron: string): string | null {
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5) return null;
  const [minute, hour, dayOfMonth, month, dayOfWeek] = fields as [string, string, string, string, string];
  if (month !== '*') return null;
  const every = /^\*\/(\d{1,2})$/.exec(minute);
  if (every && hour === '*' && dayOfMonth === '*' && dayOfWeek === '*') {
    const n = Number(every[1]);
    return n === 1 ? 'every minute' : n > 0 ? `every ${n} minutes` : null;
  }
  if (minute === '*' && hour === '*' && dayOfMonth === '*' && dayOfWeek === '*') return 'every minute';
  const m = num(minute, 59);
  if (m === null) return null;
  if (hour === '*') return dayOfMonth === '*' && dayOfWeek === '*' ? `hourly at :${two(m)}` : null;
  const h = num(hour, 23);
  if (h === null) return null;
  const at = `at ${two(h)}:${two(m)}`;
  if (dayOfMonth === '*' && dayOfWeek === '*') return `daily ${at}`;
  if (dayOfMonth === '*') {
    const d = num(dayOfWeek, 7);
    if (d !== null) return `every ${DAYS[d]} ${at}`;
    if (dayOfWeek === '1-5') return `weekdays ${at}`;
    return null;
  }
  const dom = num(dayOfMonth, 31);
  return dom !== null && dom > 0 && dayOfWeek === '*' ? `monthly on the ${ordinal(dom)} ${at}` : null;
}
