import { dayNumber, utcDay } from '../../engine/dates.ts';
import type { FrameworkId, ScreeningResult } from '../../engine/index.ts';
import type { VerdictRow } from '../../reads/api-reads-types.ts';
import { notFound, readsSaturated, serviceUnavailable, tickerIsAFund } from '../../common/app-error.ts';
import { RefreshUnavailableError, TickerNotListedError, type BackgroundRefresh } from '../refresher.ts';
import { type RefreshedScreen } from '../../warehouse/snapshot-schema.ts';
import type { ScreenService } from '../screen-service.ts';
import type { SnapshotIdentity } from '../../serving/screen-report.ts';
import type { RenderTask } from '../report-render-thread.ts';
import { ReadsSaturatedError, resultSources } from '../report-renderer.ts';
import { isPrerenderedSelection, renderReportJson } from '../../serving/default-report.ts';
import { storedReportJson } from '../report-prerender.ts';

export interface ScreenRequest {
  market: string;
  ticker: string;
  forceRefresh: boolean;
}

/** Which snapshot answers a screen request, and how fresh it is. */
export interface ScreenOutcome {
  market: string;
  ticker: string;
  row: VerdictRow;
  companyName: string;
  fromCache: boolean;
  stale: boolean;
  /** Whole days between the snapshot's date and today (UTC). */
  cacheAgeDays: number;
  /** Only for stale data: whether a background re-screen is running or could not start. */
  refresh?: BackgroundRefresh;
}

function ageInDays(snapshotDate: string, now: Date): number {
  return Math.max(0, dayNumber(utcDay(now)) - dayNumber(snapshotDate));
}

/** Re-screens through the refresher and records the new snapshot; 404 / 503 when it cannot. */
async function rescreen(service: ScreenService, market: string, ticker: string): Promise<VerdictRow> {
  try {
    return await rescreenOrRefreshError(service, market, ticker);
  } catch (error) {
    if (error instanceof RefreshUnavailableError && error.started)
      throw serviceUnavailable(
        `${market}/${ticker} is being re-screened: ${error.message}. This request is charged, since the re-screen it started goes on`,
        'refresh_pending',
        5,
      );
    if (error instanceof RefreshUnavailableError) {
      throw serviceUnavailable(`${market}/${ticker} could not be re-screened now: ${error.message}`, 'refresh_unavailable');
    }
    throw error;
  }
}

/** As `rescreen`, but a refresh that cannot run stays a RefreshUnavailableError for the caller to handle. */
async function rescreenOrRefreshError(service: ScreenService, market: string, ticker: string): Promise<VerdictRow> {
  let screen: RefreshedScreen;
  try {
    screen = await service.refresher.refresh(market, ticker);
  } catch (error) {
    if (error instanceof TickerNotListedError) throw notFound(`ticker '${ticker}' is not listed in market '${market}'`, 'ticker_not_found');
    throw error;
  }
  const result = screen.result;
  const row = service.reads.remember({ ...screen, market });
  service.results.set(identity(row), result);
  return row;
}

/**
 * The cache policy (docs/api.md, "Cache"): fresh (≤ CACHE_FRESH_DAYS) is served from the warehouse; stale
 * inside the stale-while-revalidate window is served with `stale: true` while one deduplicated
 * refresh runs; older or never screened is re-screened; `force_refresh` always re-screens.
 * When a re-screen cannot run, existing data is still served, marked stale, saying so.
 */
