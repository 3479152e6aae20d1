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
 * The thread starts per rebuild and ends after it (listings change about once a day), so its
 * store connection and heap are not kept.
 */
export class UniverseBuilder {
  private pool: Piscina<UniverseTask, UniversePartsFromThread> | null = null;
  /** Set by `close`: a reload that reaches `build` after it (its listings scan was in flight) starts no thread. */
  private closing: Promise<void> | null = null;
  /** The build under way, if any: the pool's own close does not wait for a task its thread has not yet picked up. */
  private running: Promise<unknown> = Promise.resolve();

  async build(target: ServingTarget): Promise<UniverseIndex> {
    if (this.closing) throw new Error('the universe index is not rebuilt: the API reads are closing');
    this.pool ??= new Piscina({
      filename: new URL('./api-reads-universe-thread-entry.mjs', import.meta.url).href,
      execArgv: [],
      minThreads: 0,
      maxThreads: 1,
      idleTimeout: 1_000,
    });
    const run = this.pool.run({ target });
    this.running = run.catch(() => undefined);
    const parts = await run;
    return new UniverseIndex({ ...parts, listings: listingsOfColumns(parts.listings) });
  }

  /**
   * Waits for a running build (a thread stopped inside the store's native code would abort the
   * process), then ends the thread at once rather than at its idle timeout; builds asked for
   * after this are refused.
   */
  close(): Promise<void> {
    this.closing ??= this.running.then(() => this.pool?.close());
    return this.closing;
  }

  /** How many threads the builder runs now (one during a rebuild and for its idle timeout after, none once closed). */
  threads(): number {
    return this.pool?.threads.length ?? 0;
  }
}
