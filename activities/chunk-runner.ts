import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { CANCEL, type ChunkThreadTask } from './chunk-thread.ts';
import type { ChunkOutcome, ScreenChunkRequest } from './pipeline-types.ts';
import { screenChunkWork, type ChunkProgress, type ChunkWorkDeps } from './screen-chunk.ts';

/** Where the screenChunk activity does its work. */
export interface ChunkRunner {
  run(request: ScreenChunkRequest, progress: ChunkProgress, signal: AbortSignal): Promise<ChunkOutcome>;
  close(): Promise<void>;
}

/** Runs chunks in the calling thread (tests that decorate the data port, tools). */
export function inlineChunkRunner(deps: ChunkWorkDeps): ChunkRunner {
  return {
    run: (request, progress, signal) =>
      screenChunkWork(deps, request, (detail) => {
        progress(detail);
        signal.throwIfAborted();
      }),
    close: () => Promise.resolve(),
  };
}

export interface ThreadedChunkRunnerOptions {
  dataDir: string;
  /** Chunks screened at once, one worker thread each (match the worker's activity slots). */
  threads: number;
  /** A thread idle this long exits (ms); the next chunk starts a new one. */
  idleTimeoutMs?: number;
  /**
   * Screen every backfill date from scratch and read every snapshot file of a market for its
   * published keys, as before the reuse and the file index (docs/pipelines.md): the benchmark's baseline.
   */
  fromScratch?: boolean;
}

/**
 * Runs each chunk in a worker thread (piscina pool), each with its own DuckDB instance. Screening
 * and building ~20 kB of JSON per listing is JavaScript work: in the activity's own thread two
 * chunks at a time still used one core for it (nightly 63 s in process), in threads 48 s
 * (docs/pipelines.md). A crashed chunk fails the activity, and Temporal retries it.
 *
 * Cancelling is cooperative: the thread stops at its next progress point, as the in-thread runner
 * does. Terminating a thread while DuckDB works in it aborts the whole process, so neither a
 * cancelled chunk nor `close()` ever terminates a busy thread.
 */
export function threadedChunkRunner(options: ThreadedChunkRunnerOptions): ChunkRunner {
  const pool = new Piscina<ChunkThreadTask, ChunkOutcome>({
    // A JavaScript entry that registers tsx in the thread, then loads chunk-thread.ts.
    filename: new URL('./chunk-thread-entry.mjs', import.meta.url).href,
    execArgv: [],
    minThreads: 0,
    maxThreads: options.threads,
    idleTimeout: options.idleTimeoutMs ?? 60_000,
  });
  return {
    async run(request, progress, signal) {
      signal.throwIfAborted();
      const channel = new MessageChannel();
      channel.port1.on('message', (detail: string) => progress(detail));
      const cancel = (): void => channel.port1.postMessage(CANCEL);
      signal.addEventListener('abort', cancel, { once: true });
      try {
        return await pool.run(
          { dataDir: options.dataDir, request, port: channel.port2, fromScratch: options.fromScratch === true },
          { transferList: [channel.port2] },
        );
      } catch (error) {
        // The thread's own error is a copy; the caller expects the signal's reason (Temporal: CancelledFailure).
        if (signal.aborted) throw signal.reason;
        throw error;
      } finally {
        signal.removeEventListener('abort', cancel);
        channel.port1.close();
      }
    },
    /** Waits for running chunks, then stops the threads. */
    close: () => pool.close(),
  };
}
