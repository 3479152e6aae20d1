import { Piscina } from 'piscina';
import { applyCurrentBatch, type CurrentBatch } from './api-reads-batch.ts';
import type { LoadTask } from './api-reads-load-thread.ts';
import type { CurrentStore } from './api-reads-store.ts';

/**
 * Snapshot files read by one query of the load thread. One query over every file of a long
 * history holds all their rows at once; a few thousand a query halve that peak at the same speed,
 * while far fewer a query take longer (figures: docs/benchmarks/api-history-length.md, "First
 * start from the lake's copy").
 */
export const FILES_PER_LOAD = 3_000;

/**
 * Reads snapshot files into a `CurrentStore` off the event loop (docs/serving.md, "How the API
 * follows the lake"): the query and the decoding of its rows run in a worker thread, and the
 * rows land in the store a few thousand per turn of the event loop, so a publish of a whole
 * universe does not stall requests.
 */
export class CurrentLoader {
  private pool: Piscina<LoadTask, CurrentBatch> | null = null;
  private loads = 0;

  constructor(private readonly filesPerLoad: number = FILES_PER_LOAD) {}

  /** Queries the load thread has run for `load` (each of at most `filesPerLoad` files). */
  get queries(): number {
    return this.loads;
  }

  /** Starts the thread ahead of a load (its first start registers tsx and loads DuckDB); errors surface at the load. */
  warm(): void {
    this.threads()
      .run({ files: [] })
      .catch(() => undefined);
  }

  /**
   * Offers each ticker's newest row in `files` to `store`, `filesPerLoad` files a query (the
   * store keeps the newest row and the earliest first day whatever the order); returns how many
   * current rows changed.
   */
  async load(files: readonly string[], store: CurrentStore): Promise<number> {
    let changed = 0;
    for (let start = 0; start < files.length; start += this.filesPerLoad) {
      this.loads += 1;
      changed += await applyCurrentBatch(store, await this.threads().run({ files: files.slice(start, start + this.filesPerLoad) }));
    }
    return changed;
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
