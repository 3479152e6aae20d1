import type { DuckDBConnection } from '@duckdb/node-api';
import { rawSql, sql, sqlIdent, type Sql } from '../../warehouse/sql.ts';
import { findTickerFiles, loadTickerFiles } from './feed-ticker-files.ts';
import { columnChecksSql, ratioSql, reportChecks, type FeedError } from './feed-validation.ts';

/**
 * Yahoo-style split-event files of a delivery (docs/data/feed-contract.md, "Splits"):
 * `split-events/<market>/<TICKER>.csv` with `Date,Stock Splits`, the ratio as "4:1" or 4.
 */

export const SPLIT_EVENTS_DIR = 'split-events';

const RAW = sqlIdent('feed_split_events_raw');

/** The rows of split events and the keys that must not repeat, as SQL over temp tables of the connection. */
export interface SplitEvents {
  /** `splits` rows, partition column `market` first. */
  rows: Sql;
  /** `file, line, market, ticker, ex_date` (all text) of every event. */
  keys: Sql;
}

/**
 * Validates the delivery's split-event files, reporting every error through `add`; undefined
 * when the delivery has no `split-events` folder.
 */
export async function loadSplitEvents(
  connection: DuckDBConnection,
  folder: string,
  add: (e: FeedError) => void,
): Promise<SplitEvents | undefined> {
  const found = await findTickerFiles(folder, SPLIT_EVENTS_DIR, [], add);
  if (!found) return undefined;
  await loadTickerFiles(
    connection,
    found.files,
    RAW,
    ['Date', 'Stock Splits'],
    { name: 'split-event file', header: 'Date,Stock Splits' },
    add,
  );
  const columns = [
    { name: 'Date', kind: 'date', required: true, doc: 'ex-date' },
    { name: 'Stock Splits', kind: 'ratio', required: true, doc: 'new:old' },
  ] as const;
  await reportChecks(connection, columnChecksSql(RAW, columns, new Set(['Date', 'Stock Splits']), 'file, line'), add);
  return {
    rows: sql`SELECT market, ticker, CAST(trim("Date") AS DATE) AS ex_date, ${ratioSql(rawSql(`trim("Stock Splits")`))} AS ratio,
        'feed:' || file || ':' || line AS source_ref, 'feed' AS data_source, false AS synthetic FROM ${rawSql(RAW)}`,
    keys: rawSql(`SELECT file, line, market, ticker, trim("Date") AS ex_date FROM ${RAW}`),
  };
}
