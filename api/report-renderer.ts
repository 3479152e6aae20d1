import { Piscina } from 'piscina';
import renderReport, { type RenderTask } from './report-render-thread.ts';

/** Turns stored results into report JSON text, in worker threads or on the event loop. */
export interface ReportRenderer {
  render(task: RenderTask): Promise<string>;
  close(): Promise<void>;
}

/** Renders on the event loop (tests, or a machine with one core). */
export const inlineReportRenderer: ReportRenderer = {
  render: (task) => Promise.resolve(renderReport(task)),
  close: () => Promise.resolve(),
};

/**
 * Renders in `threads` worker threads (started on first use, stopped when idle). A cold screen
 * parses ~23 kB of stored JSON and writes ~20 kB of report: ~0.7 ms of CPU that, on the event
 * loop, caps spread traffic near 1,000 req/s and queues every other request behind it
 * (docs/api.md, "Reads under load").
 */
export function threadedReportRenderer(threads: number): ReportRenderer {
  let pool: Piscina<RenderTask, string> | null = null;
  return {
    render(task) {
      pool ??= new Piscina({
        filename: new URL('./report-render-thread-entry.mjs', import.meta.url).href,
        execArgv: [],
        minThreads: 0,
        maxThreads: threads,
        idleTimeout: 30_000,
      });
      return pool.run(task);
    },
    async close() {
      await pool?.destroy();
      pool = null;
    },
  };
}
