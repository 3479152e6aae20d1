import type Koa from 'koa';
import pino from 'pino';
import { createApp } from '../../../api/app.ts';
import { createMetrics } from '../../../api/metrics.ts';
import { unavailableRefresher } from '../../../api/refresher.ts';
import { inlineReportRenderer, type ReportRenderer } from '../../../api/report-renderer.ts';
import type { ScreenDeps } from '../../../api/screen-service.ts';
import type { ApiReads } from '../../../reads/api-reads.ts';

/** The Koa app over `reads` with no re-screen available and a one-day fresh window; `screen` adds or overrides screen deps. */
export function screenApp(reads: ApiReads, screen: Partial<ScreenDeps> = {}): Koa {
  return createApp({
    logger: pino({ level: 'silent' }),
    metrics: createMetrics(),
    readiness: {},
    screen: { reads, refresher: unavailableRefresher, cache: { freshDays: 1, staleWhileRevalidateDays: 7 }, ...screen },
  });
}

/** A renderer that counts its renders (on the event loop, as with 0 render threads). */
export function countingRenderer(): { renderer: ReportRenderer; renders: () => number } {
  let renders = 0;
  return {
    renderer: { ...inlineReportRenderer, render: (task) => ((renders += 1), inlineReportRenderer.render(task)) },
    renders: () => renders,
  };
}
