import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { UNSCOPED_KEY_FRAMEWORKS } from '../common/grants.ts';
import type { FrameworkId } from '../engine/index.ts';
import type { VerdictRow } from '../reads/api-reads-types.ts';
import { compressResult, decompressResult, STORED_FORMAT } from '../serving/serving-codec.ts';
import type { StoredReport, StoredReportStamp } from '../serving/serving-types.ts';
import type { Logger } from 'pino';
import type { ApiReads } from '../reads/api-reads.ts';
import type { ReportRenderer } from './report-renderer.ts';

/**
 * Pre-rendered default reports (docs/serving.md, "Pre-rendered reports"): an API renders each
 * current row's default report in its render threads while they are idle and keeps it in the
 * serving store, so a cold screen of that selection is one read and one decompression, on every
 * replica and after a restart.
 */

/** The selection pre-rendered: a screen without `framework` from a key without a framework scope, what nearly every client sends. */
export const PRERENDERED_FRAMEWORKS: readonly FrameworkId[] = UNSCOPED_KEY_FRAMEWORKS;

export function isPrerenderedSelection(frameworks: readonly FrameworkId[]): boolean {
  return frameworks.length === PRERENDERED_FRAMEWORKS.length && frameworks.every((id, i) => id === PRERENDERED_FRAMEWORKS[i]);
}

/**
 * The sources that shape a report's bytes: a change to any of them makes stored reports stale.
 * Not this file: when and how often reports are pre-rendered does not change what they say.
 */
const RENDERING_SOURCES = [
  './use-cases/screen-report.ts',
  './report-render-thread.ts',
  '../engine/filter-frameworks.ts',
  '../engine/frameworks.ts',
];

function renderingDigest(): string {
  try {
    const hash = createHash('sha256');
    for (const file of RENDERING_SOURCES) hash.update(readFileSync(new URL(file, import.meta.url)));
    return hash.digest('hex').slice(0, 16);
  } catch {
    // Unreadable: a version of its own, so no stored report is ever served as this code's.
    return randomUUID();
  }
}

/**
 * The selection, the rendering code as this process loaded them and the format reports are
 * stored in: a stored report of another version is rendered again.
 */
export const RENDER_VERSION = `${PRERENDERED_FRAMEWORKS.join(',')} ${renderingDigest()} ${STORED_FORMAT}`;

/**
 * The stored default report of this snapshot as UTF-8 JSON, or null: none stored, another
 * snapshot's, another rendering version's, or naming another company than the listing's (a
 * report names the listing's company; a rename since the screen renders).
 */
export async function storedReportJson(reads: ApiReads, row: VerdictRow, companyName: string): Promise<Buffer | null> {
  const stored = await reads.prerenderedReport(row);
  return stored && servable(stored, companyName) ? decompressResult(stored.report) : null;
}

/** Whether a stored report of the row's snapshot may be served: this rendering version, and the listing's company name. */
function servable(stamp: StoredReportStamp | undefined, companyName: string): boolean {
  return stamp?.version === RENDER_VERSION && stamp.companyName === companyName;
}

export interface PrerenderOptions {
  /** Reports rendered per turn while requests render too (default 16). */
  batch?: number;
  /** Reports rendered per turn when no request rendered since the last turn (default 64): catching up after a nightly. */
  idleBatch?: number;
  /** Waiting tickers checked per turn (default 256). */
  scan?: number;
  /** Pause between turns (ms, default 100). */
  intervalMs?: number;
  /**
   * Quiet time (ms, default 5000): no report is rendered until the current verdicts have not
   * changed for this long, so a screen still publishing keeps the cores.
   */
  quietMs?: number;
}

/**
 * Renders the default report of every current row the store lacks one for, a batch per turn,
 * only while the render threads have nothing waiting: requests always go first. Started by
 * the API role; replicas sharing a store each skip what another already stored.
 */
export class ReportPrerenderer {
  private readonly pending = new Map<string, { market: string; ticker: string }>();
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private rendered = 0;
  /** Renders the requests had started when this prerenderer's last turn began (-1 before the first): more now means they rendered since. */
  private requestRendersBefore = -1;
  /** When the change feed last brought tickers (`performance.now()`, immune to clock steps; -Infinity: never). */
  private lastChangeAt = -Infinity;

