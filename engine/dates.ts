/**
 * Calendar arithmetic on `YYYY-MM-DD` strings without `Date` (hot path: no parsing objects,
 * no time zones). ISO dates compare correctly as strings, so most checks are string compares.
 */

const DIGIT_0 = 48;

function digits(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = s.charCodeAt(i) - DIGIT_0;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return isLeap(y) ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

/** True when `s` is a real calendar date written `YYYY-MM-DD`. */
export function isIsoDate(s: string): boolean {
  if (s.length !== 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return false;
  const y = digits(s, 0, 4);
  const m = digits(s, 5, 7);
  const d = digits(s, 8, 10);
  return y >= 1 && m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m);
}

/** Days since 1970-01-01 of a valid `YYYY-MM-DD` date (proleptic Gregorian). */
export function dayNumber(s: string): number {
  let y = digits(s, 0, 4);
  const m = digits(s, 5, 7);
  const d = digits(s, 8, 10);
  // Howard Hinnant's days_from_civil.
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** The date `months` calendar months before `s` (`YYYY-MM-DD`), day clamped to month end. */
export function monthsBefore(s: string, months: number): string {
  const y = digits(s, 0, 4);
  const m = digits(s, 5, 7);
  const d = digits(s, 8, 10);
  const total = y * 12 + (m - 1) - months;
  const ny = Math.floor(total / 12);
  const nm = total - ny * 12 + 1;
  const nd = Math.min(d, daysInMonth(ny, nm));
  return `${pad(ny, 4)}-${pad(nm, 2)}-${pad(nd, 2)}`;
}

/** First day of the service's history: nothing is screened or backfilled before it (docs/getting-started.md, "What the first start does"). */
export const HISTORY_START = '2009-01-01';

/** The UTC calendar day of an instant (a `Date` or epoch milliseconds), `YYYY-MM-DD`. */
export function utcDay(instant: Date | number): string {
  return new Date(instant).toISOString().slice(0, 10);
}

/** The date `days` calendar days after `s` (`YYYY-MM-DD`; negative `days` go back). */
export function addDays(s: string, days: number): string {
  return utcDay((dayNumber(s) + days) * 86_400_000);
}

/** Whole calendar months from `from` to `to` (`YYYY-MM-DD`, `from` ≤ `to`), counting a month only once its day is reached. */
export function monthsBetween(from: string, to: string): number {
  const months = (Number(to.slice(0, 4)) - Number(from.slice(0, 4))) * 12 + Number(to.slice(5, 7)) - Number(from.slice(5, 7));
  return to.slice(8) >= from.slice(8) ? months : months - 1;
}
