import type { DuckDBConnection } from '@duckdb/node-api';
import { getMarket } from '../../common/markets.ts';
import { joinSql, rawSql, runSql, sql, sqlIdent, type Sql } from '../../warehouse/sql.ts';
import { AS_TRADED, type FeedColumn } from './feed-contract.ts';
import { loadRaw } from './feed-read.ts';
import { findTickerFiles, loadTickerFiles } from './feed-ticker-files.ts';
import { columnChecksSql, reportChecks, type FeedError } from './feed-validation.ts';

/**
 * Yahoo-style daily price files of a delivery (docs/data/feed-contract.md, "Daily price files"):
 * `prices-daily/<market>/<TICKER>.csv` with `Date,Open,High,Low,Close,Adj Close,Volume`, and an
 * optional `prices-daily/overrides.csv` setting currency and split basis per market or ticker.
 * `Close` is the close (split-adjusted by Yahoo, not dividend-adjusted); `Adj Close` is never read.
 */

export const DAILY_PRICES_DIR = 'prices-daily';
export const DAILY_OVERRIDES_FILE = 'overrides.csv';

/** Yahoo's marker for a day without prices: such a row is skipped. */
export const YAHOO_NO_VALUE = 'null';

export const DAILY_OVERRIDE_COLUMNS: readonly FeedColumn[] = [
  { name: 'market', kind: 'market', required: true, doc: "market key: the row applies to every file of the market (or only `ticker`'s)" },
  { name: 'ticker', kind: 'text', required: false, doc: 'ticker of one file (empty = every file of the market; a ticker row wins)' },
  { name: 'currency', kind: 'currency', required: false, doc: "ISO 4217 code of the closes (empty = the market's currency)" },
  {
    name: 'split_adjusted_through',
    kind: 'split_basis',
    required: false,
    doc: `the closes are adjusted for every split up to this date (empty = the file's last date), or '${AS_TRADED}'`,
  },
];

const RAW = sqlIdent('feed_daily_raw');
const FILES = sqlIdent('feed_daily_files');
const OVERRIDES_RAW = sqlIdent('feed_daily_overrides_raw');
const OVERRIDES = sqlIdent('feed_daily_overrides');
const BASIS = sqlIdent('feed_daily_basis');
const OVERRIDES_AT = `${DAILY_PRICES_DIR}/${DAILY_OVERRIDES_FILE}`;

const close = rawSql(`trim("Close")`);
const hasClose = sql`lower(${close}) <> ${YAHOO_NO_VALUE}`;

/** Row checks of the daily files: a valid date once per file, a close ≥ 0 or 'null', at least one close. */
function dailyChecksSql(): Sql[] {
  return [
    ...columnChecksSql(RAW, [{ name: 'Date', kind: 'date', required: true, doc: 'trading date' }], new Set(['Date']), 'file, line'),
    sql`SELECT file, line, '''Close'' is required (Yahoo''s ''null'' marks a day without prices; such rows are skipped)' AS reason
       FROM ${rawSql(RAW)} WHERE ${close} IS NULL OR ${close} = ''`,
    sql`SELECT file, line, '''Close'' must be a number >= 0 or ''null'', got ''' || ${close} || '''' AS reason FROM ${rawSql(RAW)}
      WHERE ${close} <> '' AND ${hasClose}
        AND (TRY_CAST(${close} AS DOUBLE) IS NULL OR NOT isfinite(TRY_CAST(${close} AS DOUBLE)) OR TRY_CAST(${close} AS DOUBLE) < 0)`,
    // Grouping first and joining back only the repeated dates: a window over every row took 5 s for 3 million rows.
    rawSql(`SELECT r.file, r.line, 'duplicate date ' || p.d || ' (first on line ' || p.first_line || ')' AS reason
      FROM ${RAW} r JOIN (SELECT file, trim("Date") AS d, min(line) AS first_line FROM ${RAW} GROUP BY ALL HAVING count(*) > 1) p
        ON r.file = p.file AND trim(r."Date") = p.d WHERE r.line <> p.first_line`),
    sql`SELECT f.file, 0 AS line, 'no row with a Close: the file has no prices' AS reason FROM ${rawSql(FILES)} f
      WHERE NOT EXISTS (SELECT 1 FROM ${rawSql(RAW)} r WHERE r.file = f.file AND ${hasClose} AND ${close} <> '')`,
  ];
}

