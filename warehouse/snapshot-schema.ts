import { SNAPSHOT_FRAMEWORKS, SNAPSHOT_RATIOS, SNAPSHOTS_SCHEMA } from './lake-schemas.ts';

/** The first day of the current engine era; snapshots before it are `legacy`. */
export const CURRENT_ERA_SINCE = '2026-07-04';

export type SnapshotFramework = (typeof SNAPSHOT_FRAMEWORKS)[number];
export type SnapshotRatio = (typeof SNAPSHOT_RATIOS)[number];
export type SnapshotStatus = 'compliant' | 'non_compliant' | 'questionable' | 'insufficient_data';
export type SnapshotEra = 'legacy' | 'current';

type StatusColumns = { [K in SnapshotFramework as `${K}_status`]: SnapshotStatus };
type RatioColumns = { [K in SnapshotRatio]: number | null };

/**
 * One row of the `snapshots` lake table, field for field. Dates are `YYYY-MM-DD`;
 * `screened_at` is an ISO 8601 timestamp in UTC without zone (`2026-11-21T02:14:09.123`);
 * ratios are in 0..1 (may exceed 1), market caps in the listing currency.
 */
export type SnapshotRow = {
  market: string;
  ticker: string;
  snapshot_date: string;
  screened_at: string;
  /** `nightly`, `backfill`, `refresh`, … */
  source: string;
  run_id: string;
  era: SnapshotEra;
  engine_version: string;
  filing_ref: string | null;
  period_end: string | null;
  price_date: string | null;
  /** The engine's full result, reasons included, as JSON. */
  result_json: string;
  synthetic: boolean;
  data_source: string;
} & StatusColumns &
  RatioColumns;

/** Era of a snapshot taken on `snapshotDate` (`YYYY-MM-DD`). */
export function eraOf(snapshotDate: string): SnapshotEra {
  return snapshotDate < CURRENT_ERA_SINCE ? 'legacy' : 'current';
}

/** Every field of a `SnapshotRow`, in the lake's column order (partition key `market` first). */
export const SNAPSHOT_ROW_FIELDS: readonly (keyof SnapshotRow)[] = [
  'market',
  ...(SNAPSHOTS_SCHEMA.columns.map((c) => c.name) as (keyof SnapshotRow)[]),
];

/** The status column of a framework id. */
export function statusColumn(framework: SnapshotFramework): `${SnapshotFramework}_status` {
  return `${framework}_status`;
}
