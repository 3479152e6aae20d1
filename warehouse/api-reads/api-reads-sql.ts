import path from 'node:path';
import { listValue } from '@duckdb/node-api';
import { STATUS_CODES } from './api-reads-store.ts';
import { lakeRoot } from '../lake-paths.ts';
import { readTableSql } from '../lake-sql.ts';
import { SEED_PARTITION, SNAPSHOT_FRAMEWORKS, SNAPSHOT_RATIOS } from '../lake-schemas.ts';
import { inlineSql, joinSql, rawSql, sql, sqlIdent, sqlValueList, type Sql } from '../sql.ts';

/** Every SQL statement the API's reads run. Values reach DuckDB as bound parameters. */

const SNAPSHOT_HIVE_TYPES = rawSql(`{'market': 'VARCHAR', 'year': 'INTEGER'}`);

/**
 * The code's own status names as literals in one fixed expression: the same text every query, so
 * nothing here varies per request and 40 constants are not bound as parameters each time.
 */
function statusCodeSql(column: string): string {
  const cases = joinSql(
    STATUS_CODES.map((status, code) => sql`WHEN ${status} THEN ${code}`),
    ' ',
  );
  return `(CASE ${sqlIdent(column)} ${inlineSql(cases)} ELSE ${STATUS_CODES.indexOf('insufficient_data')} END)`;
}

/** All ten statuses packed 2 bits each, in `SNAPSHOT_FRAMEWORKS` order. */
const STATUS_BITS_SQL = rawSql(
  `(${SNAPSHOT_FRAMEWORKS.map((id, i) => `${statusCodeSql(`${id}_status`)} * ${4 ** i}`).join(' + ')})::INTEGER`,
);

const RATIO_COLUMNS_SQL = rawSql(SNAPSHOT_RATIOS.map((r) => `CAST(${sqlIdent(r)} AS DOUBLE) AS ${sqlIdent(r)}`).join(', '));

/** Column order of `snapshotIndexSql` (the loader reads by position). */
export const INDEX_COLUMNS = [
  'market',
  'ticker',
  'day',
  'at_ms',
  'bits',
  ...SNAPSHOT_RATIOS,
  'source',
  'data_source',
  'synthetic',
  'file',
] as const;

/** The index columns of the snapshots in `files` (absolute Parquet paths), without `result_json`; `where` filters the stored columns. */
export function snapshotIndexSql(files: readonly string[], where?: Sql): Sql {
  return sql`
    SELECT CAST(market AS VARCHAR) AS market, ticker,
           (CAST(snapshot_date AS DATE) - DATE '1970-01-01')::INTEGER AS day,
           epoch_ms(CAST(screened_at AS TIMESTAMP))::DOUBLE AS at_ms,
           ${STATUS_BITS_SQL} AS bits,
           ${RATIO_COLUMNS_SQL},
           source, coalesce(data_source, 'unknown') AS data_source, coalesce(synthetic, false) AS synthetic, filename AS file
    FROM read_parquet(${listValue(files)}, hive_partitioning = true, union_by_name = true, filename = true, hive_types = ${SNAPSHOT_HIVE_TYPES})
    ${where === undefined ? rawSql('') : sql`WHERE ${where}`}`;
}

/**
 * A snapshot's (snapshot_date, screened_at) as one BIGINT that orders as the pair does: the day
 * number above bit 42, `screened_at` in epoch ms below (2^42 ms reaches the year 2109). An
 * integer `max`/`arg_max` runs about twice as fast as one over a struct of the two.
 */
const NEWEST_KEY_SQL = rawSql(
  `(((CAST(snapshot_date AS DATE) - DATE '1970-01-01')::BIGINT << 42) + epoch_ms(CAST(screened_at AS TIMESTAMP)))`,
);
const KEY_MS_MASK = 2 ** 42 - 1;

/**
 * Each (market, ticker)'s newest snapshot in `files` — by (snapshot_date, screened_at) — with the
 * file holding it and its first day, reading only the key columns of every row.
 */
export function currentPickSql(files: readonly string[]): Sql {
  return sql`
    SELECT CAST(market AS VARCHAR) AS market, ticker, arg_max(filename, newest_key) AS file, max(newest_key) AS newest,
           (min(CAST(snapshot_date AS DATE)) - DATE '1970-01-01')::INTEGER AS first_day
    FROM (SELECT market, ticker, filename, snapshot_date, ${NEWEST_KEY_SQL} AS newest_key
          FROM read_parquet(${listValue(files)}, hive_partitioning = true, union_by_name = true, filename = true, hive_types = ${SNAPSHOT_HIVE_TYPES}))
    GROUP BY ALL`;
}

/** The index columns of the rows `picks` (a table made by `currentPickSql`) names, plus `first_day`. */
export function currentRowsSql(picks: string, files: readonly string[]): Sql {
  return sql`
    SELECT i.*, p.first_day
    FROM (${snapshotIndexSql(files)}) i
    JOIN ${rawSql(sqlIdent(picks))} p ON i.file = p.file AND i.market = p.market AND i.ticker = p.ticker
     AND i.day = (p.newest >> 42)::INTEGER AND i.at_ms = (p.newest & ${rawSql(String(KEY_MS_MASK))})::DOUBLE
    QUALIFY row_number() OVER (PARTITION BY i.market, i.ticker) = 1`;
}

/**
 * `result_json` of every snapshot of `tickers` in `files` (a path or a glob), newest run first.
 * One placeholder per ticker: DuckDB plans the bound list as constants, so the Parquet reader
 * prunes row groups by their ticker statistics (files are sorted by ticker).
 */
export function resultJsonBatchSql(files: string, tickers: readonly string[]): Sql {
  return sql`
    SELECT ticker, (CAST(snapshot_date AS DATE) - DATE '1970-01-01')::INTEGER AS day,
           epoch_ms(CAST(screened_at AS TIMESTAMP))::DOUBLE AS at_ms, result_json
    FROM read_parquet(${files}, union_by_name = true)
    WHERE ticker IN ${sqlValueList(tickers)}
    ORDER BY run_id DESC`;
}

/** Folder of one (market, year) partition of the snapshots table. */
export function snapshotPartitionDir(dataDir: string, market: string, year: string): string {
  return path.join(lakeRoot(dataDir), 'snapshots', `market=${market}`, `year=${year}`);
}

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
