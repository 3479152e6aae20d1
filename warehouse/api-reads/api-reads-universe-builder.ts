import { Piscina } from 'piscina';
import type { UniversePartsFromThread, UniverseTask } from './api-reads-universe-thread.ts';
import { UniverseIndex, listingsOfColumns } from './api-reads-universe.ts';

/**
 * Rebuilds the universe index off the event loop when listings are republished (docs/api.md,
 * "How the API follows the lake"): the listings query and the index's folding, sorting and
 * posting lists run in a worker thread, and the event loop only wraps the parts it hands back
 * (its typed arrays transferred, not copied; the listings as one array per field, which decode
 * far faster than one object each) before the reads swap to the new index in one step.
 * The thread starts per rebuild and ends after it (listings change about once a day), so its
 * DuckDB instance and heap are not kept.
 */
export class UniverseBuilder {
  private pool: Piscina<UniverseTask, UniversePartsFromThread> | null = null;

  async build(dataDir: string): Promise<UniverseIndex> {
    this.pool ??= new Piscina({
      filename: new URL('./api-reads-universe-thread-entry.mjs', import.meta.url).href,
      execArgv: [],
      minThreads: 0,
      maxThreads: 1,
      idleTimeout: 1_000,
    });
    const parts = await this.pool.run({ dataDir });
    return new UniverseIndex({ ...parts, listings: listingsOfColumns(parts.listings) });
  }

  /** Waits for a running build (a thread stopped inside DuckDB's native code would abort the process), then stops the thread. */
  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await pool?.close();
  }
}
