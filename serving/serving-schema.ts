import { SNAPSHOT_RATIOS } from '../common/snapshot-ratios.ts';
import { VERDICT_COLUMNS } from './serving-codec.ts';

/**
 * The serving store's schema, one migration list per engine (applied in version order, recorded
 * in `serving_migrations`; never edit an applied one). docs/serving.md, "The serving store".
 *
 * - `serving_snapshots`: the newest screen of each (market, ticker, day), its statuses as ten
 *   letters, its ratio columns and its stored result (compressed). Keyed by (market, ticker,
 *   snapshot_date): as_of, a day and a ticker's history are ordered reads of that key; one day of
 *   a market reads the (market, snapshot_date) index.
 * - `serving_current`: which day is each ticker's newest, and its first, with that snapshot's
 *   verdict columns (not its result) copied, so a start reads one small table, not one random
 *   read of the history per ticker; `seq` numbers the write that last moved the row (a newer
 *   screen or an earlier first day) (one number per write transaction, rising in commit order),
 *   so an API replica reads what changed since its last look with one indexed query.
 * - `serving_meta`: what the store knows about itself.
 * - `serving_files`: the lake files whose rows the store holds, so a start or a rebuild copies
 *   only the others (resumable), and a file published by hand is still served.
 * - `serving_texts`: the methodology texts stored results reference, by id.
 * - `serving_reports`: each ticker's default report of its current snapshot, rendered by an API
 *   when idle and kept for every replica, with the rendering code's version it was made by; an
 *   index holds what each report is of (its stamp), so checking them all reads no report.
 * - `serving_listings`, `serving_fund_holdings`: the rows of each lake file of those tables, by
 *   file: a republished file replaces its rows, a file removed takes them with it.
 */
export interface ServingMigration {
  version: number;
  name: string;
  sqlite: string;
  postgres: string;
}

const ratioColumns = (type: string) => SNAPSHOT_RATIOS.map((r) => `  ${r} ${type},`).join('\n');

const snapshots = (real: string, blob: string, bool: string, rowid: string) => `
CREATE TABLE serving_snapshots (
  ${rowid}
  market TEXT NOT NULL,
  ticker TEXT NOT NULL,
  snapshot_date TEXT NOT NULL,
  screened_at TEXT NOT NULL,
  source TEXT NOT NULL,
  statuses TEXT NOT NULL,
${ratioColumns(real)}
  synthetic ${bool} NOT NULL,
  data_source TEXT NOT NULL,
  result ${blob} NOT NULL
);
CREATE UNIQUE INDEX serving_snapshots_key ON serving_snapshots (market, ticker, snapshot_date);
CREATE INDEX serving_snapshots_day ON serving_snapshots (market, snapshot_date);
CREATE TABLE serving_current (
  market TEXT NOT NULL,
  ticker TEXT NOT NULL,
  snapshot_date TEXT NOT NULL,
  screened_at TEXT NOT NULL,
  first_date TEXT NOT NULL,
  PRIMARY KEY (market, ticker)
);
CREATE TABLE serving_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE serving_files (path TEXT PRIMARY KEY, signature TEXT NOT NULL);
`;

const lakeTables = (real: string) => `
CREATE TABLE serving_texts (text_id TEXT PRIMARY KEY, text TEXT NOT NULL);
CREATE TABLE serving_listings (
  file TEXT NOT NULL,
  market TEXT NOT NULL,
  ticker TEXT NOT NULL,
  name TEXT NOT NULL,
  exchange TEXT NOT NULL,
  kind TEXT NOT NULL,
  currency TEXT NOT NULL,
  data_source TEXT NOT NULL
);
CREATE INDEX serving_listings_file ON serving_listings (file);
CREATE TABLE serving_fund_holdings (
  file TEXT NOT NULL,
  fund_market TEXT NOT NULL,
  fund_ticker TEXT NOT NULL,
  as_of TEXT NOT NULL,
  market TEXT NOT NULL,
  ticker TEXT NOT NULL,
  weight ${real} NOT NULL
);
CREATE INDEX serving_fund_holdings_fund ON serving_fund_holdings (fund_market, fund_ticker, as_of);
CREATE INDEX serving_fund_holdings_file ON serving_fund_holdings (file);
`;

const reports = (blob: string) => `
CREATE TABLE serving_reports (
  market TEXT NOT NULL,
  ticker TEXT NOT NULL,
  snapshot_date TEXT NOT NULL,
  screened_at TEXT NOT NULL,
  company_name TEXT NOT NULL,
  version TEXT NOT NULL,
  report ${blob} NOT NULL,
  PRIMARY KEY (market, ticker)
);
`;

