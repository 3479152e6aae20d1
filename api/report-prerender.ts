import { inLanes } from '../common/lanes.ts';
import type { VerdictRow } from '../reads/api-reads-types.ts';
import { PRERENDERED_FRAMEWORKS, RENDER_VERSION, storableReport } from '../serving/default-report.ts';
import { decompressResult } from '../serving/serving-codec.ts';
import type { StoredReport, StoredReportStamp } from '../serving/serving-types.ts';
import type { Logger } from 'pino';
import type { ApiReads } from '../reads/api-reads.ts';
import { resultSources, type ReportRenderer } from './report-renderer.ts';

/**
 * Pre-rendered default reports (docs/serving.md, "Pre-rendered reports"): an API renders each
 * current row's default report in its render threads while they are idle and keeps it in the
 * serving store, so a cold screen of that selection is one read and one decompression, on every
 * replica and after a restart.
 */

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
  /**
   * Reports rendered per turn while requests ask for reports (default 0: none). Each costs a result
   * read and a store write on the event loop, where a write can wait for a checkpoint; requests
   * render what they ask for meanwhile.
   */
  batch?: number;
  /** Reports rendered per turn when no request asked for one since the last turn (default 64): catching up while idle. */
  idleBatch?: number;
  /** Waiting tickers checked per turn (default 256). */
  scan?: number;
  /**
   * Renders in flight at once (default 1: a request that comes during a turn waits for one
   * render at most). `faithscreen serving render` runs one per render thread.
   */
  concurrency?: number;
  /**
   * Replace a stored report of the row's snapshot rendered by another release (default false:
   * see `wanted`). `faithscreen serving render` sets it: a deploy's step.
   */
  replaceOtherVersions?: boolean;
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
  /** Tickers whose report failed to render or store since start, with why (the newest 100). */
  readonly failures: Array<{ market: string; ticker: string; error: unknown }> = [];
  /** Requests the app had taken when this prerenderer's last turn began (-1 before the first): more now means requests are coming. */
  private requestsBefore = -1;
  /** When the change feed last brought tickers (`performance.now()`, immune to clock steps; -Infinity: never). */
  private lastChangeAt = -Infinity;

  constructor(
    private readonly service: { reads: ApiReads; renderer: ReportRenderer; requestsSeen: number; logger?: Logger | undefined },
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

  /**
   * Whether a ticker's report is to be rendered: none of its snapshot, or of this version naming
   * another company (a rename). One of its snapshot by another release's rendering is left alone
   * (`replaceOtherVersions` aside): while two releases' APIs share a store, neither overwrites
   * the other's reports back and forth; the next screen, or `faithscreen serving render` of the
   * release taking over, replaces them, and requests render meanwhile.
   */
  private wanted(stamp: StoredReportStamp | undefined, companyName: string): boolean {
    if (stamp === undefined) return true;
    if (stamp.version !== RENDER_VERSION) {
      if (this.options.replaceOtherVersions === true) return true;
      this.otherRelease += 1;
      return false;
    }
    return stamp.companyName !== companyName;
  }

  /** Stored reports of current verdicts found rendered by another release since start (left alone: `wanted`). */
  otherReleaseReports(): number {
    return this.otherRelease;
  }

  private otherRelease = 0;
  /** `otherRelease` when the operator was last told of it. */
  private otherReleaseTold = 0;

  /** Tickers (or stores of a batch) that failed since start. */
  failedCount = 0;

  /** Once every waiting ticker has been checked: says how many reports another release rendered, and what ends that. */
  private tellOfOtherRelease(): void {
    if (this.pending.size > 0 || this.otherRelease === this.otherReleaseTold) return;
    this.service.logger?.warn(
      { reports: this.otherRelease - this.otherReleaseTold, render_version: RENDER_VERSION },
      'stored reports rendered by another release: requests render their own until `faithscreen serving render` or the next screen replaces them',
    );
    this.otherReleaseTold = this.otherRelease;
  }

  private failed(row: VerdictRow | null, error: unknown): void {
    this.failedCount += 1;
    if (this.failures.length >= 100) this.failures.shift();
    this.failures.push({ market: row?.market ?? '', ticker: row?.ticker ?? '', error });
    this.service.logger?.warn({ err: error, market: row?.market, ticker: row?.ticker }, 'pre-rendering default reports failed');
  }

  private companyName(row: VerdictRow): string {
    return this.service.reads.listing(row.market, row.ticker)?.name ?? '';
  }

  /**
   * One turn: checks up to `scan` waiting tickers with one store read of what their stored
   * reports are (not the reports), then renders up to `batch` of those it wants (`wanted`: none
   * of this snapshot, or a rename); the rest wait for the next turn. A start queues every ticker, so a
   * turn is bounded by what it checks as much as by what it renders. The rendering is the
   * render threads', so it waits behind no request; while requests come, a turn does nothing by
   * default (`batch`), since its reads and its write are the event loop's. While a screen
   * is publishing (the feed moved current verdicts within `quietMs`) no turn runs: the API runs
   * at a higher priority than the worker, and its renders would slow the screen they follow.
   */
  async turn(): Promise<void> {
    if (this.running || this.pending.size === 0 || this.service.renderer.waiting() > 0) return;
    if (performance.now() - this.lastChangeAt < (this.options.quietMs ?? 5_000)) return;
    this.running = true;
    try {
      // Any request since the last turn (a screen, a health check): the event loop is serving.
      const asked = this.service.requestsSeen;
      const requestsComing = asked !== this.requestsBefore;
      this.requestsBefore = asked;
      const size = requestsComing ? (this.options.batch ?? 0) : (this.options.idleBatch ?? 64);
      if (size === 0) return;
      const scanned: VerdictRow[] = [];
      for (const [key, { market, ticker }] of this.pending) {
        this.pending.delete(key);
        const row = this.service.reads.current(market, ticker);
        if (row) scanned.push(row);
        if (scanned.length >= (this.options.scan ?? 256)) break;
      }
      const stamps = await this.service.reads.prerenderedStamps(scanned);
      const unservable = scanned.filter((row, i) => this.wanted(stamps[i], this.companyName(row)));
      const batch = unservable.slice(0, size);
      for (const { market, ticker } of unservable.slice(batch.length)) this.pending.set(`${market}\u0000${ticker}`, { market, ticker });
      this.tellOfOtherRelease();
      if (batch.length === 0) return;
      const sources = await resultSources(this.service.reads, this.service.renderer, batch);
      const tasks = batch.map((row, i) => {
        const companyName = this.companyName(row);
        const task = {
          ...sources[i]!,
          frameworks: PRERENDERED_FRAMEWORKS,
          snapshot: { snapshotDate: row.snapshotDate, screenedAt: row.screenedAt, source: row.source },
          companyName,
        };
        return async () => storableReport(row, companyName, await this.service.renderer.render(task));
      });
      // Each render settles alone: one that fails (a result the store refuses) leaves the others to be stored.
      const reports: StoredReport[] = [];
      await inLanes(tasks.length, this.options.concurrency ?? 1, async (i) => {
        try {
          reports.push(await tasks[i]!());
        } catch (error) {
          this.failed(batch[i]!, error);
        }
      });
      await this.service.reads.storeReports(reports);
      this.rendered += reports.length;
    } catch (error) {
      // A store failure leaves those tickers to render on request; the next publish queues them again.
      this.failed(null, error);
    } finally {
      this.running = false;
    }
  }
}
