import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'libsql';
import { blockValues, currentChangesOf, currentValues, decompressResult, newestPerTicker, rowOf, rowValues } from './serving-codec.ts';
import { SERVING_MIGRATIONS } from './serving-schema.ts';
import {
  DELETE_UNUSED_BLOCKS,
  UPSERT_BLOCK,
  INSERT_SNAPSHOT,
  SELECT_AS_OF,
  DELETE_FILE,
  DELETE_FILE_HOLDINGS,
  DELETE_FILE_LISTINGS,
  INSERT_HOLDING,
  INSERT_LISTING,
  INSERT_TEXT,
  LISTINGS_VERSION_KEY,
  SELECT_FUND_HOLDINGS,
  SELECT_LISTINGS,
  SELECT_REPORT,
  SELECT_REPORT_STAMP_SQLITE,
  SELECT_TEXTS,
  UPSERT_REPORT,
  CURRENT_EPOCH_KEY,
  DELETE_MARKET_CURRENT,
  DELETE_SNAPSHOT_DAYS,
  INSERT_MARKET_CURRENT,
  NEXT_SEQ,
  SELECT_CURRENT,
  SELECT_CURRENT_SINCE,
  SELECT_FILE,
  SELECT_FILES,
  SELECT_FIRST_DATE,
  SELECT_HISTORY,
  SELECT_MARKET_DAY,
  SELECT_META,
  SELECT_ON_DAY,
  SELECT_RESULT,
  UPSERT_CURRENT,
  UPSERT_FILE,
  UPSERT_META,
} from './serving-sql.ts';
import type {
  ResultBlock,
  CurrentChanges,
  FundHoldings,
  HeldFile,
  LakeFileRows,
  ServingListing,
  ServingLookup,
  ServingRow,
  ServingSnapshot,
  ServingStore,
  SnapshotKey,
  SnapshotStamp,
  StoredReport,
  StoredReportStamp,
  TickerKey,
} from './serving-types.ts';
import { byTicker } from './serving-order.ts';
import {
  fundHoldingsOf,
  isListingsFile,
  lakeFileValues,
  listingsOf,
  reportStampOf,
  reportValues,
  storedReportOf,
} from './serving-lake-tables.ts';

export function sqliteServingPath(dataDir: string): string {
  return path.join(dataDir, 'serving.db');
}

type Row = Record<string, unknown>;

/**
 * The embedded serving store: a SQLite file through libsql (docs/serving.md, "The serving
 * store"). WAL, so the API's reads never wait for a publish; `synchronous=NORMAL`, so a publish
 * costs no fsync per transaction: the lake is the source of truth, and a power cut that loses
 * the last commits is mended by `faithscreen serving rebuild`. Reads are synchronous point reads
 * of a few tens of microseconds, run on the caller's thread.
 */
export class SqliteServingStore implements ServingStore {
  readonly engine = 'sqlite' as const;
  readonly location: string;
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();

  constructor(file: string) {
    mkdirSync(path.dirname(file), { recursive: true });
    this.location = file;
    this.db = new Database(file);
    // A publish from another process holds the write lock for one transaction (milliseconds).
    this.db.exec('PRAGMA busy_timeout = 30000');
    this.db.exec('PRAGMA journal_mode = WAL');
    this.db.exec('PRAGMA synchronous = NORMAL');
    this.migrate();
  }

  private statement(sql: string): Database.Statement {
    let found = this.statements.get(sql);
    if (found === undefined) this.statements.set(sql, (found = this.db.prepare(sql)));
    return found;
  }

  /** A statement whose rows come back as arrays, in its column order (kept apart from the object-row one of the same SQL). */
  private rawStatement(sql: string): Database.Statement {
    const key = `raw:${sql}`;
    let found = this.statements.get(key);
    if (found === undefined) this.statements.set(key, (found = this.db.prepare(sql).raw(true)));
    return found;
  }

