import { listValue } from '@duckdb/node-api';
import type { ServingRow, ServingStore } from '../serving/serving-types.ts';
import { withDuckDB } from './duckdb.ts';
import { scanTableFiles } from './lake-files.ts';
import { SNAPSHOT_FRAMEWORKS, SNAPSHOT_RATIOS } from './lake-schemas.ts';
import { rawSql, readSql, sql, sqlIdent } from './sql.ts';

/** One (market, ticker, day) where the store and the lake disagree. */
export interface ServingMismatch {
  market: string;
  ticker: string;
  snapshotDate: string;
  /** What the lake's newest screen of that day says, and the store's (null: none). */
  lake: string | null;
  store: string | null;
}

export interface ServingCheckResult {
  /** The (market, day) pairs compared, and the snapshots in them. */
  days: Array<{ market: string; snapshotDate: string }>;
  snapshotsCompared: number;
  mismatches: ServingMismatch[];
}

const HIVE_TYPES = rawSql(`{'market': 'VARCHAR', 'year': 'INTEGER'}`);

/** What a row says, in one comparable line: screen time, source, statuses, ratios, provenance, result. */
function summary(row: ServingRow, result: string): string {
  const statuses = SNAPSHOT_FRAMEWORKS.map((id) => row.statuses[id]).join(',');
  const ratios = SNAPSHOT_RATIOS.map((r) => row.ratios[r] ?? 'null').join(',');
  return `${row.screenedAt} ${row.source} [${statuses}] [${ratios}] ${row.synthetic ? 'synthetic' : 'real'} ${row.dataSource} ${result}`;
}

/**
 * Compares the serving store with the lake (the source of truth) on a sample of days: for each
 * (market, day) drawn, every ticker's newest screen of that day in the lake against the store's
 * row and stored result, and any row the store holds that the lake does not
 * (`faithscreen serving check`). The newest and the oldest day of each market are always in the
 * sample; `days` more are drawn at random.
 */
export async function checkServingAgainstLake(dataDir: string, store: ServingStore, days = 8): Promise<ServingCheckResult> {
  const files = [...(await scanTableFiles(dataDir, 'snapshots')).keys()];
  if (files.length === 0) return { days: [], snapshotsCompared: 0, mismatches: [] };
  const from = sql`read_parquet(${listValue(files)}, hive_partitioning = true, union_by_name = true, hive_types = ${HIVE_TYPES})`;
  return withDuckDB(':memory:', { threads: 1 }, async (connection) => {
    const allDays = (
      await readSql(
        connection,
        sql`SELECT DISTINCT CAST(market AS VARCHAR) AS market, strftime(CAST(snapshot_date AS DATE), '%Y-%m-%d') AS day FROM ${from} ORDER BY 1, 2`,
      )
    ).getRowObjectsJS();
    const dayRows = sampleDays(allDays as Array<{ market: string; day: string }>, days);
    const statusColumns = SNAPSHOT_FRAMEWORKS.map((id) => `${sqlIdent(`${id}_status`)} AS ${sqlIdent(id)}`).join(', ');
    const ratioColumns = SNAPSHOT_RATIOS.map((r) => `CAST(${sqlIdent(r)} AS DOUBLE) AS ${sqlIdent(r)}`).join(', ');
    const mismatches: ServingMismatch[] = [];
    let compared = 0;
    const checked: ServingCheckResult['days'] = [];
    for (const { market, day } of dayRows) {
      const snapshotDate = String(day);
      checked.push({ market: String(market), snapshotDate });
      const lakeRows = (
        await readSql(
          connection,
          sql`SELECT ticker, strftime(CAST(screened_at AS TIMESTAMP), '%Y-%m-%dT%H:%M:%S.%g') AS screened_at, source,
                     ${rawSql(statusColumns)}, ${rawSql(ratioColumns)}, coalesce(synthetic, false) AS synthetic,
                     coalesce(data_source, 'unknown') AS data_source, result_json
              FROM ${from} WHERE market = ${String(market)} AND CAST(snapshot_date AS DATE) = CAST(${snapshotDate} AS DATE)
              QUALIFY row_number() OVER (PARTITION BY ticker ORDER BY screened_at DESC) = 1`,
        )
      ).getRowObjectsJS();
      const stored = new Map((await store.marketOn(String(market), snapshotDate)).map((row) => [row.ticker, row]));
      const results = await store.results([...stored.values()]);
      const storedResult = new Map([...stored.keys()].map((ticker, i) => [ticker, results[i]?.toString('utf8') ?? '']));
      for (const lake of lakeRows) {
        compared += 1;
        const ticker = String(lake.ticker);
        const lakeRow: ServingRow = {
          market: String(market),
          ticker,
          snapshotDate,
          screenedAt: String(lake.screened_at),
          source: String(lake.source),
          statuses: Object.fromEntries(SNAPSHOT_FRAMEWORKS.map((id) => [id, lake[id]])) as ServingRow['statuses'],
          ratios: Object.fromEntries(SNAPSHOT_RATIOS.map((r) => [r, lake[r] === null ? null : Number(lake[r])])) as ServingRow['ratios'],
          synthetic: lake.synthetic === true,
          dataSource: String(lake.data_source),
        };
        const expected = summary(lakeRow, String(lake.result_json));
        const found = stored.get(ticker);
        const actual = found === undefined ? null : summary(found, storedResult.get(ticker) ?? '');
        if (actual !== expected) mismatches.push({ market: String(market), ticker, snapshotDate, lake: expected, store: actual });
        stored.delete(ticker);
      }
      for (const extra of stored.values())
        mismatches.push({ market: extra.market, ticker: extra.ticker, snapshotDate, lake: null, store: summary(extra, '') });
    }
    return { days: checked, snapshotsCompared: compared, mismatches };
  });
}

/** Each market's first and last day, and `extra` more drawn at random. */
function sampleDays(all: Array<{ market: string; day: string }>, extra: number): Array<{ market: string; day: string }> {
  const picked = new Set<number>();
  all.forEach((row, i) => {
    if (i === 0 || all[i - 1]!.market !== row.market || i === all.length - 1 || all[i + 1]!.market !== row.market) picked.add(i);
  });
  const target = Math.min(all.length, picked.size + extra);
  while (picked.size < target) picked.add(Math.floor(Math.random() * all.length));
  return [...picked].sort((a, b) => a - b).map((i) => all[i]!);
}
