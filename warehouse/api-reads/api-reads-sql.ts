import path from 'node:path';
import { STATUS_CODES } from './api-reads-store.ts';
import { lakeRoot } from '../lake-paths.ts';
import { readTableSql } from '../lake-sql.ts';
import { SEED_PARTITION, SNAPSHOT_FRAMEWORKS, SNAPSHOT_RATIOS } from '../lake-schemas.ts';
import { sqlIdent, sqlString, sqlStringList } from '../sql.ts';

/** Every SQL string the API's reads run. Values reach DuckDB as bound parameters or quoted literals. */

const SNAPSHOT_HIVE_TYPES = `{'market': 'VARCHAR', 'year': 'INTEGER'}`;

function statusCodeSql(column: string): string {
  const cases = STATUS_CODES.map((status, code) => `WHEN ${sqlString(status)} THEN ${code}`).join(' ');
  return `(CASE ${sqlIdent(column)} ${cases} ELSE ${STATUS_CODES.indexOf('insufficient_data')} END)`;
}

/** All ten statuses packed 2 bits each, in `SNAPSHOT_FRAMEWORKS` order. */
function statusBitsSql(): string {
  return `(${SNAPSHOT_FRAMEWORKS.map((id, i) => `${statusCodeSql(`${id}_status`)} * ${4 ** i}`).join(' + ')})::INTEGER`;
}

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
export function snapshotIndexSql(files: readonly string[], where = ''): string {
  const list = `[${files.map(sqlString).join(', ')}]`;
  return `
    SELECT CAST(market AS VARCHAR) AS market, ticker,
           (CAST(snapshot_date AS DATE) - DATE '1970-01-01')::INTEGER AS day,
           epoch_ms(CAST(screened_at AS TIMESTAMP))::DOUBLE AS at_ms,
           ${statusBitsSql()} AS bits,
           ${SNAPSHOT_RATIOS.map((r) => `CAST(${sqlIdent(r)} AS DOUBLE) AS ${sqlIdent(r)}`).join(', ')},
           source, coalesce(data_source, 'unknown') AS data_source, coalesce(synthetic, false) AS synthetic, filename AS file
    FROM read_parquet(${list}, hive_partitioning = true, union_by_name = true, filename = true, hive_types = ${SNAPSHOT_HIVE_TYPES})
    ${where === '' ? '' : `WHERE ${where}`}`;
}

/**
 * Each (market, ticker)'s newest snapshot in `files` — by (snapshot_date, screened_at) — with the
 * file holding it and its first day, reading only the key columns of every row.
 */
export function currentPickSql(files: readonly string[]): string {
  const list = `[${files.map(sqlString).join(', ')}]`;
  return `
    SELECT CAST(market AS VARCHAR) AS market, ticker,
           arg_max(filename, struct_pack(d := CAST(snapshot_date AS DATE), a := CAST(screened_at AS TIMESTAMP))) AS file,
           max(struct_pack(d := CAST(snapshot_date AS DATE), a := CAST(screened_at AS TIMESTAMP))) AS newest,
           (min(CAST(snapshot_date AS DATE)) - DATE '1970-01-01')::INTEGER AS first_day
    FROM read_parquet(${list}, hive_partitioning = true, union_by_name = true, filename = true, hive_types = ${SNAPSHOT_HIVE_TYPES})
    GROUP BY ALL`;
}

/** The index columns of the rows `picks` (a table made by `currentPickSql`) names, plus `first_day`. */
export function currentRowsSql(picks: string, files: readonly string[]): string {
  return `
    SELECT i.*, p.first_day
    FROM (${snapshotIndexSql(files)}) i
    JOIN ${sqlIdent(picks)} p ON i.file = p.file AND i.market = p.market AND i.ticker = p.ticker
     AND i.day = (p.newest.d - DATE '1970-01-01')::INTEGER AND i.at_ms = epoch_ms(p.newest.a)::DOUBLE
    QUALIFY row_number() OVER (PARTITION BY i.market, i.ticker) = 1`;
}

/**
 * The newest snapshot of one ticker in `files` dated on or before `date` (or exactly on it). The
 * ticker is a literal so the Parquet reader skips row groups by their ticker statistics.
 */
