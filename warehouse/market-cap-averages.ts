/**
 * Trailing 24- and 36-month averages of a listing's month-end market caps, computed in
 * JavaScript from the listing's caps instead of by a per-(listing, date) join in DuckDB: that
 * join was most of a backfill chunk's input query (docs/pipelines.md, *Backfill: input
 * averages in JavaScript*). The months are added oldest first, one at a time, as DuckDB's
 * `avg(cap ORDER BY month)` adds them, so every average is bit for bit the one the query gave.
 */

/** One month-end market cap of a listing. */
export interface MonthEndCap {
  /** Months since year 0: `year × 12 + month − 1`. */
  monthIndex: number;
  /** Day of the month's last close as `yyyymmdd`: a cap counts only from that day. */
  day: number;
  /** Null when the month's close has no share count (a month without a close has no entry). */
  cap: number | null;
}

/** The averages of one (listing, date). An average is null when its window holds no cap. */
export interface MarketCapAverages {
  avg24m: number | null;
  avg36m: number | null;
  months24: number;
  months36: number;
  /** Months (`YYYY-MM`, oldest first) without a cap, as `MarketCaps.missingMonths` says; absent when none. */
  missingMonths?: readonly string[];
}

/** `YYYY-MM-DD` → months since year 0. */
export function monthIndexOf(date: string): number {
  return Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;
}

/** `YYYY-MM-DD` → `yyyymmdd`. */
export function yyyymmddOf(date: string): number {
  return Number(date.slice(0, 4)) * 10_000 + Number(date.slice(5, 7)) * 100 + Number(date.slice(8, 10));
}

// One string per month for every input that names it: the months of a run repeat across listings and dates.
const monthTexts = new Map<number, string>();

/** Months since year 0 → `YYYY-MM`. */
export function monthTextOf(monthIndex: number): string {
  let text = monthTexts.get(monthIndex);
  if (text === undefined) {
    if (monthTexts.size > 10_000) monthTexts.clear();
    text = `${String(Math.floor(monthIndex / 12)).padStart(4, '0')}-${String((monthIndex % 12) + 1).padStart(2, '0')}`;
    monthTexts.set(monthIndex, text);
  }
  return text;
}

/** Adds the months `from` … `to` (month indexes, inclusive) to `missing`, made only when the first month is missing. */
function addMissing(missing: string[] | undefined, from: number, to: number): string[] | undefined {
  if (from > to) return missing;
  const list = missing ?? [];
  for (let m = from; m <= to; m += 1) list.push(monthTextOf(m));
  return list;
}

/** The index of the first cap after `monthIndex` (caps ordered by month). */
function firstAfter(caps: readonly MonthEndCap[], monthIndex: number): number {
  let lo = 0;
  let hi = caps.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (caps[mid]!.monthIndex <= monthIndex) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The averages on `date` of caps ordered by month: the months after the 36th (24th) before
 * the date's month, up to the date's own month, whose last close is on or before the date.
 * The months missing are those from the window's first month-end close up to the month before
 * the date's month without a close (docs/frameworks/README.md, "Staleness limits"): earlier
 * months are a short history, and the date's own month-end may be still to come. The list is
 * made only when a month is missing, so a complete history allocates nothing for it.
 */
export function marketCapAveragesOn(caps: readonly MonthEndCap[], date: string): MarketCapAverages {
  const month = monthIndexOf(date);
  const day = yyyymmddOf(date);
  let sum24 = 0;
  let sum36 = 0;
  let months24 = 0;
  let months36 = 0;
  let previous = -1;
  let missing: string[] | undefined;
  for (let i = firstAfter(caps, month - 36); i < caps.length; i += 1) {
    const c = caps[i]!;
    if (c.monthIndex > month || c.day > day) break;
    if (previous >= 0) missing = addMissing(missing, previous + 1, c.monthIndex - 1);
    previous = c.monthIndex;
    // A close without a share count: the month has its price, but no cap to average.
    if (c.cap === null) continue;
    sum36 += c.cap;
    months36 += 1;
    if (c.monthIndex > month - 24) {
      sum24 += c.cap;
      months24 += 1;
    }
  }
  if (previous >= 0) missing = addMissing(missing, previous + 1, month - 1);
  const averages: MarketCapAverages = {
    avg24m: months24 === 0 ? null : sum24 / months24,
    avg36m: months36 === 0 ? null : sum36 / months36,
    months24,
    months36,
  };
  if (missing !== undefined) averages.missingMonths = missing;
  return averages;
}