  constructor(
    private readonly service: { reads: ApiReads; renderer: ReportRenderer; logger?: Logger | undefined },
    private readonly options: PrerenderOptions = {},
  ) {}

  start(): void {
    this.service.reads.onCurrentChanged(
      (tickers) => {
        for (const key of tickers) this.pending.set(`${key.market}\u0000${key.ticker}`, key);
        if (tickers.length > 0) this.lastChangeAt = performance.now();
      },
      () => this.stop(),
    );
    this.timer = setInterval(() => void this.turn(), this.options.intervalMs ?? 100);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.pending.clear();
  }

  /** Reports stored since start, and tickers still waiting. */
  stats(): { rendered: number; pending: number } {
    return { rendered: this.rendered, pending: this.pending.size };
  }

  private companyName(row: VerdictRow): string {
    return this.service.reads.listing(row.market, row.ticker)?.name ?? '';
  }

  /**
   * One turn: checks up to `scan` waiting tickers with one store read of what their stored
   * reports are (not the reports), then renders up to `batch` of those the store cannot serve
   * (none of this snapshot, this rendering version and the listing's company name: after a
   * deploy or a rename); the rest wait for the next turn. A start queues every ticker, so a
   * turn is bounded by what it checks as much as by what it renders. The rendering is the
   * render threads', so it waits behind no request and holds none up for long. While a screen
   * is publishing (the feed moved current verdicts within `quietMs`) no turn runs: the API runs
   * at a higher priority than the worker, and its renders would slow the screen they follow.
   */
  async turn(): Promise<void> {
    if (this.running || this.pending.size === 0 || this.service.renderer.waiting() > 0) return;
    if (performance.now() - this.lastChangeAt < (this.options.quietMs ?? 5_000)) return;
    this.running = true;
    try {
      const scanned: VerdictRow[] = [];
      for (const [key, { market, ticker }] of this.pending) {
        this.pending.delete(key);
        const row = this.service.reads.current(market, ticker);
        if (row) scanned.push(row);
        if (scanned.length >= (this.options.scan ?? 256)) break;
      }
      const stamps = await this.service.reads.prerenderedStamps(scanned);
      const unservable = scanned.filter((row, i) => !servable(stamps[i], this.companyName(row)));
      // The renderer counts every render; the prerenderer's own are `this.rendered`.
      const requestRenders = this.service.renderer.started() - this.rendered;
      const requestsRendered = requestRenders !== this.requestRendersBefore;
      this.requestRendersBefore = requestRenders;
      const batch = unservable.slice(0, requestsRendered ? (this.options.batch ?? 16) : (this.options.idleBatch ?? 64));
      for (const { market, ticker } of unservable.slice(batch.length)) this.pending.set(`${market}\u0000${ticker}`, { market, ticker });
      if (batch.length === 0) return;
      const results = await this.service.reads.storedResults(batch);
      const reports: StoredReport[] = [];
      for (const [i, row] of batch.entries()) {
        const stored = results[i]!;
        const companyName = this.companyName(row);
        const json = await this.service.renderer.render({
          stored,
          frameworks: PRERENDERED_FRAMEWORKS,
          snapshot: { snapshotDate: row.snapshotDate, screenedAt: row.screenedAt, source: row.source },
          companyName,
        });
        reports.push({
          market: row.market,
          ticker: row.ticker,
          snapshotDate: row.snapshotDate,
          screenedAt: row.screenedAt,
          companyName,
          version: RENDER_VERSION,
          // Compressed as a stored result is: a report repeats the result dictionary's keys and words.
          report: compressResult(json),
        });
      }
      await this.service.reads.storeReports(reports);
      this.rendered += reports.length;
    } catch (error) {
      // A store or render failure leaves those tickers to render on request; the next publish queues them again.
      this.service.logger?.warn({ err: error }, 'pre-rendering default reports failed');
    } finally {
      this.running = false;
    }
  }
}
