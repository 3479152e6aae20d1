import type { Logger } from 'pino';
import type { ScreeningResult } from '../engine/index.ts';
import type { ApiReads } from '../reads/api-reads.ts';
import { LruCache } from './lru.ts';
import type { Refresher } from './refresher.ts';
import { ReportPrerenderer, type PrerenderOptions } from './report-prerender.ts';
import { DEFAULT_RENDER_THREADS, inlineReportRenderer, threadedReportRenderer, type ReportRenderer } from './report-renderer.ts';

/** What the platform passes the screening API: the warehouse reads, the refresher and the cache policy. */
export interface ScreenDeps {
  reads: ApiReads;
  refresher: Refresher;
  /** `CACHE_FRESH_DAYS` and `CACHE_STALE_WHILE_REVALIDATE_DAYS` of the config. */
  cache: { freshDays: number; staleWhileRevalidateDays: number };
  /** The clock (tests pin it); defaults to the system clock. */
  now?: () => Date;
  logger?: Logger;
  /** Rendered reports kept in memory (default 4096, about 25 kB each). */
  reportCacheSize?: number;
  /** Worker threads rendering cold reports (default DEFAULT_RENDER_THREADS; 0 renders on the event loop). */
  renderThreads?: number;
  /** A renderer of its own instead of one made from `renderThreads` (benchmarks time it). */
  renderer?: ReportRenderer;
  /** `force_refresh` requests one key may have waiting at once (default 4); beyond, 429. */
  maxRefreshesPerKey?: number;
  /**
   * Render each current row's default report into the serving store while the render threads
   * are idle (docs/serving.md, "Pre-rendered reports"): the API role turns it on; off by default.
   */
  prerenderReports?: boolean | PrerenderOptions;
}

/** The deps plus the process's in-memory caches, shared by every screening use-case. */
export interface ScreenService extends ScreenDeps {
  now: () => Date;
  /** Parsed engine results by snapshot identity. */
  results: LruCache<ScreeningResult>;
  /** Rendered report JSON (UTF-8) by snapshot identity and framework selection. */
  reports: LruCache<Buffer>;
  renderer: ReportRenderer;
  prerenderer: ReportPrerenderer | null;
  /** Requests the app has taken since start, of any route: the pre-renderer yields while it moves. */
  requestsSeen: number;
}

export function createScreenService(deps: ScreenDeps): ScreenService {
  const service: ScreenService = {
    ...deps,
    prerenderer: null,
    requestsSeen: 0,
    now: deps.now ?? (() => new Date()),
    results: new LruCache(512),
    reports: new LruCache(deps.reportCacheSize ?? 4_096),
    renderer:
      deps.renderer ??
      ((deps.renderThreads ?? DEFAULT_RENDER_THREADS) > 0
        ? threadedReportRenderer(deps.renderThreads ?? DEFAULT_RENDER_THREADS)
        : inlineReportRenderer),
  };
  if (deps.prerenderReports) {
    // The pre-renderer renders in these threads from the start, and requests after a nightly need them at once.
    service.renderer.warm?.();
    service.prerenderer = new ReportPrerenderer(service, deps.prerenderReports === true ? {} : deps.prerenderReports);
    service.prerenderer.start();
  }
  return service;
}
