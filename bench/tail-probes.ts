/**
 * Where a latency tail comes from, measured in the API's own process while a load runs: how
 * late its event loop ran timers (perf_hooks.monitorEventLoopDelay), the garbage collector's
 * pauses (PerformanceObserver 'gc'), and the time spent in any async step the bench wraps with
 * `timed` (stored-result reads, renders). Delay and pauses are the server's own figures: a busy
 * machine moves them far less than end-to-end latency.
 */
import { constants, createHistogram, monitorEventLoopDelay, PerformanceObserver, type RecordableHistogram } from 'node:perf_hooks';

export interface Percentiles {
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface TailFigures {
  /** How late the event loop ran a 1 ms timer. */
  loopDelay: Percentiles;
  /** Garbage-collection pauses (every kind). */
  gc: Percentiles & { totalMs: number; over5Ms: number; majorCount: number; majorMs: number };
  /** V8 heap in use and external memory (Buffers) when the probe stopped, MiB. */
  heapUsedMiB: number;
  externalMiB: number;
  /** Each wrapped step's duration, by name. */
  steps: Record<string, Percentiles>;
}

const round = (ms: number) => Math.round(ms * 100) / 100;

function summary(h: RecordableHistogram | ReturnType<typeof monitorEventLoopDelay>): Percentiles {
  const ms = (ns: number) => round(ns / 1e6);
  return h.count === 0
    ? { count: 0, p50Ms: 0, p99Ms: 0, maxMs: 0 }
    : { count: h.count, p50Ms: ms(h.percentile(50)), p99Ms: ms(h.percentile(99)), maxMs: ms(h.max) };
}

export interface TailProbe {
  /** Wraps an async step so each call's duration is recorded under `name`. */
  timed<A extends unknown[], R>(name: string, step: (...args: A) => Promise<R>): (...args: A) => Promise<R>;
  /** Stops recording and returns the figures since `startTailProbe`. */
  stop(): TailFigures;
}

/** Starts recording in this process. */
export function startTailProbe(): TailProbe {
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const gc = createHistogram();
  let gcTotal = 0;
  let gcOver5 = 0;
  let majorCount = 0;
  let majorMs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.record(Math.max(1, Math.round(entry.duration * 1e6)));
      gcTotal += entry.duration;
      if (entry.duration > 5) gcOver5 += 1;
      if ((entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
        majorCount += 1;
        majorMs += entry.duration;
      }
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const steps = new Map<string, RecordableHistogram>();
  return {
    timed(name, step) {
      const h = steps.get(name) ?? createHistogram();
      steps.set(name, h);
      return async (...args) => {
        const started = performance.now();
        try {
          return await step(...args);
        } finally {
          h.record(Math.max(1, Math.round((performance.now() - started) * 1e6)));
        }
      };
    },
    stop() {
      loop.disable();
      observer.disconnect();
      const memory = process.memoryUsage();
      return {
        loopDelay: summary(loop),
        gc: { ...summary(gc), totalMs: round(gcTotal), over5Ms: gcOver5, majorCount, majorMs: round(majorMs) },
        heapUsedMiB: Math.round(memory.heapUsed / 2 ** 20),
        externalMiB: Math.round(memory.external / 2 ** 20),
        steps: Object.fromEntries([...steps].map(([name, h]) => [name, summary(h)])),
      };
    },
  };
}

/** The figures as one line. */
export function formatTail(f: TailFigures): string {
  const p = (x: Percentiles) => `p50 ${x.p50Ms} / p99 ${x.p99Ms} / max ${x.maxMs} ms`;
  const steps = Object.entries(f.steps).map(([name, s]) => `; ${name} ${p(s)} (${s.count})`);
  return (
    `event-loop delay ${p(f.loopDelay)}; GC ${f.gc.count} pauses, ${f.gc.totalMs} ms in all, ${p(f.gc)}, ${f.gc.over5Ms} over 5 ms, ` +
    `${f.gc.majorCount} major (${f.gc.majorMs} ms); heap ${f.heapUsedMiB} MiB, external ${f.externalMiB} MiB` +
    steps.join('')
  );
}
