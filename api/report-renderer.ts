import { Piscina } from 'piscina';
import type { ApiReads } from '../reads/api-reads.ts';
import type { VerdictRow } from '../reads/api-reads-types.ts';
import renderReport, { type RenderTask, type ResultSource } from './report-render-thread.ts';

/**
 * Where each row's stored result comes from for `renderer`: the render thread reads it itself
 * where it can (a SQLite store, threaded rendering), off the event loop; the rest are read here, together.
 */
export async function resultSources(reads: ApiReads, renderer: ReportRenderer, rows: readonly VerdictRow[]): Promise<ResultSource[]> {
  const inThread = rows.map((row) => (renderer.threaded ? reads.resultReadInThread(row) : null));
  const here = rows.filter((_, i) => inThread[i] === null);
  const readHere = here.length > 0 ? await reads.storedResults(here) : [];
  return inThread.map((read) => (read ? { read } : { stored: readHere.shift()! }));
}

/** Too many renders wait: the caller answers 503 and asks the client to retry after `retryAfterSeconds`. */
export class ReadsSaturatedError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
    this.name = 'ReadsSaturatedError';
  }
}

/** Turns stored results into report JSON (UTF-8), in worker threads or on the event loop. */
export interface ReportRenderer {
  /** Renders in worker threads (which may then read a stored result themselves), not on the event loop. */
  readonly threaded: boolean;
  /** The report's bytes. Throws `ReadsSaturatedError` when too many renders wait. */
  render(task: RenderTask): Promise<Buffer>;
  /** Renders waiting for a thread (0 when none or inline): background work renders only when nothing waits. */
  waiting(): number;
  /**
   * Starts the render threads now and keeps them (threaded renderers): the API calls it at
   * start, so the first cold reports after a nightly do not wait for threads to boot.
   */
  warm?(): void;
  /** Renders started since the renderer was made (refused ones not counted). */
  started(): number;
  /** Threaded renderers: how long tasks waited for a thread and how long a thread took (post to reply), ms, since the last call. */
  timings?(): RenderTimings;
  close(): Promise<void>;
}

export interface RenderTimings {
  wait: { p50Ms: number; p99Ms: number; maxMs: number };
  run: { p50Ms: number; p99Ms: number; maxMs: number };
}

const EMPTY = { p50Ms: 0, p99Ms: 0, maxMs: 0 };

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Renders on the event loop (tests, or a machine with one core). */
let inlineRenders = 0;
export const inlineReportRenderer: ReportRenderer = {
  threaded: false,
  render: (task) => {
    inlineRenders += 1;
    return Promise.resolve(asBuffer(renderReport(task)));
  },
  waiting: () => 0,
  started: () => inlineRenders,
  close: () => Promise.resolve(),
};

/**
 * The task as sent to a thread: a byte view over part of a larger buffer (Node's pool) is copied
 * to one of its own, since posting a view copies its whole underlying buffer.
 */
function postable(task: RenderTask): RenderTask {
  if (!('stored' in task)) return task;
  const bytes = task.stored;
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) return task;
  return { ...task, stored: new Uint8Array(bytes) };
}

/** Bounds of the render threads' waiting line: one more is refused (the API answers 503 + Retry-After). */
export interface RenderLimits {
  /** Renders waiting for a thread; default 2,000. */
  maxQueued?: number;
  /** Default 1. */
  retryAfterSeconds?: number;
}

/**
 * Render threads an API starts by default. Two, not one: a thread that the OS does not run for a
 * while (2 cores shared with the event loop and the load), or that collects its garbage, then
 * holds up only its own task, not every cold report queued behind it (docs/serving.md, "Reads under load").
 */
export const DEFAULT_RENDER_THREADS = 2;

/**
 * Renders in `threads` worker threads (started on first use or by `warm`, stopped when idle unless warmed). A cold screen
 * parses a stored result and writes its report, CPU that, on the event loop, caps spread
 * traffic and queues every other request behind it (docs/serving.md, "Rendering off the event
 * loop", has the figures). Stored results go in and reports come out as bytes (see `renderReport`).
 */
export function threadedReportRenderer(threads: number, limits: RenderLimits = {}): ReportRenderer {
  const maxQueued = limits.maxQueued ?? 2_000;
  let pool: Piscina<RenderTask, Uint8Array> | null = null;
  let started = 0;
  const open = (minThreads: number) =>
    new Piscina<RenderTask, Uint8Array>({
      filename: new URL('./report-render-thread-entry.mjs', import.meta.url).href,
      execArgv: [],
      minThreads,
      maxThreads: threads,
      idleTimeout: 30_000,
    });
  return {
    threaded: true,
    warm() {
      pool ??= open(threads);
    },
    async render(task) {
      if (pool && pool.queueSize >= maxQueued) {
        throw new ReadsSaturatedError(
          `${pool.queueSize} cold reports are already waiting for a render thread (limit ${maxQueued})`,
          limits.retryAfterSeconds ?? 1,
        );
      }
      pool ??= open(0);
      started += 1;
      return asBuffer(await pool.run(postable(task)));
    },
    waiting() {
      return pool?.queueSize ?? 0;
    },
    started: () => started,
    timings() {
      if (!pool) return { wait: EMPTY, run: EMPTY };
      const { waitTime, runTime } = pool.histogram;
      const ms = (h: typeof waitTime) => ({ p50Ms: h.p50, p99Ms: h.p99, maxMs: h.max });
      const timings = { wait: ms(waitTime), run: ms(runTime) };
      pool.histogram.resetWaitTime();
      pool.histogram.resetRunTime();
      return timings;
    },
    async close() {
      await pool?.destroy();
      pool = null;
    },
  };
}