  private migrate(): void {
    // Most opens have nothing to apply: they take no write lock, which a start's copy from the lake may hold.
    const known = this.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'serving_migrations'").get();
    if (known !== undefined) {
      const applied = new Set((this.db.prepare('SELECT version FROM serving_migrations').all() as Row[]).map((r) => Number(r.version)));
      if (SERVING_MIGRATIONS.every((migration) => applied.has(migration.version))) return;
    }
    this.transaction(() => {
      this.db.exec(
        'CREATE TABLE IF NOT EXISTS serving_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
      );
      const applied = new Set((this.db.prepare('SELECT version FROM serving_migrations').all() as Row[]).map((r) => Number(r.version)));
      for (const migration of SERVING_MIGRATIONS) {
        if (applied.has(migration.version)) continue;
        this.db.exec(migration.sqlite);
        this.db
          .prepare('INSERT INTO serving_migrations (version, name, applied_at) VALUES (?, ?, ?)')
          .run(migration.version, migration.name, new Date().toISOString());
      }
    });
  }

  async write(
    snapshots: readonly ServingSnapshot[],
    file?: HeldFile,
    blocks: readonly ResultBlock[] = [],
    reports: readonly StoredReport[] = [],
  ): Promise<void> {
    if (snapshots.length === 0 && file === undefined) return;
    const insert = this.statement(INSERT_SNAPSHOT);
    const block = this.statement(UPSERT_BLOCK);
    const current = this.statement(UPSERT_CURRENT);
    const values = snapshots.map(rowValues);
    this.transaction(() => {
      for (const written of blocks) block.run(...blockValues(written));
      for (const row of values) insert.run(...row);
      const seq = Number((this.statement(NEXT_SEQ).get() as Row).seq);
      for (const { newest, firstDate } of newestPerTicker(snapshots)) current.run(...currentValues(newest, firstDate, seq));
      if (reports.length > 0) {
        const report = this.statement(UPSERT_REPORT);
        for (const written of reports) report.run(...reportValues(written));
      }
      if (file !== undefined) this.statement(UPSERT_FILE).run(file.path, file.signature);
    });
  }

  private one(sql: string, params: readonly unknown[]): ServingRow | undefined {
    const record = this.statement(sql).get(...params) as Row | undefined;
    return record === undefined ? undefined : rowOf(record);
  }

  async current(market: string, ticker: string): Promise<ServingRow | undefined> {
    return this.one(SELECT_CURRENT, [market, ticker]);
  }

  async currentSince(seq: number): Promise<CurrentChanges> {
    return currentChangesOf(this.rawStatement(SELECT_CURRENT_SINCE).all(CURRENT_EPOCH_KEY, LISTINGS_VERSION_KEY, seq) as unknown[][], seq);
  }

  async forgetSnapshots(market: string, from: string, to: string): Promise<void> {
    this.transaction(() => {
      this.statement(DELETE_SNAPSHOT_DAYS).run(market, from, to);
      this.statement(DELETE_UNUSED_BLOCKS).run(market, from, to);
    });
  }

  async rebuildCurrent(markets: readonly string[]): Promise<void> {
    this.transaction(() => {
      const seq = Number((this.statement(NEXT_SEQ).get() as Row).seq);
      for (const market of markets) {
        this.statement(DELETE_MARKET_CURRENT).run(market);
        this.statement(INSERT_MARKET_CURRENT).run(seq, market);
      }
      this.statement(UPSERT_META).run(CURRENT_EPOCH_KEY, randomUUID());
    });
  }

  async asOf(market: string, ticker: string, date: string): Promise<ServingLookup> {
    const row = this.one(SELECT_AS_OF, [market, ticker, date]);
    if (row !== undefined) return { row, firstSnapshotDate: null };
    const first = this.statement(SELECT_FIRST_DATE).get(market, ticker) as Row | undefined;
    return { row: undefined, firstSnapshotDate: first === undefined ? null : String(first.first_date) };
  }

  async onDay(market: string, ticker: string, date: string): Promise<ServingRow | undefined> {
    return this.one(SELECT_ON_DAY, [market, ticker, date]);
  }

  async history(market: string, ticker: string): Promise<ServingRow[]> {
    return (this.statement(SELECT_HISTORY).all(market, ticker) as Row[]).map(rowOf);
  }

  async marketOn(market: string, date: string): Promise<ServingRow[]> {
    return byTicker((this.statement(SELECT_MARKET_DAY).all(market, date) as Row[]).map(rowOf));
  }

