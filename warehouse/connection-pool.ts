import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { openDuckDB } from './duckdb.ts';

/**
 * A few reusable DuckDB connections on one in-memory instance with a bounded memory budget. At
 * most `maxActive` queries run at once (the rest wait their turn), so concurrent reads of the lake
 * cannot together exceed the memory limit.
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
   * reads that come back to the same files (a fund's holdings), wrong for a one-off pass over every
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
