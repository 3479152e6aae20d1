/**
 * The serving store's history on SQLite through libsql, as bench/serving-engines.bench.ts measures
 * it: one table keyed on (market, ticker, snapshot_date), a secondary index on (market,
 * snapshot_date, ticker) (with the ticker, a day comes out in ticker order without a sort; without
 * it SQLite prefers walking the whole market on the key to sorting), WAL with synchronous=NORMAL, one transaction per chunk of upserts.
 */
import path from 'node:path';
import Database from 'libsql';
import { RATIO_COLUMNS, type BenchRow } from './serving-engines-data.ts';
import type { BenchStore } from './serving-engines-store.ts';

const COLUMNS = ['market', 'ticker', 'snapshot_date', 'screened_at', 'statuses', ...RATIO_COLUMNS, 'synthetic', 'data_source', 'result'];

const SCHEMA = `
CREATE TABLE IF NOT EXISTS history (
  market TEXT NOT NULL, ticker TEXT NOT NULL, snapshot_date TEXT NOT NULL, screened_at TEXT NOT NULL, statuses TEXT NOT NULL,
  ${RATIO_COLUMNS.map((c) => `${c} REAL`).join(', ')},
  synthetic INTEGER NOT NULL, data_source TEXT NOT NULL, result BLOB NOT NULL,
  PRIMARY KEY (market, ticker, snapshot_date)
);
CREATE INDEX IF NOT EXISTS history_by_day ON history (market, snapshot_date, ticker);`;

const UPSERT =
  `INSERT INTO history (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')}) ` +
  `ON CONFLICT (market, ticker, snapshot_date) DO UPDATE SET ` +
  COLUMNS.slice(3)
    .map((c) => `${c} = excluded.${c}`)
    .join(', ');

const SELECT = `SELECT ${COLUMNS.join(', ')} FROM history`;

type SqlRow = Record<string, unknown>;

function toRow(row: unknown): BenchRow | undefined {
  if (row === undefined) return undefined;
  const r = row as SqlRow;
  return {
    market: r.market as string,
    ticker: r.ticker as string,
    snapshotDate: r.snapshot_date as string,
    screenedAt: r.screened_at as string,
    statuses: r.statuses as string,
    ratios: RATIO_COLUMNS.map((c) => r[c] as number),
    synthetic: r.synthetic as number,
    dataSource: r.data_source as string,
    result: r.result as Buffer,
  };
}

/** Extra pragmas to try, `;`-separated (SERVING_BENCH_SQLITE_PRAGMAS, e.g. `cache_size=-65536`), for every connection. */
export function sqlitePragmas(): string[] {
  return (process.env.SERVING_BENCH_SQLITE_PRAGMAS ?? '')
    .split(';')
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

export function sqliteFile(dir: string): string {
  return path.join(dir, 'serving.db');
}

export function openSqliteStore(dir: string): BenchStore {
  const db = new Database(sqliteFile(dir));
  db.exec('PRAGMA busy_timeout = 10000');
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = NORMAL');
  for (const pragma of sqlitePragmas()) db.exec(`PRAGMA ${pragma}`);
  db.exec(SCHEMA);
  const upsert = db.prepare(UPSERT);
  const asOf = db.prepare(`${SELECT} WHERE market = ? AND ticker = ? AND snapshot_date <= ? ORDER BY snapshot_date DESC LIMIT 1`);
  const current = db.prepare(`${SELECT} WHERE market = ? AND ticker = ? ORDER BY snapshot_date DESC LIMIT 1`);
  const history = db.prepare(`${SELECT} WHERE market = ? AND ticker = ? ORDER BY snapshot_date`);
  const marketOn = db.prepare(`${SELECT} WHERE market = ? AND snapshot_date = ? ORDER BY ticker`);
  const writeChunk = db.transaction((rows: readonly BenchRow[]) => {
    for (const r of rows) {
      upsert.run(r.market, r.ticker, r.snapshotDate, r.screenedAt, r.statuses, ...r.ratios, r.synthetic, r.dataSource, r.result);
    }
  });
  return {
    engine: 'sqlite',
    write: (rows) => void writeChunk.immediate(rows),
    asOf: (market, ticker, date) => toRow(asOf.get(market, ticker, date)),
    current: (market, ticker) => toRow(current.get(market, ticker)),
    history: (market, ticker) => history.all(market, ticker).map((row) => toRow(row)!),
    marketOn: (market, date) => marketOn.all(market, date).map((row) => toRow(row)!),
    plan: (sql) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map((r) => r.detail).join('; '),
    close: () => db.close(),
  };
}
