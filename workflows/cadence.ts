/** How often a backfill takes a snapshot. */
export const CADENCES = ['month-end', 'quarter-end', 'year-end'] as const;
export type Cadence = (typeof CADENCES)[number];

const MONTHS_PER_STEP: Record<Cadence, number> = { 'month-end': 1, 'quarter-end': 3, 'year-end': 12 };

function lastDayOfMonth(year: number, month: number): string {
  const day = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * The snapshot dates of a backfill, `YYYY-MM-DD`, ascending and distinct: `from` itself (so
 * `as_of` any day from the first one answers for a company listed then), each period end in
 * (from, to], and `to` itself when it is not a period end (so the range reaches its last day).
 */
export function cadenceDates(from: string, to: string, cadence: Cadence): string[] {
  if (from > to) throw new Error(`backfill range is empty: from ${from} is after to ${to}`);
  const step = MONTHS_PER_STEP[cadence];
  const dates: string[] = [from];
  let year = Number(from.slice(0, 4));
  let month = Math.ceil(Number(from.slice(5, 7)) / step) * step;
  for (;;) {
    const end = lastDayOfMonth(year, month);
    if (end > to) break;
    if (end > from) dates.push(end);
    month += step;
    if (month > 12) {
      month -= 12;
      year += 1;
    }
  }
  if (dates.at(-1) !== to) dates.push(to);
  return dates;
}

/**
 * Listing-dates one backfill chunk screens at most: about 2,000 listings × the 19 dates of a
 * year-end history since 2009 (its first day, 17 year-ends, today).
 * A chunk holds its inputs in memory and publishes its results in one write: a month-end
 * backfill at 2,000 listings a chunk took too much memory and a write longer than the chunk
 * heartbeat timeout (docs/pipelines.md has the figures); it gets 166-listing chunks instead.
 */
export const BACKFILL_CHUNK_BUDGET = 36_000;

/** Listings per backfill chunk for `dateCount` snapshot dates: the budget spread over the dates, 50–2,000. */
export function backfillChunkSize(dateCount: number): number {
  return Math.max(50, Math.min(2_000, Math.floor(BACKFILL_CHUNK_BUDGET / Math.max(1, dateCount))));
}
