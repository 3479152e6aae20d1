import { randomBytes } from 'node:crypto';
import type { DuckDBConnection, DuckDBInstance, DuckDBResult } from '@duckdb/node-api';
import type { RawSnapshot } from './api-reads-store.ts';
import { INDEX_COLUMNS, currentPickSql, currentRowsSql, listingsSql } from './api-reads-sql.ts';
import type { Listing } from './api-reads-types.ts';
import { openDuckDB } from '../duckdb.ts';
import { SNAPSHOT_RATIOS } from '../lake-schemas.ts';
import { rawSql, readSql, runSql, sql, streamSql } from '../sql.ts';

/**
 * A few reusable DuckDB connections on one in-memory instance with a bounded memory budget. At
 * most `maxActive` queries run at once (the rest wait their turn), so concurrent reads cannot
 * together exceed the memory limit (docs/serving.md, "Reads under load").
 */
export class ConnectionPool {
  private readonly idle: DuckDBConnection[] = [];
  private readonly turns: Array<() => void> = [];
  private active = 0;

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly maxActive: number,
  ) {}

  /**
   * `metadataCache` keeps each Parquet file's footer in memory after its first read: right for
   * the point reads (every as_of re-reads the same footers), wrong for a one-off pass over every
   * file of a long history (thousands of footers held for nothing).
   */
  static async open(options: { maxActive?: number; memoryLimitMiB?: number; metadataCache?: boolean } = {}): Promise<ConnectionPool> {
    const instance = await openDuckDB(':memory:', { threads: 2 });
    const pool = new ConnectionPool(instance, Math.max(1, options.maxActive ?? 2));
    // No external file cache: it would keep read Parquet pages in DuckDB's memory, up to the limit, for files the OS already caches.
    await pool.use((c) =>
      c.run(
        `SET memory_limit = '${options.memoryLimitMiB ?? 384}MB'; SET parquet_metadata_cache = ${options.metadataCache ?? true};
         SET enable_external_file_cache = false`,
      ),
    );
    return pool;
  }

  async use<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    if (this.active >= this.maxActive) await new Promise<void>((resolve) => this.turns.push(resolve));
    else this.active += 1;
    try {
      const connection = this.idle.pop() ?? (await this.instance.connect());
      try {
        return await work(connection);
      } finally {
        if (this.idle.length < 4) this.idle.push(connection);
        else connection.closeSync();
      }
    } finally {
      // Hand the slot straight to the next waiter, or free it.
      const next = this.turns.shift();
      if (next) next();
      else this.active -= 1;
    }
  }

  close(): void {
    for (const connection of this.idle.splice(0)) connection.closeSync();
    this.instance.closeSync();
  }
}

const RATIO_OFFSET = INDEX_COLUMNS.indexOf(SNAPSHOT_RATIOS[0]);
const COLUMN = Object.fromEntries(INDEX_COLUMNS.map((name, i) => [name, i])) as Record<(typeof INDEX_COLUMNS)[number], number>;
const FIRST_DAY = INDEX_COLUMNS.length;

/** Row `i` of a result chunk of `snapshotIndexSql` (optionally followed by `first_day`). */
function rawOf(columns: ReadonlyArray<ReadonlyArray<unknown>>, i: number, withFirstDay: boolean): RawSnapshot {
  const col = (name: keyof typeof COLUMN) => columns[COLUMN[name]]!;
  return {
    market: String(col('market')[i]),
    ticker: String(col('ticker')[i]),
    day: Number(col('day')[i]),
    screenedAtMs: Number(col('at_ms')[i]),
    statusBits: Number(col('bits')[i]),
    ratios: SNAPSHOT_RATIOS.map((_, r) => {
      const value = columns[RATIO_OFFSET + r]![i];
      return value === null || value === undefined ? null : Number(value);
    }),
    source: String(col('source')[i]),
    dataSource: String(col('data_source')[i]),
    synthetic: col('synthetic')[i] === true,
    file: String(col('file')[i]),
    ...(withFirstDay ? { firstDay: Number(columns[FIRST_DAY]![i]) } : {}),
  };
}

/** Reads a streamed result's rows of `snapshotIndexSql` chunk by chunk (no full result in memory). */
export async function streamRows(result: DuckDBResult, withFirstDay: boolean, each: (raw: RawSnapshot) => void): Promise<number> {
  let rows = 0;
  for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    const columns = chunk.getColumns();
    for (let i = 0; i < chunk.rowCount; i += 1) each(rawOf(columns, i, withFirstDay));
    rows += chunk.rowCount;
  }
  return rows;
}

/**
 * Hands each ticker's newest snapshot in `files` (with its first day) to `each`. Two steps in
 * DuckDB: the key columns of every row pick the newest row and its file, then only those rows'
 * index columns are read. What reaches JavaScript grows with the universe, not with history.
 * Runs in a load thread (`api-reads-load-thread.ts`): decoding the rows is JavaScript work.
 */
export async function streamCurrent(
  connection: DuckDBConnection,
  files: readonly string[],
  each: (raw: RawSnapshot) => void,
): Promise<void> {
  if (files.length === 0) return;
  const picks = `current_pick_${randomBytes(4).toString('hex')}`;
  await runSql(connection, sql`CREATE TEMP TABLE ${rawSql(picks)} AS ${currentPickSql(files)}`);
  try {
    const winners = (await connection.runAndReadAll(`SELECT DISTINCT file FROM ${picks}`)).getRowsJS().map(([file]) => String(file));
    if (winners.length === 0) return;
    await streamRows(await streamSql(connection, currentRowsSql(picks, winners)), true, each);
  } finally {
    await connection.run(`DROP TABLE IF EXISTS ${picks}`);
  }
}

/** Every listing of the universe. */
export async function loadListings(pool: ConnectionPool, dataDir: string): Promise<Listing[]> {
  return pool.use(async (connection) => {
    const reader = await readSql(connection, listingsSql(dataDir));
    return listingsOfRows(reader.getRowsJS());
  });
}

/** Listings from the rows of `listingsSql`. */
export function listingsOfRows(rows: unknown[][]): Listing[] {
  return rows.map(([market, ticker, name, exchange, kind, currency]) => ({
    market: String(market),
    ticker: String(ticker),
    name: String(name ?? ticker),
    exchange: String(exchange),
    kind: String(kind),
    currency: String(currency),
  }));
}
