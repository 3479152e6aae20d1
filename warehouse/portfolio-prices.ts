import { existsSync } from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { withDuckDB } from './duckdb.ts';
import { lakeRoot, type LakeTable } from './lake-paths.ts';
import { readTableSql } from './lake-sql.ts';
import { rawSql, readSql, sql, sqlDate, sqlValueList, type Sql } from './sql.ts';

/** How old a close may be to value a share count: the sample and many vendors hold month-end closes only. */
export const PORTFOLIO_PRICE_MAX_AGE_DAYS = 45;

/** A close on today's share basis (listing currency), with its trading date `YYYY-MM-DD`. */
export interface PortfolioPrice {
  close: number;
  date: string;
}

const SOURCE_RANK = `CASE data_source WHEN 'feed' THEN 0 WHEN 'edgar' THEN 1 ELSE 2 END`;

function tableRead(dataDir: string, table: LakeTable, market: string): Sql | null {
  const root = lakeRoot(dataDir);
  return existsSync(path.join(root, table, `market=${market}`)) ? readTableSql(root, table, market) : null;
}

/**
 * Each ticker's latest close on or before `asOf` (at most PORTFOLIO_PRICE_MAX_AGE_DAYS old),
 * divided by the splits since the close's basis so it prices a share count held on `asOf`.
 * Tickers without such a close are absent from the map.
 */
export async function loadLatestCloses(
  connection: DuckDBConnection,
  dataDir: string,
  market: string,
  tickers: readonly string[],
  asOf: string,
): Promise<Map<string, PortfolioPrice>> {
  const prices = tableRead(dataDir, 'prices', market);
  const found = new Map<string, PortfolioPrice>();
  if (prices === null || tickers.length === 0) return found;
  const splits = tableRead(dataDir, 'splits', market);
  const since = splits
    ? sql`coalesce((SELECT product(s.ratio) FROM ${splits} s WHERE s.ticker = p.ticker AND s.ex_date > p.basis AND s.ex_date <= ${sqlDate(asOf)}), 1)`
    : rawSql('1');
  const query = sql`
    WITH p AS (
      SELECT ticker, date, close, coalesce(split_adjusted_through, date) AS basis
      FROM ${prices}
      WHERE ticker IN ${sqlValueList(tickers)} AND close > 0 AND date <= ${sqlDate(asOf)}
        AND date > ${sqlDate(asOf)} - INTERVAL ${rawSql(String(PORTFOLIO_PRICE_MAX_AGE_DAYS))} DAY
      QUALIFY row_number() OVER (PARTITION BY ticker ORDER BY date DESC, ${rawSql(SOURCE_RANK)}) = 1
    )
    SELECT ticker, strftime(date, '%Y-%m-%d') AS date, close / ${since} AS close FROM p`;
  for (const row of (await readSql(connection, query)).getRowObjectsJS()) {
    found.set(String(row.ticker), { close: Number(row.close), date: String(row.date) });
  }
  return found;
}

/** Closes for lines of several markets, read on an in-memory DuckDB opened for this request only. */
export async function latestCloses(
  dataDir: string,
  lines: ReadonlyArray<{ market: string; ticker: string }>,
  asOf: string,
): Promise<Map<string, PortfolioPrice>> {
  const byMarket = new Map<string, string[]>();
  for (const { market, ticker } of lines) byMarket.set(market, [...(byMarket.get(market) ?? []), ticker]);
  return withDuckDB(':memory:', {}, async (connection) => {
    const all = new Map<string, PortfolioPrice>();
    for (const [market, tickers] of byMarket) {
      for (const [ticker, price] of await loadLatestCloses(connection, dataDir, market, tickers, asOf))
        all.set(`${market}:${ticker}`, price);
    }
    return all;
  });
}