export async function serveScreen(service: ScreenService, request: ScreenRequest): Promise<ScreenOutcome> {
  const { market, ticker } = request;
  const listing = service.reads.listing(market, ticker);
  const current = service.reads.current(market, ticker);
  if (!listing && !current) {
    throw notFound(
      `ticker '${ticker}' is not listed in market '${market}'; look it up with GET /api/universe/search?q=${encodeURIComponent(ticker)}`,
      'ticker_not_found',
    );
  }
  // A fund has no verdict of its own: it is screened through its holdings. Re-screening it as a
  // company would wait on a refresh that has nothing to screen, then answer nothing useful.
  if (listing?.kind === 'fund') throw tickerIsAFund(market, ticker, 'it has no verdict of its own as a company');
  const now = service.now();
  const companyName = listing?.name ?? '';
  const served = (row: VerdictRow, fromCache: boolean, stale: boolean, refresh?: BackgroundRefresh): ScreenOutcome => ({
    market,
    ticker,
    row,
    companyName,
    fromCache,
    stale,
    cacheAgeDays: ageInDays(row.snapshotDate, now),
    ...(refresh ? { refresh } : {}),
  });
  if (request.forceRefresh || !current) return served(await rescreen(service, market, ticker), false, false);
  const age = ageInDays(current.snapshotDate, now);
  if (age <= service.cache.freshDays) return served(current, true, false);
  if (age <= service.cache.staleWhileRevalidateDays) {
    return served(current, true, true, await service.refresher.refreshInBackground(market, ticker));
  }
  try {
    return served(await rescreenOrRefreshError(service, market, ticker), false, false);
  } catch (error) {
    if (!(error instanceof RefreshUnavailableError)) throw error;
    service.logger?.warn({ market, ticker, age }, 'serving data beyond the stale window: re-screen unavailable');
    return served(current, true, true, 'unavailable');
  }
}

function identity(row: VerdictRow): string {
  return `${row.market}/${row.ticker}|${row.snapshotDate}|${row.screenedAt}`;
}

/** Stored results (UTF-8 JSON), read together. */
export async function loadStoredResults(service: ScreenService, rows: readonly VerdictRow[]): Promise<Buffer[]> {
  return service.reads.storedResults(rows);
}

/** The engine's full result of a snapshot (parsed once, then kept in a small LRU). */
export async function loadResult(service: ScreenService, row: VerdictRow): Promise<ScreeningResult> {
  return (await loadResults(service, [row]))[0]!;
}

/** The engine's full results of many snapshots, read together (what the LRU does not hold, from the serving store). */
export async function loadResults(service: ScreenService, rows: readonly VerdictRow[]): Promise<ScreeningResult[]> {
  const results = rows.map((row) => service.results.get(identity(row)));
  const missing = rows.filter((_, i) => results[i] === undefined);
  if (missing.length > 0) {
    const stored = await loadStoredResults(service, missing);
    let next = 0;
    rows.forEach((row, i) => {
      if (results[i] !== undefined) return;
      const result = JSON.parse(stored[next++]!.toString('utf8')) as ScreeningResult;
      service.results.set(identity(row), result);
      results[i] = result;
    });
  }
  return results as ScreeningResult[];
}

/**
 * The report of an outcome as UTF-8 JSON, rendered once per (snapshot, framework selection).
 * `stored` is the stored result when already read (a batch reads them together). A result
 * known parsed (a refresh) renders here; one read from the store renders in a render thread.
 */
export async function reportJson(
  service: ScreenService,
  outcome: ScreenOutcome,
  frameworks: readonly FrameworkId[],
  stored?: Buffer,
): Promise<Buffer> {
  return (
    reportWithoutRead(service, outcome, frameworks) ??
    (await prerenderedReport(service, outcome, frameworks)) ??
    (await renderReport(service, outcome, frameworks, stored))
  );
}

/**
 * The default report as an API pre-rendered it into the serving store (docs/serving.md,
 * "Pre-rendered reports"): one read and one decompression, no render; null for another selection or
 * when none of this snapshot, rendering version and company name is stored. Not cached: spread
 * traffic would only churn the report cache with reports asked for once.
 */
export async function prerenderedReport(
  service: ScreenService,
  outcome: ScreenOutcome,
  frameworks: readonly FrameworkId[],
): Promise<Buffer | null> {
  return isPrerenderedSelection(frameworks) ? storedReportJson(service.reads, outcome.row, outcome.companyName) : null;
}

