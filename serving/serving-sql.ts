import { ROW_COLUMNS, VERDICT_COLUMNS } from './serving-codec.ts';

/**
 * The statements both engines run, with `?` placeholders (the PostgreSQL store numbers them).
 * Upserts keep the newer screen of a day and the newer day of a ticker, so a retried or
 * out-of-order write never goes back in time.
 */
const columns = ROW_COLUMNS.join(', ');
const verdicts = VERDICT_COLUMNS.join(', ');

export const INSERT_SNAPSHOT = `INSERT INTO serving_snapshots (${columns}, result) VALUES (${[...ROW_COLUMNS, 'result'].map(() => '?').join(', ')})
ON CONFLICT (market, ticker, snapshot_date) DO UPDATE SET ${[...ROW_COLUMNS.slice(3), 'result'].map((c) => `${c} = excluded.${c}`).join(', ')}
WHERE excluded.screened_at >= serving_snapshots.screened_at`;

/** The written screen is of a later day, or of the same day and later (`>`) or as late (`>=`). */
const screenAfterCurrent = (sameDay: '>' | '>=') =>
  '(excluded.snapshot_date > serving_current.snapshot_date OR ' +
  `(excluded.snapshot_date = serving_current.snapshot_date AND excluded.screened_at ${sameDay} serving_current.screened_at))`;
const newerThanCurrent = screenAfterCurrent('>=');
const movesCurrent = `(${screenAfterCurrent('>')} OR excluded.first_date < serving_current.first_date)`;

/**
 * A ticker's current row takes the write's number only when the row moves (a newer screen, or an
 * earlier first day): readers poll the numbers, and history written behind the current day, or a
 * retry, must not make every reader read the ticker again.
 */
export const UPSERT_CURRENT = `INSERT INTO serving_current (market, ticker, snapshot_date, screened_at, first_date, seq, ${verdicts})
VALUES (${Array.from({ length: 6 + VERDICT_COLUMNS.length }, () => '?').join(', ')})
ON CONFLICT (market, ticker) DO UPDATE SET
  seq = CASE WHEN ${movesCurrent} THEN excluded.seq ELSE serving_current.seq END,
  first_date = CASE WHEN excluded.first_date < serving_current.first_date THEN excluded.first_date ELSE serving_current.first_date END,
  ${['snapshot_date', 'screened_at', ...VERDICT_COLUMNS]
    .map((c) => `${c} = CASE WHEN ${newerThanCurrent} THEN excluded.${c} ELSE serving_current.${c} END`)
    .join(',\n  ')}`;

export const SELECT_CURRENT = `SELECT ${columns} FROM serving_current WHERE market = ? AND ticker = ?`;

/** The number of the next write: writers take turns (SQLite's write lock, an advisory lock on PostgreSQL), so numbers rise in commit order. */
export const NEXT_SEQ = `SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM serving_current`;

/**
 * What a reader polls, in one statement (one snapshot of the store, one round trip): a record
 * with the current-rows epoch and the listings version (parameters: their keys) and a null
 * `seq`, then each current row written after a sequence number, with its first day and sequence.
 * A `UNION ALL`, not a join: the rows stream as the table gives them (a start reads them all),
 * and the current table holds the verdict columns itself, so no row reads the history. Read as
 * arrays, in this column order (`currentChangesOf`).
 */
export const SELECT_CURRENT_SINCE = `SELECT (SELECT value FROM serving_meta WHERE key = ?) AS epoch,
  (SELECT value FROM serving_meta WHERE key = ?) AS listings_version,
  ${ROW_COLUMNS.map((c) => `NULL AS ${c}`).join(', ')}, NULL AS first_date, NULL AS seq
UNION ALL
SELECT NULL, NULL, ${columns}, first_date, seq FROM serving_current WHERE seq > ?`;

/** The store's current-rows epoch: changed when current rows were rebuilt, not merely moved forward (readers then read them all again). */
export const CURRENT_EPOCH_KEY = 'current_epoch';

export const DELETE_SNAPSHOT_DAYS = `DELETE FROM serving_snapshots WHERE market = ? AND snapshot_date >= ? AND snapshot_date <= ?`;

export const DELETE_MARKET_CURRENT = `DELETE FROM serving_current WHERE market = ?`;

/** Each ticker's newest snapshot and first day in a market, from the snapshots themselves. */
export const INSERT_MARKET_CURRENT = `INSERT INTO serving_current (market, ticker, snapshot_date, screened_at, first_date, seq, ${verdicts})
SELECT market, ticker, snapshot_date, screened_at, first_date, ?, ${verdicts} FROM (
  SELECT market, ticker, snapshot_date, screened_at, ${verdicts},
         MIN(snapshot_date) OVER (PARTITION BY ticker) AS first_date,
         ROW_NUMBER() OVER (PARTITION BY ticker ORDER BY snapshot_date DESC) AS n
  FROM serving_snapshots WHERE market = ?) t
WHERE n = 1`;

export const LISTINGS_VERSION_KEY = 'listings_version';

export const INSERT_TEXT = `INSERT INTO serving_texts (text_id, text) VALUES (?, ?) ON CONFLICT (text_id) DO NOTHING`;

export const SELECT_TEXTS = `SELECT text_id, text FROM serving_texts`;

