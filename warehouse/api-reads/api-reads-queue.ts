import type { ConnectionPool } from './api-reads-lake.ts';
import { resultJsonBatchSql } from './api-reads-sql.ts';
import { readPrepared } from '../sql.ts';

/** Identity of one snapshot row inside a file: ticker, day number, `screened_at` in epoch ms. */
export interface RowKey {
  ticker: string;
  day: number;
  atMs: number;
}

/** The reads are full: the caller should answer 503 and ask the client to retry after `retryAfterSeconds`. */
export class ReadsSaturatedError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
    this.name = 'ReadsSaturatedError';
  }
}

export interface PointReadLimits {
  /** Queries over the lake at once (each may hold one row group's `result_json` page in memory). Default 1. */
  concurrency?: number;
  /** Row reads waiting for a query; one more is refused with `ReadsSaturatedError`. Default 2,000. */
  maxQueued?: number;
  /** What a refused read tells the client (seconds). Default 1. */
  retryAfterSeconds?: number;
}

interface Waiter {
  key: RowKey;
  resolve: (json: string | null) => void;
  reject: (error: unknown) => void;
}

/** DuckDB's answer when a query would exceed the instance's memory limit. */
function isOutOfMemory(error: unknown): boolean {
  return error instanceof Error && /out of memory/i.test(error.message);
}

export function rowKeyString(key: RowKey): string {
  return `${key.ticker}|${key.day}|${key.atMs}`;
}

/**
 * Point reads of `result_json` from the lake's Parquet files, bounded in concurrency and memory:
 * reads wait in a queue grouped by file, and each query takes every waiting row of one file at
 * once (one scan of the file's pages answers them all, docs/serving.md). When more than `maxQueued`
 * rows wait, new reads are refused with `ReadsSaturatedError` instead of piling up.
 */
export class PointReadQueue {
  private readonly waiting = new Map<string, Waiter[]>();
  private queued = 0;
  private running = 0;
  private queries = 0;
  private readonly concurrency: number;
  private readonly maxQueued: number;
  private readonly retryAfterSeconds: number;

  constructor(
    private readonly pool: ConnectionPool,
    limits: PointReadLimits = {},
  ) {
    this.concurrency = Math.max(1, limits.concurrency ?? 1);
    this.maxQueued = Math.max(0, limits.maxQueued ?? 2_000);
    this.retryAfterSeconds = limits.retryAfterSeconds ?? 1;
  }

  /** Rows waiting for a query. */
  get depth(): number {
    return this.queued;
  }

  /** Queries run so far (each answers every waiting row of one file). */
  get queriesRun(): number {
    return this.queries;
  }

  /** `result_json` of each key in `file` (null where the file has no such row), in the keys' order. */
  readMany(file: string, keys: readonly RowKey[]): Promise<Array<string | null>> {
    if (keys.length === 0) return Promise.resolve([]);
    if (this.queued + keys.length > this.maxQueued) {
      return Promise.reject(
        new ReadsSaturatedError(`${this.queued} snapshot reads are already waiting (limit ${this.maxQueued})`, this.retryAfterSeconds),
      );
    }
    let list = this.waiting.get(file);
    if (!list) this.waiting.set(file, (list = []));
    const promises = keys.map((key) => new Promise<string | null>((resolve, reject) => list.push({ key, resolve, reject })));
    this.queued += keys.length;
    this.pump();
    return Promise.all(promises);
  }

  private pump(): void {
    while (this.running < this.concurrency && this.waiting.size > 0) {
      const [file, waiters] = this.waiting.entries().next().value!;
      this.waiting.delete(file);
      this.queued -= waiters.length;
      this.running += 1;
      this.queries += 1;
      void this.query(file, waiters).finally(() => {
        this.running -= 1;
        this.pump();
      });
    }
  }

  private async query(file: string, waiters: Waiter[]): Promise<void> {
    try {
      const tickers = [...new Set(waiters.map((w) => w.key.ticker))];
      const rows = await this.pool.use(async (c) => (await readPrepared(c, resultJsonBatchSql(file, tickers))).getRowsJS());
      const found = new Map<string, string>();
      // Rows come newest run first: the first of a key wins, as a retried chunk's newest write does.
      for (const [ticker, day, atMs, json] of rows) {
        const key = rowKeyString({ ticker: String(ticker), day: Number(day), atMs: Number(atMs) });
        if (!found.has(key) && typeof json === 'string') found.set(key, json);
      }
      for (const w of waiters) w.resolve(found.get(rowKeyString(w.key)) ?? null);
    } catch (error) {
      const reason = isOutOfMemory(error)
        ? new ReadsSaturatedError('the snapshot reader is out of memory for now', this.retryAfterSeconds)
        : error;
      for (const w of waiters) w.reject(reason);
    }
  }
}