/**
 * The report rendered from its stored result in a render thread (`stored` when already read;
 * otherwise read from the store now), then cached: for a report `reportWithoutRead` has not got.
 */
export async function renderReport(
  service: ScreenService,
  outcome: ScreenOutcome,
  frameworks: readonly FrameworkId[],
  stored?: Buffer,
): Promise<Buffer> {
  const json = await renderStored(service, outcome, frameworks, stored);
  service.reports.set(reportKey(outcome, frameworks), json);
  return json;
}

/**
 * The report when no stored result has to be read for it: from the report cache, or rendered
 * from a result held parsed (a refresh); null when it must be rendered from its stored result.
 */
export function reportWithoutRead(service: ScreenService, outcome: ScreenOutcome, frameworks: readonly FrameworkId[]): Buffer | null {
  const key = reportKey(outcome, frameworks);
  const cached = service.reports.get(key);
  if (cached !== undefined) return cached;
  const parsed = service.results.get(identity(outcome.row));
  if (!parsed) return null;
  const bytes = renderReportJson(parsed, frameworks, outcome.row, outcome.companyName);
  const json = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  service.reports.set(key, json);
  return json;
}

/**
 * Renders the report in a render thread from its stored result: the one passed, else read by
 * the thread itself from a SQLite store (a cold read then stops that thread, not the event
 * loop), else read here.
 */
async function renderStored(
  service: ScreenService,
  outcome: ScreenOutcome,
  frameworks: readonly FrameworkId[],
  stored?: Buffer,
): Promise<Buffer> {
  const task = { frameworks, snapshot: snapshotOf(outcome.row), companyName: outcome.companyName };
  const source = stored ? { stored } : (await resultSources(service.reads, service.renderer, [outcome.row]))[0]!;
  return render(service, { ...task, ...source });
}

/** A render; a full render queue becomes 503 with `Retry-After`. */
async function render(service: ScreenService, task: RenderTask): Promise<Buffer> {
  try {
    return await service.renderer.render(task);
  } catch (error) {
    if (error instanceof ReadsSaturatedError) throw readsSaturated(error.message, error.retryAfterSeconds);
    throw error;
  }
}

/** The snapshot identity a report names (plain fields: it crosses to a render thread). */
function snapshotOf(row: VerdictRow): SnapshotIdentity {
  return { snapshotDate: row.snapshotDate, screenedAt: row.screenedAt, source: row.source };
}

/** Whether the outcome's report is in the report cache (what the cache-admission tests observe). */
export function reportCached(service: ScreenService, outcome: ScreenOutcome, frameworks: readonly FrameworkId[]): boolean {
  return service.reports.get(reportKey(outcome, frameworks)) !== undefined;
}

function reportKey(outcome: ScreenOutcome, frameworks: readonly FrameworkId[]): string {
  return `${identity(outcome.row)}|${frameworks.join(',')}|${outcome.companyName}`;
}

/**
 * The screen response (docs/api.md) as UTF-8 JSON: `ticker, market, report, from_cache,
 * cache_age_days, stale` (+ `refresh`), the rendered report's bytes copied in as they are.
 */
export async function screenResponseJson(
  service: ScreenService,
  outcome: ScreenOutcome,
  frameworks: readonly FrameworkId[],
  stored?: Buffer,
): Promise<Buffer> {
  return screenResponseAround(outcome, await reportJson(service, outcome, frameworks, stored));
}

/** The screen response of an outcome around its report's bytes. */
export function screenResponseAround(outcome: ScreenOutcome, report: Buffer): Buffer {
  const refresh = outcome.refresh ? `,"refresh":"${outcome.refresh}"` : '';
  return Buffer.concat([
    Buffer.from(`{"ticker":${JSON.stringify(outcome.ticker)},"market":${JSON.stringify(outcome.market)},"report":`),
    report,
    Buffer.from(`,"from_cache":${outcome.fromCache},"cache_age_days":${outcome.cacheAgeDays},"stale":${outcome.stale}${refresh}}`),
  ]);
}