export const INSERT_LISTING = `INSERT INTO serving_listings (file, market, ticker, name, exchange, kind, currency, data_source)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;

export const DELETE_FILE_LISTINGS = `DELETE FROM serving_listings WHERE file = ?`;

/** One listing per (market, ticker): a vendor feed beats EDGAR beats the sample, as in the lake's reads. */
export const SELECT_LISTINGS = `SELECT market, ticker, name, exchange, kind, currency FROM (
  SELECT market, ticker, name, exchange, kind, currency,
         ROW_NUMBER() OVER (PARTITION BY market, ticker
                            ORDER BY CASE data_source WHEN 'feed' THEN 0 WHEN 'edgar' THEN 1 ELSE 2 END, file) AS n
  FROM serving_listings) t
WHERE n = 1`;

export const INSERT_HOLDING = `INSERT INTO serving_fund_holdings (file, fund_market, fund_ticker, as_of, market, ticker, weight)
VALUES (?, ?, ?, ?, ?, ?, ?)`;

export const DELETE_FILE_HOLDINGS = `DELETE FROM serving_fund_holdings WHERE file = ?`;

/** A fund's holdings on its latest report date. */
export const SELECT_FUND_HOLDINGS = `SELECT as_of, market, ticker, weight FROM serving_fund_holdings
WHERE fund_market = ? AND fund_ticker = ?
  AND as_of = (SELECT MAX(as_of) FROM serving_fund_holdings WHERE fund_market = ? AND fund_ticker = ?)`;

/** A report of one snapshot: a row of another fails on its first columns, so the report's overflow pages are not read. */
export const SELECT_REPORT = `SELECT snapshot_date, screened_at, company_name, version, report FROM serving_reports
WHERE market = ? AND ticker = ? AND snapshot_date = ? AND screened_at = ?`;

export const SELECT_REPORT_STAMP = `SELECT snapshot_date, screened_at, company_name, version FROM serving_reports WHERE market = ? AND ticker = ?`;

/**
 * The same read on SQLite, from the stamps index by name: its planner prefers the unique key's
 * index (one row) and would then read the row, report and all (docs/serving.md, "Pre-rendered reports").
 */
export const SELECT_REPORT_STAMP_SQLITE = SELECT_REPORT_STAMP.replace(
  'FROM serving_reports',
  'FROM serving_reports INDEXED BY serving_reports_stamps',
);

export const UPSERT_REPORT = `INSERT INTO serving_reports (market, ticker, snapshot_date, screened_at, company_name, version, report)
VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (market, ticker) DO UPDATE SET snapshot_date = excluded.snapshot_date, screened_at = excluded.screened_at,
  company_name = excluded.company_name, version = excluded.version, report = excluded.report
WHERE excluded.snapshot_date > serving_reports.snapshot_date
   OR (excluded.snapshot_date = serving_reports.snapshot_date AND excluded.screened_at >= serving_reports.screened_at)`;

export const SELECT_FIRST_DATE = `SELECT first_date FROM serving_current WHERE market = ? AND ticker = ?`;

export const SELECT_AS_OF = `SELECT ${columns} FROM serving_snapshots
WHERE market = ? AND ticker = ? AND snapshot_date <= ? ORDER BY snapshot_date DESC LIMIT 1`;

export const SELECT_ON_DAY = `SELECT ${columns} FROM serving_snapshots WHERE market = ? AND ticker = ? AND snapshot_date = ?`;

export const SELECT_HISTORY = `SELECT ${columns} FROM serving_snapshots WHERE market = ? AND ticker = ? ORDER BY snapshot_date`;

export const SELECT_MARKET_DAY = `SELECT ${columns} FROM serving_snapshots WHERE market = ? AND snapshot_date = ?`;

/** The block a row's result may refer to: keyed by what the rows of a block share. */
export const BLOCK_OF_ROW = `LEFT JOIN serving_result_blocks b
  ON b.market = s.market AND b.ticker = s.ticker AND b.screened_at = s.screened_at AND b.year = substr(s.snapshot_date, 1, 4)`;

export const SELECT_RESULT = `SELECT s.result, b.data AS block FROM serving_snapshots s ${BLOCK_OF_ROW}
WHERE s.market = ? AND s.ticker = ? AND s.snapshot_date = ?`;

export const UPSERT_BLOCK = `INSERT INTO serving_result_blocks (market, ticker, screened_at, year, data) VALUES (?, ?, ?, ?, ?)
ON CONFLICT (market, ticker, screened_at, year) DO UPDATE SET data = excluded.data`;

/** A market's blocks of `from`..`to` (years of those days) that no row points into any more. */
export const DELETE_UNUSED_BLOCKS = `DELETE FROM serving_result_blocks
WHERE market = ? AND year >= substr(?, 1, 4) AND year <= substr(?, 1, 4)
  AND NOT EXISTS (SELECT 1 FROM serving_snapshots s
                  WHERE s.market = serving_result_blocks.market AND s.ticker = serving_result_blocks.ticker
                    AND s.screened_at = serving_result_blocks.screened_at AND substr(s.snapshot_date, 1, 4) = serving_result_blocks.year)`;

export const SELECT_META = `SELECT value FROM serving_meta WHERE key = ?`;

export const UPSERT_META = `INSERT INTO serving_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`;

export const UPSERT_FILE = `INSERT INTO serving_files (path, signature) VALUES (?, ?) ON CONFLICT (path) DO UPDATE SET signature = excluded.signature`;

export const DELETE_FILE = `DELETE FROM serving_files WHERE path = ?`;

export const SELECT_FILES = `SELECT path, signature FROM serving_files`;

export const SELECT_FILE = `SELECT signature FROM serving_files WHERE path = ?`;
