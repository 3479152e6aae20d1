import { createHash, randomUUID } from 'node:crypto';
import pg, { type Pool, type QueryConfig } from 'pg';
import { SNAPSHOT_RATIOS } from '../common/snapshot-ratios.ts';
import { inTransaction, numbered, redactedUrl } from '../service-state/postgres-db.ts';
import {
  blockValues,
  currentChangesOf,
  currentValues,
  decompressResult,
  newer,
  newestPerTicker,
  ROW_COLUMNS,
  rowOf,
  rowValues,
  VERDICT_COLUMNS,
} from './serving-codec.ts';
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
import { SERVING_MIGRATIONS } from './serving-schema.ts';
import {
  BLOCK_OF_ROW,
  DELETE_UNUSED_BLOCKS,
  UPSERT_BLOCK,
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
  SELECT_TEXTS,
  UPSERT_REPORT,
  INSERT_SNAPSHOT,
  CURRENT_EPOCH_KEY,
  DELETE_MARKET_CURRENT,
  DELETE_SNAPSHOT_DAYS,
  INSERT_MARKET_CURRENT,
  NEXT_SEQ,
  SELECT_AS_OF,
  SELECT_CURRENT,
  SELECT_CURRENT_SINCE,
  SELECT_FILE,
  SELECT_FILES,
  SELECT_FIRST_DATE,
  SELECT_HISTORY,
  SELECT_MARKET_DAY,
  SELECT_META,
  SELECT_ON_DAY,
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

type Row = Record<string, unknown>;

/** The PostgreSQL array type of each stored column (the rest are text). */
const ARRAY_TYPES: Record<string, string> = {
  ...Object.fromEntries(SNAPSHOT_RATIOS.map((r) => [r, 'float8[]'])),
  synthetic: 'int2[]',
  result: 'bytea[]',
};
const SNAPSHOT_TYPES = [...ROW_COLUMNS, 'result'].map((c) => ARRAY_TYPES[c] ?? 'text[]');
const CURRENT_TYPES = [
  'text[]',
  'text[]',
  'text[]',
  'text[]',
  'text[]',
  'int8[]',
  ...VERDICT_COLUMNS.map((c) => ARRAY_TYPES[c] ?? 'text[]'),
];

/**
 * A shared one-row upsert made a many-row one: its `VALUES (?, …)` becomes `SELECT * FROM
 * unnest($1::type[], …)`, one array per column, so a batch is one statement and its ON CONFLICT
 * rule stays the one both engines run.
 */
export function unnestUpsert(sql: string, types: readonly string[]): string {
  const values = /VALUES \((\?(?:, \?)*)\)/.exec(sql);
  if (values === null || values[1]!.split(',').length !== types.length)
    throw new Error(`serving store: cannot make a bulk upsert of ${sql.slice(0, 60)}…`);
  const arrays = types.map((type, i) => `$${i + 1}::${type}`).join(', ');
  return sql.replace(values[0], `SELECT * FROM unnest(${arrays})`);
}

const BULK_SNAPSHOTS = unnestUpsert(INSERT_SNAPSHOT, SNAPSHOT_TYPES);
/** Bulk inserts of the other lake tables' rows, with their column count. */
const BULK_LAKE_ROWS = {
  methodology_texts: { sql: unnestUpsert(INSERT_TEXT, ['text[]', 'text[]']), width: 2 },
  listings: {
    sql: unnestUpsert(
      INSERT_LISTING,
      Array.from({ length: 8 }, () => 'text[]'),
    ),
    width: 8,
  },
  fund_holdings: { sql: unnestUpsert(INSERT_HOLDING, [...Array.from({ length: 6 }, () => 'text[]'), 'float8[]']), width: 7 },
} as const;
const BULK_CURRENT = unnestUpsert(UPSERT_CURRENT, CURRENT_TYPES);

const SELECT_RESULTS = `SELECT k.i, s.result, b.data AS block
FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS k(market, ticker, snapshot_date, i)
JOIN serving_snapshots s ON s.market = k.market AND s.ticker = k.ticker AND s.snapshot_date = k.snapshot_date
${BLOCK_OF_ROW}`;
const SELECT_REPORT_STAMPS = `SELECT k.i, r.snapshot_date, r.screened_at, r.company_name, r.version
FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS k(market, ticker, i)
JOIN serving_reports r ON r.market = k.market AND r.ticker = k.ticker`;
const BLOCK_TYPES = ['text[]', 'text[]', 'text[]', 'text[]', 'bytea[]'];
const BULK_BLOCKS = unnestUpsert(UPSERT_BLOCK, BLOCK_TYPES);
const REPORT_TYPES = ['text[]', 'text[]', 'text[]', 'text[]', 'text[]', 'text[]', 'bytea[]'];
const BULK_REPORTS = unnestUpsert(UPSERT_REPORT, REPORT_TYPES);

const statements = new Map<string, { name: string; text: string }>();

/**
 * A statement as a named prepared statement: each connection parses and plans it once, which
 * halves a point read's time (a pooler in front must keep prepared statements, as PgBouncer
 * does from 1.21 with `max_prepared_statements`).
 */
function prepared(sql: string, values: readonly unknown[]): QueryConfig<unknown[]> {
  let statement = statements.get(sql);
  if (statement === undefined) {
    const text = numbered(sql);
    statement = { name: `serving_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`, text };
    statements.set(sql, statement);
  }
  return { ...statement, values: [...values] };
}

/** Rows per statement: a backfill's call (about 1,500 rows) is one; a larger call is split in the same transaction. */
const BATCH_ROWS = 5_000;

const MIGRATION_LOCK = 'faithscreen:serving-migrations';
/** Writers take turns on it, so the change numbers of `serving_current` rise in commit order and a reader never skips one. */
const WRITE_LOCK = 'faithscreen:serving-writes';

/**
 * The newest screen of each (market, ticker, day) in a batch: PostgreSQL refuses one statement
 * that upserts the same key twice, and the later screen is what a row-by-row write would have
 * kept (the later of two equal screens, as a retry). In code-unit order of the key: every
 * writer locks rows in that order, so two concurrent writes never deadlock.
 */
export function newestPerDay(snapshots: readonly ServingSnapshot[]): ServingSnapshot[] {
  const byDay = new Map<string, ServingSnapshot>();
  for (const snapshot of snapshots) {
    const key = `${snapshot.market}\u0000${snapshot.ticker}\u0000${snapshot.snapshotDate}`;
    const seen = byDay.get(key);
    if (seen === undefined || newer(snapshot, seen)) byDay.set(key, snapshot);
  }
  return [...byDay.keys()].sort().map((key) => byDay.get(key)!);
}

/** Columns of rows as arrays, one a column: what `unnest` takes. */
function columnsOf(rows: ReadonlyArray<readonly unknown[]>, width: number): unknown[][] {
  const columns = Array.from({ length: width }, () => new Array<unknown>(rows.length));
  rows.forEach((row, i) => row.forEach((value, j) => (columns[j]![i] = value)));
  return columns;
}

/**
 * Reports as bulk upserts take them: the newest screen's per ticker (one statement may not upsert
 * a key twice), in key order, as every writer locks rows, so two writers never wait on each other in a cycle.
 */
function reportColumns(reports: readonly StoredReport[]): unknown[][][] {
  const newest = new Map<string, StoredReport>();
  for (const report of reports) {
    const key = `${report.market}\u0000${report.ticker}`;
    const held = newest.get(key);
    if (held === undefined || newer(report, held)) newest.set(key, report);
  }
  const ordered = [...newest.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, report]) => reportValues(report));
  return chunks(ordered, BATCH_ROWS).map((batch) => columnsOf(batch, REPORT_TYPES.length));
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Applies pending migrations in one transaction; the advisory lock makes replicas starting together take turns. */
async function migrate(pool: Pool): Promise<void> {
  await inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [MIGRATION_LOCK]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS serving_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
    );
    const applied = new Set((await client.query<Row>('SELECT version FROM serving_migrations')).rows.map((r) => Number(r.version)));
    for (const migration of [...SERVING_MIGRATIONS].sort((a, b) => a.version - b.version)) {
      if (applied.has(migration.version)) continue;
      await client.query(migration.postgres);
      await client.query('INSERT INTO serving_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        new Date().toISOString(),
      ]);
    }
  });
}

