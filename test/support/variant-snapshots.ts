import { SNAPSHOT_FRAMEWORKS, SNAPSHOT_RATIOS } from '../../warehouse/lake-schemas.ts';
import { eraOf, type SnapshotRow, type SnapshotStatus } from '../../warehouse/snapshot-schema.ts';

const STATUSES: SnapshotStatus[] = ['compliant', 'non_compliant', 'questionable', 'insufficient_data'];

/**
 * A synthetic snapshot row whose statuses and ratios follow `variant`, so two rows of one
 * ticker with different variants differ in what the API serves; `runPrefix` names the test.
 */
export function variantSnapshotRow(
  runPrefix: string,
  market: string,
  ticker: string,
  date: string,
  screenedAt: string,
  variant: number,
): SnapshotRow {
  const out: Record<string, unknown> = {
    market,
    ticker,
    snapshot_date: date,
    screened_at: screenedAt,
    source: 'backfill',
    run_id: `${runPrefix}-${variant}`,
    era: eraOf(date),
    engine_version: 'test',
    filing_ref: null,
    period_end: null,
    price_date: date,
    result_json: JSON.stringify({ synthetic: true, variant }),
    synthetic: true,
    data_source: 'sample',
  };
  SNAPSHOT_FRAMEWORKS.forEach((id, i) => (out[`${id}_status`] = STATUSES[(variant + i + ticker.length) % 4]));
  SNAPSHOT_RATIOS.forEach((r, i) => (out[r] = ((variant * 7 + i) % 100) / 100));
  return out as SnapshotRow;
}