/** Loads overrides.csv (when present) into OVERRIDES: line, market, ticker, currency, basis (text, null = not set). */
async function loadOverrides(connection: DuckDBConnection, folder: string, present: boolean, add: (e: FeedError) => void): Promise<void> {
  const empty = `CREATE OR REPLACE TEMP TABLE ${OVERRIDES} (line INTEGER, market VARCHAR, ticker VARCHAR, currency VARCHAR, basis VARCHAR)`;
  if (!present) return void (await connection.run(empty));
  let columns: string[];
  try {
    columns = await loadRaw(connection, `${folder}/${OVERRIDES_AT}`, OVERRIDES_RAW);
  } catch (error) {
    add({ file: OVERRIDES_AT, line: 0, reason: `unreadable overrides file: ${(error as Error).message.split('\n')[0]}` });
    return void (await connection.run(empty));
  }
  if (!columns.includes('market')) {
    add({
      file: OVERRIDES_AT,
      line: 1,
      reason: `missing required column market: columns are ${DAILY_OVERRIDE_COLUMNS.map((c) => c.name).join(', ')}`,
    });
    return void (await connection.run(empty));
  }
  await reportChecks(connection, columnChecksSql(OVERRIDES_RAW, DAILY_OVERRIDE_COLUMNS, new Set(columns)), add, OVERRIDES_AT);
  const text = (name: string): string => (columns.includes(name) ? `nullif(trim(${sqlIdent(name)}), '')` : 'CAST(NULL AS VARCHAR)');
  await connection.run(`CREATE OR REPLACE TEMP TABLE ${OVERRIDES} AS SELECT line, trim(market) AS market, ${text('ticker')} AS ticker,
    ${text('currency')} AS currency, ${text('split_adjusted_through')} AS basis FROM ${OVERRIDES_RAW}`);
  const checks = [
    rawSql(`SELECT line,
        'duplicate override for ' || market || coalesce('/' || ticker, ' (every file)') || ' (first on line ' || first_line || ')' AS reason
      FROM (
      SELECT line, market, ticker, min(line) OVER (PARTITION BY market, ticker) AS first_line FROM ${OVERRIDES}) WHERE line <> first_line`),
    sql`SELECT o.line,
        'no daily price file ' || ${DAILY_PRICES_DIR} || '/' || o.market || '/' || coalesce(o.ticker || '.csv', '*.csv') || ' for this override' AS reason
      FROM ${rawSql(OVERRIDES)} o
      WHERE NOT EXISTS (SELECT 1 FROM ${rawSql(FILES)} f WHERE f.market = o.market AND (o.ticker IS NULL OR f.ticker = o.ticker))`,
  ];
  await reportChecks(connection, checks, add, OVERRIDES_AT);
}

/** Each file's currency and split basis: a ticker override, else its market's override, else the defaults. */
async function resolveBasis(connection: DuckDBConnection, add: (e: FeedError) => void): Promise<void> {
  const basis = sql`CREATE OR REPLACE TEMP TABLE ${rawSql(BASIS)} AS
    WITH last AS (SELECT file, max(TRY_CAST(trim("Date") AS DATE)) AS last_date FROM ${rawSql(RAW)} GROUP BY file)
    SELECT f.file, coalesce(t.currency, m.currency, f.market_currency) AS currency, l.last_date,
      coalesce(t.basis, m.basis) AS basis, CASE WHEN t.basis IS NOT NULL THEN t.line ELSE m.line END AS basis_line,
      CASE WHEN coalesce(t.basis, m.basis) IS NULL THEN l.last_date
        WHEN coalesce(t.basis, m.basis) = ${AS_TRADED} THEN NULL
        ELSE TRY_CAST(coalesce(t.basis, m.basis) AS DATE) END AS split_adjusted_through
    FROM ${rawSql(FILES)} f LEFT JOIN last l USING (file)
      LEFT JOIN ${rawSql(OVERRIDES)} t ON t.market = f.market AND t.ticker = f.ticker
      LEFT JOIN ${rawSql(OVERRIDES)} m ON m.market = f.market AND m.ticker IS NULL`;
  await runSql(connection, basis);
  const before = rawSql(`SELECT basis_line AS line,
      'split_adjusted_through ' || basis || ' is before the last date ' || last_date || ' of ' || file
        || ': a file is adjusted through the day it was downloaded' AS reason
    FROM ${BASIS} WHERE split_adjusted_through < last_date`);
  await reportChecks(connection, [before], add, OVERRIDES_AT);
}

/** The daily files' rows and tickers, as SQL over temp tables of the connection. */
export interface DailyPrices {
  /** `prices` rows, partition column `market` first. */
  rows: Sql;
  /** `file, market, ticker` of every file read. */
  tickers: Sql;
}

/**
 * Validates the delivery's daily price files, reporting every error through `add`; undefined
 * when the delivery has no `prices-daily` folder.
 */
export async function loadDailyPrices(
  connection: DuckDBConnection,
  folder: string,
  add: (e: FeedError) => void,
): Promise<DailyPrices | undefined> {
  const found = await findTickerFiles(folder, DAILY_PRICES_DIR, [DAILY_OVERRIDES_FILE], add);
  if (!found) return undefined;
  if (found.files.length === 0)
    add({ file: DAILY_PRICES_DIR, line: 0, reason: `no daily price files: expected ${DAILY_PRICES_DIR}/<market>/<TICKER>.csv` });
  const header = { name: 'daily price file', header: 'Date,Open,High,Low,Close,Adj Close,Volume (only Date and Close are read)' };
  const read = await loadTickerFiles(connection, found.files, RAW, ['Date', 'Close'], header, add);
  await connection.run(`CREATE OR REPLACE TEMP TABLE ${FILES} (file VARCHAR, market VARCHAR, ticker VARCHAR, market_currency VARCHAR)`);
  if (read.length > 0) {
    const rows = read.map((f) => sql`(${f.file}, ${f.market}, ${f.ticker}, ${getMarket(f.market).currency})`);
    await runSql(connection, sql`INSERT INTO ${rawSql(FILES)} VALUES ${joinSql(rows, ', ')}`);
  }
  await reportChecks(connection, dailyChecksSql(), add);
  await loadOverrides(connection, folder, found.extras.includes(DAILY_OVERRIDES_FILE), add);
  await resolveBasis(connection, add);
  return {
    rows: sql`SELECT r.market, r.ticker, CAST(trim(r."Date") AS DATE) AS date, CAST(${close} AS DOUBLE) AS close, b.currency,
        b.split_adjusted_through, 'feed' AS data_source, false AS synthetic
      FROM ${rawSql(RAW)} r JOIN ${rawSql(BASIS)} b USING (file) WHERE ${hasClose}`,
    tickers: rawSql(`SELECT file, market, ticker FROM ${FILES}`),
  };
}
