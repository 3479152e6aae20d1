import path from 'node:path';
import { lakeRoot } from '../lake-paths.ts';
import { readTableSql } from '../lake-sql.ts';
import { SEED_PARTITION } from '../lake-schemas.ts';
import { sql, type Sql } from '../sql.ts';

/** The statements the API's reads run over the lake (listings, fund holdings). Values reach DuckDB as bound parameters. */

/** Every listing, one row per (market, ticker). */
export function listingsSql(dataDir: string): Sql {
  return sql`
    SELECT CAST(market AS VARCHAR) AS market, ticker, name,
           coalesce(exchange_mic, '') AS exchange, coalesce(kind, 'stock') AS kind, coalesce(currency, '') AS currency
    FROM ${readTableSql(lakeRoot(dataDir), 'listings')}
    WHERE market <> ${SEED_PARTITION} AND ticker IS NOT NULL
    -- a vendor feed beats EDGAR beats the sample, as in the screening-input loader
    QUALIFY row_number() OVER (PARTITION BY market, ticker ORDER BY CASE data_source WHEN 'feed' THEN 0 WHEN 'edgar' THEN 1 ELSE 2 END) = 1
    ORDER BY market, ticker`;
}

/** A fund's holdings on its latest report date, heaviest first, at most `limit`. */
export function fundHoldingsSql(dataDir: string, fundMarket: string, fundTicker: string, limit: number): Sql {
  return sql`
    WITH h AS (SELECT * FROM ${readTableSql(lakeRoot(dataDir), 'fund_holdings', fundMarket)} WHERE fund_ticker = ${fundTicker}),
         latest AS (SELECT max(as_of) AS d FROM h),
         picked AS (SELECT h.* FROM h, latest WHERE h.as_of = latest.d)
    SELECT strftime(as_of, '%Y-%m-%d') AS as_of, CAST(market AS VARCHAR) AS market, ticker, weight,
           (SELECT count(*) FROM picked)::INTEGER AS total
    FROM picked ORDER BY weight DESC, market, ticker LIMIT ${limit}`;
}

/** Folder of one fund market's holdings partition. */
export function fundHoldingsDir(dataDir: string, fundMarket: string): string {
  return path.join(lakeRoot(dataDir), 'fund_holdings', `fund_market=${fundMarket}`);
}
