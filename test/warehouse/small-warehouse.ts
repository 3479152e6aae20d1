import { SNAPSHOT_FRAMEWORKS } from '../../warehouse/lake-schemas.ts';
import { eraOf, type SnapshotRow, type SnapshotStatus } from '../../warehouse/snapshot-schema.ts';

/** A synthetic snapshot row for tests: every framework `status`, ratios from `debt`. */
export function snapshotRow(
  market: string,
  ticker: string,
  date: string,
  screenedAt: string,
  status: SnapshotStatus,
  extra: Partial<SnapshotRow> = {},
): SnapshotRow {
  const statuses = Object.fromEntries(SNAPSHOT_FRAMEWORKS.map((id) => [`${id}_status`, status])) as Pick<
    SnapshotRow,
    `${(typeof SNAPSHOT_FRAMEWORKS)[number]}_status`
  >;
  return {
    market,
    ticker,
    snapshot_date: date,
    screened_at: screenedAt,
    source: 'backfill',
    run_id: 'test-run',
    era: eraOf(date),
    engine_version: 'test',
    ...statuses,
    debt_to_market_cap: 0.2,
    cash_to_market_cap: 0.1,
    receivables_to_market_cap: 0.1,
    debt_to_assets: 0.31,
    cash_to_assets: 0.05,
    receivables_cash_to_assets: 0.2,
    non_permissible_income_share: 0.01,
    market_cap: 1e9,
    avg_market_cap_24m: 1e9,
    avg_market_cap_36m: 1e9,
    filing_ref: `sample:v1:${market}:${ticker}:2025-09-30`,
    period_end: '2025-09-30',
    price_date: date,
    result_json: JSON.stringify({ synthetic: true }),
    synthetic: true,
    data_source: 'sample',
    ...extra,
  };
}