export interface PostgresServingOptions {
  /** Connections in this process's pool (default 10). */
  poolSize?: number;
}

/** Opens the serving store at `databaseUrl` (creating its tables and applying pending migrations). */
export async function openPostgresServingStore(databaseUrl: string, options: PostgresServingOptions = {}): Promise<ServingStore> {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.poolSize ?? 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
    application_name: 'faithscreen-serving',
  });
  // An idle connection dropped by the server must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const location = redactedUrl(databaseUrl);
  try {
    await migrate(pool);
  } catch (error) {
    await pool.end();
    throw new Error(`the serving store at ${location} could not be opened: ${(error as Error).message}`, { cause: error });
  }
  return new PostgresServingStore(pool, location);
}

/**
 * The shared serving store: PostgreSQL at `DATABASE_URL`, so every API replica on every host
 * reads the same verdicts (docs/serving.md, "The serving store"). Reads run the statements the
 * SQLite store runs; a write is one transaction of one `unnest` upsert per table.
 */
class PostgresServingStore implements ServingStore {
  readonly engine = 'postgres' as const;
  private closed = false;

  constructor(
    private readonly pool: Pool,
    readonly location: string,
  ) {}

  async write(
    snapshots: readonly ServingSnapshot[],
    file?: HeldFile,
    blocks: readonly ResultBlock[] = [],
    reports: readonly StoredReport[] = [],
  ): Promise<void> {
    if (snapshots.length === 0 && file === undefined) return;
    const blockColumns = chunks(blocks.map(blockValues), BATCH_ROWS).map((batch) => columnsOf(batch, BLOCK_TYPES.length));
    const rows = newestPerDay(snapshots);
    // Encoded (and statuses checked) before the transaction: a bad row writes nothing.
    const snapshotColumns = chunks(rows.map(rowValues), BATCH_ROWS).map((batch) => columnsOf(batch, SNAPSHOT_TYPES.length));
    const newest = newestPerTicker(rows);
    const reportBatches = reportColumns(reports);
    await inTransaction(this.pool, async (client) => {
      for (const columns of blockColumns) await client.query(prepared(BULK_BLOCKS, columns));
      for (const columns of snapshotColumns) await client.query(prepared(BULK_SNAPSHOTS, columns));
      for (const columns of reportBatches) await client.query(prepared(BULK_REPORTS, columns));
      // Taken after the snapshots (written in parallel by several writers) and held to the commit.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [WRITE_LOCK]);
      const seq = Number((await client.query<Row>(prepared(NEXT_SEQ, []))).rows[0]!.seq);
      const withSeq = newest.map((current) => currentValues(current.newest, current.firstDate, seq));
      for (const batch of chunks(withSeq, BATCH_ROWS)) await client.query(prepared(BULK_CURRENT, columnsOf(batch, CURRENT_TYPES.length)));
      if (file !== undefined) await client.query(prepared(UPSERT_FILE, [file.path, file.signature]));
    });
  }