  async results(keys: readonly SnapshotKey[]): Promise<Array<Buffer | null>> {
    const select = this.statement(SELECT_RESULT);
    return keys.map((key) => {
      const record = select.get(key.market, key.ticker, key.snapshotDate) as Row | undefined;
      return record === undefined ? null : decompressResult(record.result as Uint8Array, record.block as Uint8Array | null);
    });
  }

  async heldFiles(): Promise<Map<string, string>> {
    return new Map((this.statement(SELECT_FILES).all() as Row[]).map((r) => [String(r.path), String(r.signature)]));
  }

  async heldSignature(path: string): Promise<string | undefined> {
    const record = this.statement(SELECT_FILE).get(path) as Row | undefined;
    return record === undefined ? undefined : String(record.signature);
  }

  async holdFiles(files: readonly HeldFile[], released: readonly string[]): Promise<void> {
    this.transaction(() => {
      for (const file of files) this.statement(UPSERT_FILE).run(file.path, file.signature);
      for (const gone of released) {
        this.statement(DELETE_FILE).run(gone);
        this.statement(DELETE_FILE_LISTINGS).run(gone);
        this.statement(DELETE_FILE_HOLDINGS).run(gone);
      }
      if (released.some(isListingsFile)) this.statement(UPSERT_META).run(LISTINGS_VERSION_KEY, randomUUID());
    });
  }

  async writeLakeFile(file: HeldFile, content: LakeFileRows): Promise<void> {
    const values = lakeFileValues(file.path, content);
    this.transaction(() => {
      if (content.table === 'methodology_texts') for (const row of values) this.statement(INSERT_TEXT).run(...row);
      else {
        const listings = content.table === 'listings';
        this.statement(listings ? DELETE_FILE_LISTINGS : DELETE_FILE_HOLDINGS).run(file.path);
        const insert = this.statement(listings ? INSERT_LISTING : INSERT_HOLDING);
        for (const row of values) insert.run(...row);
        if (listings) this.statement(UPSERT_META).run(LISTINGS_VERSION_KEY, randomUUID());
      }
      this.statement(UPSERT_FILE).run(file.path, file.signature);
    });
  }

  async report({ market, ticker, snapshotDate, screenedAt }: SnapshotStamp): Promise<StoredReport | undefined> {
    return storedReportOf(market, ticker, this.statement(SELECT_REPORT).get(market, ticker, snapshotDate, screenedAt) as Row | undefined);
  }

  async reportStamps(keys: readonly TickerKey[]): Promise<Array<StoredReportStamp | undefined>> {
    const select = this.statement(SELECT_REPORT_STAMP_SQLITE);
    return keys.map(({ market, ticker }) => reportStampOf(market, ticker, select.get(market, ticker) as Row | undefined));
  }

  async writeReports(reports: readonly StoredReport[]): Promise<void> {
    if (reports.length === 0) return;
    this.transaction(() => {
      for (const report of reports) this.statement(UPSERT_REPORT).run(...reportValues(report));
    });
  }

  async texts(): Promise<Map<string, string>> {
    return new Map((this.statement(SELECT_TEXTS).all() as Row[]).map((r) => [String(r.text_id), String(r.text)]));
  }

  async listings(): Promise<ServingListing[]> {
    return listingsOf(this.statement(SELECT_LISTINGS).all() as Row[]);
  }

  async fundHoldings(fundMarket: string, fundTicker: string, limit: number): Promise<FundHoldings | undefined> {
    const records = this.statement(SELECT_FUND_HOLDINGS).all(fundMarket, fundTicker, fundMarket, fundTicker) as Row[];
    return fundHoldingsOf(fundMarket, fundTicker, records, limit);
  }

  /** Runs `work` in one write transaction (BEGIN IMMEDIATE: the write lock from the start). */
  private transaction(work: () => void): void {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      work();
      this.db.exec('COMMIT');
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }

  async meta(key: string): Promise<string | undefined> {
    const record = this.statement(SELECT_META).get(key) as Row | undefined;
    return record === undefined ? undefined : String(record.value);
  }

  async setMeta(key: string, value: string): Promise<void> {
    this.statement(UPSERT_META).run(key, value);
  }

  async close(): Promise<void> {
    this.statements.clear();
    this.db.close();
  }
}
