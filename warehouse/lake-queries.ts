import type { DuckDBConnection } from '@duckdb/node-api';
import { lakeRoot } from './lake-paths.ts';
import { readTableSql } from './lake-sql.ts';
import { sqlString, sqlStringList } from './sql.ts';

/** Small reads of the lake the pipelines and the API need besides screening inputs. */

export interface ListingCount {
  market: string;
  count: number;
}

/** Listings per market (distinct tickers) listed on or before `date` (`YYYY-MM-DD`), in market-key order. */
export async function countListings(connection: DuckDBConnection, dataDir: string, options: { date: string; markets?: readonly string[] | null }): Promise<ListingCount[]> {
  const markets = options.markets && options.markets.length > 0 ? `AND market IN ${sqlStringList(options.markets)}` : '';
  const result = await connection.runAndReadAll(
    `SELECT market, count(DISTINCT ticker)::INTEGER AS n FROM ${readTableSql(lakeRoot(dataDir), 'listings')}
     WHERE (listed_on IS NULL OR listed_on <= DATE ${sqlString(options.date)}) ${markets} GROUP BY market ORDER BY market`,
  );
  return result.getRowObjectsJS().map((r) => ({ market: String(r.market), count: Number(r.n) }));
}

/**
 * Keys `ticker|YYYY-MM-DD` of snapshots of `source` already published in a market for the
 * given tickers and dates (a resumed backfill skips them).
 */
export async function listPublishedSnapshotKeys(
  connection: DuckDBConnection,
  dataDir: string,
  options: { market: string; tickers: readonly string[]; dates: readonly string[]; source: string },
): Promise<Set<string>> {
  if (options.tickers.length === 0 || options.dates.length === 0) return new Set();
  const years = [...new Set(options.dates.map((d) => Number(d.slice(0, 4))))];
  const result = await connection.runAndReadAll(
    `SELECT DISTINCT ticker, strftime(snapshot_date, '%Y-%m-%d') AS d FROM ${readTableSql(lakeRoot(dataDir), 'snapshots', options.market)}
     WHERE year IN (${years.join(', ')}) AND source = ${sqlString(options.source)} AND ticker IN ${sqlStringList(options.tickers)}
       AND snapshot_date IN (${options.dates.map((d) => `DATE ${sqlString(d)}`).join(', ')})`,
  );
  return new Set(result.getRowObjectsJS().map((r) => `${String(r.ticker)}|${String(r.d)}`));
}