export function historyRowSql(files: readonly string[], ticker: string, date: string, exactDay: boolean): string {
  return `
    SELECT * FROM (${snapshotIndexSql(files, `ticker = ${sqlString(ticker)} AND CAST(snapshot_date AS DATE) ${exactDay ? '=' : '<='} DATE ${sqlString(date)}`)})
    ORDER BY day DESC, at_ms DESC LIMIT 1`;
}

/**
 * Every snapshot of one ticker in `files`, the newest of each day, oldest first. Parameter `$1`
 * is the ticker: DuckDB pushes it into the Parquet reader as a filter, so row groups of other
 * tickers are skipped by their statistics as with a literal.
 */
export function tickerHistorySql(files: readonly string[]): string {
  return `
    SELECT * FROM (${snapshotIndexSql(files, 'ticker = $1')})
    QUALIFY row_number() OVER (PARTITION BY day ORDER BY at_ms DESC) = 1
    ORDER BY day`;
}

/** Each ticker's newest snapshot dated exactly `date` in `files`, in ticker order. */
export function dayRowsSql(files: readonly string[], date: string): string {
  return `
    SELECT * FROM (${snapshotIndexSql(files, `CAST(snapshot_date AS DATE) = DATE ${sqlString(date)}`)})
    QUALIFY row_number() OVER (PARTITION BY ticker ORDER BY at_ms DESC) = 1
    ORDER BY ticker`;
}

/**
 * `result_json` of every snapshot of `tickers` in `files` (a path or a glob), newest run first.
 * Tickers are literals, not parameters, so the Parquet reader prunes row groups by their
 * ticker statistics (files are sorted by ticker).
 */
export function resultJsonBatchSql(files: string, tickers: readonly string[]): string {
  return `
    SELECT ticker, (CAST(snapshot_date AS DATE) - DATE '1970-01-01')::INTEGER AS day,
           epoch_ms(CAST(screened_at AS TIMESTAMP))::DOUBLE AS at_ms, result_json
    FROM read_parquet(${sqlString(files)}, union_by_name = true)
    WHERE ticker IN ${sqlStringList(tickers)}
    ORDER BY run_id DESC`;
}

/** Folder of one (market, year) partition of the snapshots table. */
export function snapshotPartitionDir(dataDir: string, market: string, year: string): string {
  return path.join(lakeRoot(dataDir), 'snapshots', `market=${market}`, `year=${year}`);
}

/** Every listing, one row per (market, ticker). */
export function listingsSql(dataDir: string): string {
  return `
    SELECT CAST(market AS VARCHAR) AS market, ticker, name,
           coalesce(exchange_mic, '') AS exchange, coalesce(kind, 'stock') AS kind, coalesce(currency, '') AS currency
    FROM ${readTableSql(lakeRoot(dataDir), 'listings')}
    WHERE market <> ${sqlString(SEED_PARTITION)} AND ticker IS NOT NULL
    -- a vendor feed beats EDGAR beats the sample, as in the screening-input loader
    QUALIFY row_number() OVER (PARTITION BY market, ticker ORDER BY CASE data_source WHEN 'feed' THEN 0 WHEN 'edgar' THEN 1 ELSE 2 END) = 1
    ORDER BY market, ticker`;
}

/** A fund's holdings on its latest report date, heaviest first; parameters: fund ticker, limit. */
export function fundHoldingsSql(dataDir: string, fundMarket: string): string {
  return `
    WITH h AS (SELECT * FROM ${readTableSql(lakeRoot(dataDir), 'fund_holdings', fundMarket)} WHERE fund_ticker = $1),
         latest AS (SELECT max(as_of) AS d FROM h),
         picked AS (SELECT h.* FROM h, latest WHERE h.as_of = latest.d)
    SELECT strftime(as_of, '%Y-%m-%d') AS as_of, CAST(market AS VARCHAR) AS market, ticker, weight,
           (SELECT count(*) FROM picked)::INTEGER AS total
    FROM picked ORDER BY weight DESC, market, ticker LIMIT $2`;
}

/** Folder of one fund market's holdings partition. */
export function fundHoldingsDir(dataDir: string, fundMarket: string): string {
  return path.join(lakeRoot(dataDir), 'fund_holdings', `fund_market=${fundMarket}`);
}
