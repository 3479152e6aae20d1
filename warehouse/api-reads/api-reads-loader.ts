import { Piscina } from 'piscina';
import { applyCurrentBatch, type CurrentBatch } from './api-reads-batch.ts';
import type { LoadTask } from './api-reads-load-thread.ts';
import type { CurrentStore } from './api-reads-store.ts';

/**
 * Reads snapshot files into a `CurrentStore` off the event loop (docs/api.md, "How the API
 * follows the lake"): the query and the decoding of its rows run in a worker thread, and the
 * rows land in the store a few thousand per turn of the event loop, so a publish of a whole
 * universe does not stall requests.
 */
export class CurrentLoader {
  private pool: Piscina<LoadTask, CurrentBatch> | null = null;

  /** Starts the thread ahead of a load (its first start registers tsx and loads DuckDB); errors surface at the load. */
  warm(): void {
    this.threads()
      .run({ files: [] })
      .catch(() => undefined);
  }

  /** Offers each ticker's newest row in `files` to `store`; returns how many current rows changed. */
  async load(files: readonly string[], store: CurrentStore): Promise<number> {
    if (files.length === 0) return 0;
    return applyCurrentBatch(store, await this.threads().run({ files: [...files] }));
  }

  private threads(): Piscina<LoadTask, CurrentBatch> {
    return (this.pool ??= new Piscina({
      filename: new URL('./api-reads-load-thread-entry.mjs', import.meta.url).href,
      execArgv: [],
      // Kept: a publish must be served within 2 s, and starting the thread (tsx, DuckDB) can take longer.
      minThreads: 1,
      maxThreads: 1,
    }));
  }

  /** Waits for the running load (a thread stopped inside DuckDB's native code would abort the process), then stops the thread. */
  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    // The thread keeps its DuckDB instance between loads: closed by a task of its own, not by the thread's end.
    await pool?.run({ files: [], close: true }).catch(() => undefined);
    await pool?.close();
  }
}