const reportStamps =
  'CREATE INDEX serving_reports_stamps ON serving_reports (market, ticker, snapshot_date, screened_at, company_name, version);';

const resultBlocks = (blob: string) => `
CREATE TABLE serving_result_blocks (
  market TEXT NOT NULL,
  ticker TEXT NOT NULL,
  screened_at TEXT NOT NULL,
  year TEXT NOT NULL,
  data ${blob} NOT NULL,
  PRIMARY KEY (market, ticker, screened_at, year)
);
`;

/** The verdict columns a current row holds, added to stores made before it held them, filled from their snapshots. */
const currentVerdicts = (engine: 'sqlite' | 'postgres') => {
  const real = engine === 'sqlite' ? 'REAL' : 'DOUBLE PRECISION';
  const type = (c: string) =>
    SNAPSHOT_RATIOS.includes(c as never)
      ? real
      : c === 'synthetic'
        ? `${engine === 'sqlite' ? 'INTEGER' : 'SMALLINT'} NOT NULL DEFAULT 0`
        : "TEXT NOT NULL DEFAULT ''";
  const key = (table: string) => `h.market = ${table}.market AND h.ticker = ${table}.ticker AND h.snapshot_date = ${table}.snapshot_date`;
  // A current row whose snapshot is gone was never served (readers joined the two): it goes.
  const orphans = `DELETE FROM serving_current WHERE NOT EXISTS (SELECT 1 FROM serving_snapshots h WHERE ${key('serving_current')});`;
  if (engine === 'sqlite')
    return `${VERDICT_COLUMNS.map((c) => `ALTER TABLE serving_current ADD COLUMN ${c} ${type(c)};`).join('\n')}
${orphans}
UPDATE serving_current SET (${VERDICT_COLUMNS.join(', ')}) =
  (SELECT ${VERDICT_COLUMNS.map((c) => `h.${c}`).join(', ')} FROM serving_snapshots h WHERE ${key('serving_current')});`;
  return `ALTER TABLE serving_current ${VERDICT_COLUMNS.map((c) => `ADD COLUMN ${c} ${type(c)}`).join(', ')};
${orphans}
UPDATE serving_current c SET ${VERDICT_COLUMNS.map((col) => `${col} = h.${col}`).join(', ')}
FROM serving_snapshots h WHERE ${key('c')};`;
};

export const SERVING_MIGRATIONS: readonly ServingMigration[] = [
  {
    version: 1,
    name: 'snapshots, current and meta',
    // SQLite: a rowid table (results are too large a row for WITHOUT ROWID) with a unique key index.
    // PostgreSQL: the unique key index alone (a surrogate key would cost a sequence and a third index per row).
    sqlite: snapshots('REAL', 'BLOB', 'INTEGER', 'id INTEGER PRIMARY KEY,'),
    postgres: snapshots('DOUBLE PRECISION', 'BYTEA', 'SMALLINT', ''),
  },
  {
    version: 2,
    name: 'change sequence of the current rows',
    sqlite: `ALTER TABLE serving_current ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
CREATE INDEX serving_current_seq ON serving_current (seq);`,
    postgres: `ALTER TABLE serving_current ADD COLUMN seq BIGINT NOT NULL DEFAULT 0;
CREATE INDEX serving_current_seq ON serving_current (seq);`,
  },
  {
    version: 3,
    name: 'methodology texts, listings and fund holdings',
    sqlite: lakeTables('REAL'),
    postgres: lakeTables('DOUBLE PRECISION'),
  },
  {
    version: 4,
    name: 'pre-rendered default reports',
    sqlite: reports('BLOB'),
    postgres: reports('BYTEA'),
  },
  {
    version: 5,
    name: 'result blocks',
    sqlite: resultBlocks('BLOB'),
    postgres: resultBlocks('BYTEA'),
  },
  {
    version: 6,
    name: 'report stamps index',
    // What a stored report is of, read without the report: in SQLite a report row fills most of
    // a page, so the pre-renderer's check of every ticker read a page each; from this index it
    // reads a few bytes each (docs/serving.md, "Pre-rendered reports").
    sqlite: reportStamps,
    postgres: reportStamps,
  },
  {
    version: 7,
    name: 'verdict columns of the current rows',
    // The first open after upgrading fills them with one keyed read per ticker (docs/serving.md, "Formats": upgrade order).
    sqlite: currentVerdicts('sqlite'),
    postgres: currentVerdicts('postgres'),
  },
];
