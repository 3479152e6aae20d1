import type { DuckDBConnection } from '@duckdb/node-api';
import { lakeRoot } from './lake-paths.ts';
import { readTableSql } from './lake-sql.ts';
import { SNAPSHOT_FRAMEWORKS } from './lake-schemas.ts';
import { statusColumn, type SnapshotFramework, type SnapshotStatus } from './snapshot-schema.ts';

/** One ticker whose verdicts a screening run changed: the run's snapshot against the one it superseded. */
export interface RunVerdictChange {
  market: string;
  ticker: string;
  snapshotDate: string;
  screenedAt: string;
  source: string;
  synthetic: boolean;
  previous: { snapshotDate: string; screenedAt: string; runId: string };
  /** Only the frameworks whose status differs. */
  changes: Array<{ framework: SnapshotFramework; from: SnapshotStatus; to: SnapshotStatus }>;
}

const STATUS_COLUMNS = SNAPSHOT_FRAMEWORKS.map(statusColumn);

/**
 * The verdict changes `runId` published in one market (optionally only some tickers): for each
 * ticker whose newest snapshot is the run's, the statuses that differ from the snapshot it
 * superseded, ordered as the API orders snapshots (day, then screening time, then run). A
 * ticker screened for the first time has nothing to differ from; a run whose snapshot is not
 * the newest (a backfill of past days) changed nobody's current verdict.
 */
export async function findRunVerdictChanges(
  connection: DuckDBConnection,
  dataDir: string,
  options: { runId: string; market: string; tickers: readonly string[] | null },
): Promise<RunVerdictChange[]> {
  if (options.tickers !== null && options.tickers.length === 0) return [];
  const tickerFilter = options.tickers === null ? '' : `AND ticker IN (${options.tickers.map(() => '?').join(', ')})`;
  const result = await connection.runAndReadAll(
    `WITH ranked AS (
       SELECT ticker, strftime(snapshot_date, '%Y-%m-%d') AS snapshot_date, strftime(screened_at, '%Y-%m-%dT%H:%M:%S.%g') AS screened_at,
              run_id, source, synthetic, ${STATUS_COLUMNS.join(', ')},
              row_number() OVER (PARTITION BY ticker ORDER BY snapshot_date DESC, screened_at DESC, run_id DESC) AS newest
       FROM ${readTableSql(lakeRoot(dataDir), 'snapshots', options.market)}
       WHERE market = ? ${tickerFilter}
     )
     SELECT * FROM ranked
     WHERE newest <= 2 AND ticker IN (SELECT ticker FROM ranked WHERE newest = 1 AND run_id = ?)
     ORDER BY ticker, newest`,
    [options.market, ...(options.tickers ?? []), options.runId],
  );
  const rows = result.getRowObjectsJS() as Array<Record<string, unknown>>;
  const changes: RunVerdictChange[] = [];
  for (let i = 0; i + 1 < rows.length; i += 1) {
    const current = rows[i]!;
    const previous = rows[i + 1]!;
    if (Number(current.newest) !== 1 || previous.ticker !== current.ticker) continue;
    const differing = SNAPSHOT_FRAMEWORKS.filter((id) => current[statusColumn(id)] !== previous[statusColumn(id)]).map((framework) => ({
      framework,
      from: previous[statusColumn(framework)] as SnapshotStatus,
      to: current[statusColumn(framework)] as SnapshotStatus,
    }));
    if (differing.length === 0) continue;
    changes.push({
      market: options.market,
      ticker: String(current.ticker),
      snapshotDate: String(current.snapshot_date),
      screenedAt: String(current.screened_at),
      source: String(current.source),
      synthetic: Boolean(current.synthetic),
      previous: { snapshotDate: String(previous.snapshot_date), screenedAt: String(previous.screened_at), runId: String(previous.run_id) },
      changes: differing,
    });
  }
  return changes;
}
