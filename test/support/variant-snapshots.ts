import type { SnapshotRow } from '../../warehouse/snapshot-schema.ts';
import { SNAPSHOT_STATUSES, syntheticSnapshotRow } from './synthetic-snapshots.ts';

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
  return syntheticSnapshotRow({
    market,
    ticker,
    date,
    screenedAt,
    runId: `${runPrefix}-${variant}`,
    resultJson: JSON.stringify({ synthetic: true, variant }),
    status: (i) => SNAPSHOT_STATUSES[(variant + i + ticker.length) % 4]!,
    ratio: (i) => ((variant * 7 + i) % 100) / 100,
  });
}
