import type { DuckDBConnection } from '@duckdb/node-api';
import { lakeRoot } from './lake-paths.ts';
import { readTableSql } from './lake-sql.ts';
import { SEED_PARTITION } from './lake-schemas.ts';
import { sqlString, sqlStringList } from './sql.ts';

/** A slice of one market's stock listings in ticker order (what a pipeline chunk screens). */
export interface ListingSlice {
  market: string;
  offset: number;
  limit: number;
}

function listedOn(date: string): string {
  return `(listed_on IS NULL OR listed_on <= ${sqlString(date)}::DATE)`;
}

function marketFilter(markets: readonly string[] | null): string {
  return markets && markets.length > 0 ? `AND market IN ${sqlStringList(markets)}` : '';
}

/** Stock listings per market that were listed on `date` (`YYYY-MM-DD`), in market order. Funds are screened through their holdings. */
export async function listingCounts(
  connection: DuckDBConnection,
  dataDir: string,
  date: string,
  markets: readonly string[] | null,
): Promise<Array<{ market: string; count: number }>> {
  const sql = `
    SELECT market, count(DISTINCT ticker)::INTEGER AS n
    FROM ${readTableSql(lakeRoot(dataDir), 'listings')}
    WHERE market <> ${sqlString(SEED_PARTITION)} AND kind = 'stock' AND ${listedOn(date)} ${marketFilter(markets)}
    GROUP BY market ORDER BY market`;
  const rows = (await connection.runAndReadAll(sql)).getRowObjects();
  return rows.map((r) => ({ market: String(r.market), count: Number(r.n) }));
}

export interface SliceListing {
  ticker: string;
  /** First trading day (`YYYY-MM-DD`), or null when the source does not know it. */
  listedOn: string | null;
}

/** The listings of a slice, in ticker order: the same slice always names the same tickers while listings stay put. */
export async function sliceListings(connection: DuckDBConnection, dataDir: string, slice: ListingSlice, date: string): Promise<SliceListing[]> {
  const sql = `
    SELECT ticker, strftime(min(listed_on), '%Y-%m-%d') AS listed_on FROM ${readTableSql(lakeRoot(dataDir), 'listings', slice.market)}
    WHERE kind = 'stock' AND ${listedOn(date)}
    GROUP BY ticker ORDER BY ticker LIMIT ${Math.trunc(slice.limit)} OFFSET ${Math.trunc(slice.offset)}`;
  return (await connection.runAndReadAll(sql)).getRowObjects().map((r) => ({ ticker: String(r.ticker), listedOn: r.listed_on === null ? null : String(r.listed_on) }));
}

/** Keys `ticker|YYYY-MM-DD` of the snapshots of `source` already published for these tickers and dates. */
export async function publishedSnapshotKeys(
  connection: DuckDBConnection,
  dataDir: string,
  market: string,
  tickers: readonly string[],
  dates: readonly string[],
  source: string,
): Promise<Set<string>> {
  if (tickers.length === 0 || dates.length === 0) return new Set();
  const years = [...new Set(dates.map((d) => Number(d.slice(0, 4))))];
  const sql = `
    SELECT DISTINCT ticker, strftime(snapshot_date, '%Y-%m-%d') AS d
    FROM ${readTableSql(lakeRoot(dataDir), 'snapshots', market)}
    WHERE year IN (${years.join(', ')}) AND source = ${sqlString(source)}
      AND ticker IN ${sqlStringList(tickers)} AND snapshot_date IN (${dates.map((d) => `${sqlString(d)}::DATE`).join(', ')})`;
  const rows = (await connection.runAndReadAll(sql)).getRowObjects();
  return new Set(rows.map((r) => `${String(r.ticker)}|${String(r.d)}`));
}
