import { Piscina } from 'piscina';
import type { ServingTarget } from '../serving/open-serving-store.ts';
import type { UniversePartsFromThread, UniverseTask } from './api-reads-universe-thread.ts';
import { UniverseIndex, listingsOfColumns } from './api-reads-universe.ts';

/**
 * Rebuilds the universe index off the event loop when listings are republished (docs/serving.md,
 * "Current verdicts"): the listings query and the index's folding, sorting and
 * posting lists run in a worker thread, and the event loop only wraps the parts it hands back
 * (its typed arrays transferred, not copied; the listings as one array per field, which decode
 * far faster than one object each) before the reads swap to the new index in one step.
 * The thread starts per build and is ended before the index is handed back (the start's build
 * and a rebuild about once a day when listings change): its store connection and heap, a few
 * hundred MiB at the start, are not kept while the API serves.
 */
export class UniverseBuilder {
  /** The pool of the build under way (one thread), if any. */
  private pool: Piscina<UniverseTask, UniversePartsFromThread> | null = null;
  /** Set by `close`: a reload that reaches `build` after it (its listings scan was in flight) starts no thread. */
  private closing: Promise<void> | null = null;
  /** The build under way, thread ended included, if any. */
  private running: Promise<unknown> = Promise.resolve();

  async build(target: ServingTarget): Promise<UniverseIndex> {
    if (this.closing) throw new Error('the universe index is not rebuilt: the API reads are closing');
    const start = () => {
      const pool = new Piscina<UniverseTask, UniversePartsFromThread>({
        filename: new URL('./api-reads-universe-thread-entry.mjs', import.meta.url).href,
        execArgv: [],
        minThreads: 0,
        maxThreads: 1,
      });
      this.pool = pool;
      return pool
        .run({ target })
        .finally(() => pool.destroy())
        .finally(() => {
          if (this.pool === pool) this.pool = null;
        });
    };
    // One build at a time: a reload asked for while one runs starts its thread after it (and a close waits for both).
    const built = this.pool === null ? start() : this.running.then(start);
    this.running = built.catch(() => undefined);
    const parts = await built;
    return new UniverseIndex({ ...parts, listings: listingsOfColumns(parts.listings) });
  }

  /**
   * Waits for a running build and its thread's end (a thread stopped inside the store's native
   * code would abort the process); builds asked for after this are refused.
   */
  close(): Promise<void> {
    this.closing ??= this.running.then(() => undefined);
    return this.closing;
  }

  /** How many threads the builder runs now (one during a build, none after it or once closed). */
  threads(): number {
    return this.pool?.threads.length ?? 0;
  }
}