  private async all(sql: string, params: readonly unknown[]): Promise<Row[]> {
    return (await this.pool.query<Row>(prepared(sql, params))).rows;
  }

  private async one(sql: string, params: readonly unknown[]): Promise<ServingRow | undefined> {
    const record = (await this.all(sql, params))[0];
    return record === undefined ? undefined : rowOf(record);
  }

  async current(market: string, ticker: string): Promise<ServingRow | undefined> {
    return this.one(SELECT_CURRENT, [market, ticker]);
  }

  async currentSince(seq: number): Promise<CurrentChanges> {
    const read = await this.pool.query<unknown[]>({
      ...prepared(SELECT_CURRENT_SINCE, [CURRENT_EPOCH_KEY, LISTINGS_VERSION_KEY, seq]),
      rowMode: 'array',
    });
    return currentChangesOf(read.rows, seq);
  }

  async forgetSnapshots(market: string, from: string, to: string): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await client.query(prepared(DELETE_SNAPSHOT_DAYS, [market, from, to]));
      await client.query(prepared(DELETE_UNUSED_BLOCKS, [market, from, to]));
    });
  }

  async rebuildCurrent(markets: readonly string[]): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [WRITE_LOCK]);
      const seq = Number((await client.query<Row>(prepared(NEXT_SEQ, []))).rows[0]!.seq);
      for (const market of [...markets].sort()) {
        await client.query(prepared(DELETE_MARKET_CURRENT, [market]));
        await client.query(prepared(INSERT_MARKET_CURRENT, [seq, market]));
      }
      await client.query(prepared(UPSERT_META, [CURRENT_EPOCH_KEY, randomUUID()]));
    });
  }

  async asOf(market: string, ticker: string, date: string): Promise<ServingLookup> {
    const row = await this.one(SELECT_AS_OF, [market, ticker, date]);
    if (row !== undefined) return { row, firstSnapshotDate: null };
    const first = (await this.all(SELECT_FIRST_DATE, [market, ticker]))[0];
    return { row: undefined, firstSnapshotDate: first === undefined ? null : String(first.first_date) };
  }

  async onDay(market: string, ticker: string, date: string): Promise<ServingRow | undefined> {
    return this.one(SELECT_ON_DAY, [market, ticker, date]);
  }

  async history(market: string, ticker: string): Promise<ServingRow[]> {
    return (await this.all(SELECT_HISTORY, [market, ticker])).map(rowOf);
  }

  async marketOn(market: string, date: string): Promise<ServingRow[]> {
    return byTicker((await this.all(SELECT_MARKET_DAY, [market, date])).map(rowOf));
  }

  async results(keys: readonly SnapshotKey[]): Promise<Array<Buffer | null>> {
    const out: Array<Buffer | null> = keys.map(() => null);
    if (keys.length === 0) return out;
    const found = await this.all(SELECT_RESULTS, [keys.map((k) => k.market), keys.map((k) => k.ticker), keys.map((k) => k.snapshotDate)]);
    for (const record of found) out[Number(record.i) - 1] = decompressResult(record.result as Buffer, record.block as Buffer | null);
    return out;
  }

  async heldFiles(): Promise<Map<string, string>> {
    return new Map((await this.all(SELECT_FILES, [])).map((r) => [String(r.path), String(r.signature)]));
  }

  async heldSignature(path: string): Promise<string | undefined> {
    const record = (await this.all(SELECT_FILE, [path]))[0];
    return record === undefined ? undefined : String(record.signature);
  }

  async holdFiles(files: readonly HeldFile[], released: readonly string[]): Promise<void> {
    // In path order, as rows are written in key order: two callers never wait on each other in a cycle.
    const held = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    await inTransaction(this.pool, async (client) => {
      for (const file of held) await client.query(prepared(UPSERT_FILE, [file.path, file.signature]));
      for (const gone of [...released].sort())
        for (const sql of [DELETE_FILE, DELETE_FILE_LISTINGS, DELETE_FILE_HOLDINGS]) await client.query(prepared(sql, [gone]));
      if (released.some(isListingsFile)) await client.query(prepared(UPSERT_META, [LISTINGS_VERSION_KEY, randomUUID()]));
    });
  }

  async writeLakeFile(file: HeldFile, content: LakeFileRows): Promise<void> {
    const bulk = BULK_LAKE_ROWS[content.table];
    const batches = chunks(lakeFileValues(file.path, content), BATCH_ROWS).map((batch) => columnsOf(batch, bulk.width));
    await inTransaction(this.pool, async (client) => {
      if (content.table !== 'methodology_texts')
        await client.query(prepared(content.table === 'listings' ? DELETE_FILE_LISTINGS : DELETE_FILE_HOLDINGS, [file.path]));
      for (const columns of batches) await client.query(prepared(bulk.sql, columns));
      if (content.table === 'listings') await client.query(prepared(UPSERT_META, [LISTINGS_VERSION_KEY, randomUUID()]));
      await client.query(prepared(UPSERT_FILE, [file.path, file.signature]));
    });
  }

  async report({ market, ticker, snapshotDate, screenedAt }: SnapshotStamp): Promise<StoredReport | undefined> {
    return storedReportOf(market, ticker, (await this.all(SELECT_REPORT, [market, ticker, snapshotDate, screenedAt]))[0]);
  }

  async reportStamps(keys: readonly TickerKey[]): Promise<Array<StoredReportStamp | undefined>> {
    const out: Array<StoredReportStamp | undefined> = keys.map(() => undefined);
    if (keys.length === 0) return out;
    const found = await this.all(SELECT_REPORT_STAMPS, [keys.map((k) => k.market), keys.map((k) => k.ticker)]);
    for (const record of found) {
      const { market, ticker } = keys[Number(record.i) - 1]!;
      out[Number(record.i) - 1] = reportStampOf(market, ticker, record);
    }
    return out;
  }

  async writeReports(reports: readonly StoredReport[]): Promise<void> {
    if (reports.length === 0) return;
    const batches = reportColumns(reports);
    await inTransaction(this.pool, async (client) => {
      for (const columns of batches) await client.query(prepared(BULK_REPORTS, columns));
    });
  }

  async texts(): Promise<Map<string, string>> {
    return new Map((await this.all(SELECT_TEXTS, [])).map((r) => [String(r.text_id), String(r.text)]));
  }

  async listings(): Promise<ServingListing[]> {
    return listingsOf(await this.all(SELECT_LISTINGS, []));
  }

  async fundHoldings(fundMarket: string, fundTicker: string, limit: number): Promise<FundHoldings | undefined> {
    return fundHoldingsOf(
      fundMarket,
      fundTicker,
      await this.all(SELECT_FUND_HOLDINGS, [fundMarket, fundTicker, fundMarket, fundTicker]),
      limit,
    );
  }

  async meta(key: string): Promise<string | undefined> {
    const record = (await this.all(SELECT_META, [key]))[0];
    return record === undefined ? undefined : String(record.value);
  }

  async setMeta(key: string, value: string): Promise<void> {
    await this.pool.query(prepared(UPSERT_META, [key, value]));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }
}
