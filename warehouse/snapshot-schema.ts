import type { ScreeningResult } from '../engine/result-types.ts';
import { SNAPSHOT_FRAMEWORKS, SNAPSHOT_RATIOS, SNAPSHOTS_SCHEMA } from './lake-schemas.ts';

/** The first day of the current engine era; snapshots before it are `legacy`. */
export const CURRENT_ERA_SINCE = '2026-07-04';

export type SnapshotFramework = (typeof SNAPSHOT_FRAMEWORKS)[number];
export type SnapshotRatio = (typeof SNAPSHOT_RATIOS)[number];
export type SnapshotStatus = 'compliant' | 'non_compliant' | 'questionable' | 'insufficient_data';
export type SnapshotEra = 'legacy' | 'current';

/** Which run wrote a snapshot: its `source` column. */
export type SnapshotSource = 'nightly' | 'backfill' | 'refresh';

/** One ticker screened on demand: the snapshot's identity and the engine's full result (stored as `result_json`). */
export interface RefreshedScreen {
  market: string;
  ticker: string;
  snapshotDate: string;
  /** ISO 8601 timestamp in UTC, without zone. */
  screenedAt: string;
  source: SnapshotSource;
  result: ScreeningResult;
}

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

/** The snapshot's ratio columns of an engine result: market-cap ratios on the trailing 24-month average (the DJIM and S&P basis). */
export function snapshotRatiosOf(result: ScreeningResult): Record<SnapshotRatio, number | null> {
  const r = result.ratios;
  return {
    debt_to_market_cap: r.debt_to_market_cap_24m,
    cash_to_market_cap: r.cash_and_securities_to_market_cap_24m,
    receivables_to_market_cap: r.receivables_to_market_cap_24m,
    debt_to_assets: r.debt_to_assets,
    cash_to_assets: r.cash_and_securities_to_assets,
    receivables_cash_to_assets: r.receivables_and_cash_to_assets,
    non_permissible_income_share: result.purification?.non_permissible_income_ratio ?? null,
    market_cap: result.market_cap.spot,
    avg_market_cap_24m: result.market_cap.avg_24m,
    avg_market_cap_36m: result.market_cap.avg_36m,
  };
}
