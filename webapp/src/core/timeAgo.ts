const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/**
 * A time-ago label for lists (spec 002 §2): 'just now' under a minute, else the largest whole unit
 * ('5 minutes ago', 'yesterday', '3 months ago'). An unparsable date gives an empty label.
 */
export function timeAgo(date: string, now: Date = new Date(), locale = 'en'): string {
  const then = new Date(date).getTime();
  if (Number.isNaN(then)) return '';
  const seconds = Math.round((now.getTime() - then) / 1000);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(-Math.trunc(seconds / size), unit);
  }
  return format.format(0, 'second') === 'now' ? 'just now' : format.format(0, 'second');
}

/** A date and time as the lists show them, e.g. '26 Nov 2026, 09:45'; empty when unparsable. */
export function formatDateTime(date: string, locale = 'en-GB'): string {
  const parsed = new Date(date);
  if (Number.isNaN(parsed.getTime())) return '';
  return new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' }).format(parsed);
}
