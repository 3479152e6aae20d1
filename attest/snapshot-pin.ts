import type { VerdictRow } from '../reads/api-reads-types.ts';

/**
 * The snapshot a certificate was minted from, pinned at mint time: its exact identity (day,
 * `screened_at`, source) and the index values the API holds in memory for it (all ten statuses,
 * the ratio columns, provenance). Verification compares the pin with the newest snapshot of
 * that day now in the lake, without reading Parquet.
 */
export interface SnapshotPin {
  day: string;
  /** UTC without zone, millisecond precision, as the lake stores it. */
  screenedAt: string;
  source: string;
  dataSource: string;
  synthetic: boolean;
  statuses: Record<string, string>;
  ratios: Record<string, number | null>;
}

/** match: the same snapshot with the same values; diverged: superseded that day, or changed in place; missing: gone. */
export type SnapshotCheck = 'match' | 'diverged' | 'missing';

export function pinSnapshot(row: VerdictRow): SnapshotPin {
  return {
    day: row.snapshotDate,
    screenedAt: row.screenedAt,
    source: row.source,
    dataSource: row.dataSource,
    synthetic: row.synthetic,
    statuses: { ...row.statuses },
    ratios: { ...row.ratios },
  };
}

function sameValues(pin: SnapshotPin, row: VerdictRow): boolean {
  const keys = (record: Record<string, unknown>) => Object.keys(record).sort();
  const same = (a: Record<string, unknown>, b: Record<string, unknown>) =>
    keys(a).length === keys(b).length && keys(a).every((key) => Object.is(a[key], b[key]));
  return (
    pin.dataSource === row.dataSource && pin.synthetic === row.synthetic && same(pin.statuses, row.statuses) && same(pin.ratios, row.ratios)
  );
}

/**
 * Compares the pin with `newestOfDay`, the newest snapshot of the pinned (market, ticker, day)
 * now in the lake. A newer snapshot that day means the pinned one was superseded (diverged);
 * only an older one, or none, means the pinned snapshot is no longer there (missing).
 */
export function checkSnapshot(pin: SnapshotPin, newestOfDay: VerdictRow | undefined): SnapshotCheck {
  if (newestOfDay === undefined || newestOfDay.snapshotDate !== pin.day) return 'missing';
  if (newestOfDay.screenedAt === pin.screenedAt && newestOfDay.source === pin.source)
    return sameValues(pin, newestOfDay) ? 'match' : 'diverged';
  return newestOfDay.screenedAt > pin.screenedAt ? 'diverged' : 'missing';
}

/**
 * The pin verification compares, with everything the signature covers taken from the signed
 * fields: the snapshot's day and source (`snapshot_ref`), its `screened_at` (`as_of`) and the
 * certified verdict. Only the other index values come from the unsigned pin stored beside them.
 */
export function pinnedSnapshotOf(
  signed: { standard: string; verdict: string; as_of: string; snapshot_ref: { source: string; day: string } },
  stored: SnapshotPin,
): SnapshotPin {
  return {
    ...stored,
    day: signed.snapshot_ref.day,
    source: signed.snapshot_ref.source,
    screenedAt: signed.as_of.replace(/Z$/, ''),
    statuses: { ...stored.statuses, [signed.standard]: signed.verdict },
  };
}
