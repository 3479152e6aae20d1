import path from 'node:path';
import { SNAPSHOT_FRAMEWORKS, SNAPSHOT_RATIOS } from '../../warehouse/lake-schemas.ts';
import { eraOf, type SnapshotRow, type SnapshotStatus } from '../../warehouse/snapshot-schema.ts';
import { writeSnapshots } from '../../warehouse/snapshot-writer.ts';

/** Every status a framework can take, in a fixed order for picking one by number. */
export const SNAPSHOT_STATUSES: readonly SnapshotStatus[] = ['compliant', 'non_compliant', 'questionable', 'insufficient_data'];

/** What varies between synthetic snapshot rows; the rest is what a backfill of the sample source writes. */
export interface SyntheticSnapshot {
  market: string;
  ticker: string;
  date: string;
  screenedAt: string;
  runId: string;
  resultJson: string;
  /** Status of each framework, by its position in `SNAPSHOT_FRAMEWORKS`. */
  status: (frameworkIndex: number) => SnapshotStatus;
  /** Value of each ratio, by its position in `SNAPSHOT_RATIOS`. */
  ratio: (ratioIndex: number) => number | null;
  /** Default `backfill`. */
  source?: string;
  /** Default `sample`. */
  dataSource?: string;
  /** Default `test`. */
  engineVersion?: string;
}

/** A SYNTHETIC snapshot row (its `synthetic` column set), shaped as the snapshot writer takes it. */
export function syntheticSnapshotRow(s: SyntheticSnapshot): SnapshotRow {
  const out: Record<string, unknown> = {
    market: s.market,
    ticker: s.ticker,
    snapshot_date: s.date,
    screened_at: s.screenedAt,
    source: s.source ?? 'backfill',
    run_id: s.runId,
    era: eraOf(s.date),
    engine_version: s.engineVersion ?? 'test',
    filing_ref: null,
    period_end: null,
    price_date: s.date,
    result_json: s.resultJson,
    synthetic: true,
    data_source: s.dataSource ?? 'sample',
  };
  SNAPSHOT_FRAMEWORKS.forEach((id, i) => (out[`${id}_status`] = s.status(i)));
  SNAPSHOT_RATIOS.forEach((r, i) => (out[r] = s.ratio(i)));
  return out as SnapshotRow;
}

/** Statuses spread by a hash: two bits of it per framework. */
export function hashedStatuses(hash: number): (frameworkIndex: number) => SnapshotStatus {
  return (i) => SNAPSHOT_STATUSES[(hash >>> (2 * i)) & 3]!;
}

/**
 * Publishes one snapshot file of tickers T0…T{n-1} of market us screened on `date` (statuses
 * hashed from the ticker and the date, every ratio 0.1, an empty result); returns its absolute path.
 */
export async function publishTickerFile(dataDir: string, date: string, n: number, fileStem: string): Promise<string> {
  const rows = Array.from({ length: n }, (_, i) =>
    syntheticSnapshotRow({
      market: 'us',
      ticker: `T${i}`,
      date,
      screenedAt: `${date}T12:00:00.000Z`,
      runId: `run-${date}`,
      resultJson: '{}',
      status: hashedStatuses(i * 7919 + Number(date.replaceAll('-', ''))),
      ratio: () => 0.1,
    }),
  );
  const written = await writeSnapshots(dataDir, rows, { fileStem });
  return path.join(dataDir, written.files[0]!);
}
