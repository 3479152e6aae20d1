import type { DuckDBConnection } from '@duckdb/node-api';
import { lakeRoot } from './lake-paths.ts';
import { readTableSql } from './lake-sql.ts';
import { SNAPSHOT_FRAMEWORKS } from './lake-schemas.ts';
import { rawSql, readSql, sql, sqlValueList } from './sql.ts';
import { statusColumn, type SnapshotFramework, type SnapshotStatus } from './snapshot-schema.ts';

/** One ticker whose verdicts a screening run changed: the run's snapshot against the one just before it. */
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
 * ticker the run screened, the statuses of the run's snapshot that differ from the snapshot just
 * before it, in the order the API reads snapshots (day, then screening time, then run). Later
 * snapshots do not hide the run's change, so deliveries found late still find it. A ticker
 * screened for the first time has nothing to differ from.
 */
export async function findRunVerdictChanges(
  connection: DuckDBConnection,
  dataDir: string,
  options: { runId: string; market: string; tickers: readonly string[] | null },
): Promise<RunVerdictChange[]> {
  if (options.tickers !== null && options.tickers.length === 0) return [];
  const tickerFilter = options.tickers === null ? rawSql('') : sql`AND ticker IN ${sqlValueList(options.tickers)}`;
  const result = await readSql(
    connection,
    sql`WITH ranked AS (
       SELECT ticker, strftime(snapshot_date, '%Y-%m-%d') AS snapshot_date,
              strftime(screened_at, '%Y-%m-%dT%H:%M:%S.%g') AS screened_at,
              run_id, source, synthetic, ${rawSql(STATUS_COLUMNS.join(', '))},
              row_number() OVER (PARTITION BY ticker ORDER BY snapshot_date DESC, screened_at DESC, run_id DESC) AS position
       FROM ${readTableSql(lakeRoot(dataDir), 'snapshots', options.market)}
       WHERE market = ${options.market} ${tickerFilter}
     ), run AS (
       SELECT ticker, min(position) AS position FROM ranked WHERE run_id = ${options.runId} GROUP BY ticker
     )
     SELECT ranked.*, ranked.position = run.position AS is_run
     FROM ranked JOIN run ON ranked.ticker = run.ticker AND ranked.position IN (run.position, run.position + 1)
     ORDER BY ranked.ticker, ranked.position`,
  );
  const rows = result.getRowObjectsJS() as Array<Record<string, unknown>>;
  const changes: RunVerdictChange[] = [];
  for (let i = 0; i + 1 < rows.length; i += 1) {
    const current = rows[i]!;
    const previous = rows[i + 1]!;
    if (current.is_run !== true || previous.ticker !== current.ticker) continue;
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
