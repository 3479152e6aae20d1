import type { DuckDBConnection } from '@duckdb/node-api';
import { lakeRoot } from './lake-paths.ts';
import { readTableSql } from './lake-sql.ts';
import { joinSql, rawSql, readSql, sql, sqlDate, sqlValueList, type Sql } from './sql.ts';

/** Small reads of the lake the pipelines and the API need besides screening inputs. */

export interface ListingCount {
  market: string;
  count: number;
}

const listedBy = (date: string): Sql => sql`(listed_on IS NULL OR listed_on <= ${sqlDate(date)})`;

/** Listings per market (distinct tickers) listed on or before `date` (`YYYY-MM-DD`), in market-key order; optionally one kind. */
export async function countListings(
  connection: DuckDBConnection,
  dataDir: string,
  options: { date: string; markets?: readonly string[] | null; kind?: 'stock' | 'fund' },
): Promise<ListingCount[]> {
  const markets = options.markets && options.markets.length > 0 ? sql`AND market IN ${sqlValueList(options.markets)}` : rawSql('');
  const kind = options.kind ? sql`AND kind = ${options.kind}` : rawSql('');
  const result = await readSql(
    connection,
    sql`SELECT market, count(DISTINCT ticker)::INTEGER AS n FROM ${readTableSql(lakeRoot(dataDir), 'listings')}
     WHERE ${listedBy(options.date)} ${markets} ${kind} GROUP BY market ORDER BY market`,
  );
  return result.getRowObjectsJS().map((r) => ({ market: String(r.market), count: Number(r.n) }));
}

/**
 * Keys `ticker|YYYY-MM-DD` of snapshots (of any source) already published in a market for the
 * given tickers and dates (a resumed backfill skips them).
 */
export async function listPublishedSnapshotKeys(
  connection: DuckDBConnection,
  dataDir: string,
  options: { market: string; tickers: readonly string[]; dates: readonly string[] },
): Promise<Set<string>> {
  if (options.tickers.length === 0 || options.dates.length === 0) return new Set();
  const years = [...new Set(options.dates.map((d) => Number(d.slice(0, 4))))];
  const dates = options.dates.map(sqlDate);
  const result = await readSql(
    connection,
    // The whole table's glob (its seed file always matches) pruned by the market partition: a
    // market with no snapshot yet must answer "none", not fail for want of files.
    sql`SELECT DISTINCT ticker, strftime(snapshot_date, '%Y-%m-%d') AS d FROM ${readTableSql(lakeRoot(dataDir), 'snapshots')}
     WHERE market = ${options.market} AND year IN ${sqlValueList(years)}
       AND ticker IN ${sqlValueList(options.tickers)} AND snapshot_date IN (${joinSql(dates, ', ')})`,
  );
  return new Set(result.getRowObjectsJS().map((r) => `${String(r.ticker)}|${String(r.d)}`));
}

/** A slice of one market's stock listings in ticker order (what a pipeline chunk screens). */
export interface ListingSlice {
  market: string;
  offset: number;
  limit: number;
}

/** Tickers of a slice of the stocks listed by `date`, in ticker order: a slice names the same tickers while listings stay put. */
export async function sliceStockTickers(
  connection: DuckDBConnection,
  dataDir: string,
  slice: ListingSlice,
  date: string,
): Promise<string[]> {
  const result = await readSql(
    connection,
    sql`SELECT DISTINCT ticker FROM ${readTableSql(lakeRoot(dataDir), 'listings')}
     WHERE market = ${slice.market} AND kind = 'stock' AND ${listedBy(date)}
     ORDER BY ticker LIMIT ${Math.trunc(slice.limit)} OFFSET ${Math.trunc(slice.offset)}`,
  );
  return result.getRowObjectsJS().map((r) => String(r.ticker));
}

/** Published snapshots in the lake (0 for a new warehouse). */
export async function countSnapshots(connection: DuckDBConnection, dataDir: string): Promise<number> {
  const result = await readSql(connection, sql`SELECT count(*)::INTEGER AS n FROM ${readTableSql(lakeRoot(dataDir), 'snapshots')}`);
  return Number(result.getRowObjectsJS()[0]?.n ?? 0);
}
