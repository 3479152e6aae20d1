import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopeFrameworks } from '../../api/access-scope.ts';
import { UNSCOPED_KEY_FRAMEWORKS } from '../../common/grants.ts';
import { unavailableRefresher } from '../../api/refresher.ts';
import type { PrerenderOptions, ReportPrerenderer } from '../../api/report-prerender.ts';
import { RENDER_VERSION } from '../../serving/default-report.ts';
import { inlineReportRenderer } from '../../api/report-renderer.ts';
import { createScreenService } from '../../api/screen-service.ts';
import { openApiReads, type ApiReads } from '../../reads/api-reads.ts';
import { openServingStore, servingTargetOf } from '../../serving/open-serving-store.ts';
import { ResultGrouper } from '../../serving/result-grouper.ts';
import type { TickerKey } from '../../serving/serving-types.ts';
import { servingRow } from '../support/serving-rows.ts';
import { buildLake, type FixtureTickers } from './support/lake-fixture.ts';
import { listen } from '../support/http.ts';
import { countingRenderer, screenApp } from './support/screen-app.ts';
import { makeTempDir } from '../support/temp-dir.ts';

/** What a key without a framework scope of its own asks for when it names no framework (the pre-rendered selection). */
const UNSCOPED_KEY_DEFAULT = `?framework=${UNSCOPED_KEY_FRAMEWORKS.join(',')}`;

/** SYNTHETIC sample universe; reports pre-rendered into the serving store by a background prerenderer. */
describe('pre-rendered default reports in the serving store', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let t: FixtureTickers;
  let reads: ApiReads;

  /** Every fresh ticker's default screen body from a fresh app (cold caches), and how many renders it took. */
  async function bodies(tickers: readonly string[], query = UNSCOPED_KEY_DEFAULT): Promise<{ texts: string[]; renders: number }> {
    const counter = countingRenderer();
    const app = screenApp(reads, { renderer: counter.renderer });
    const server = await listen(app);
    try {
      const texts = await Promise.all(tickers.map(async (ticker) => (await fetch(`${server.url}/api/screen/us/${ticker}${query}`)).text()));
      return { texts, renders: counter.renders() };
    } finally {
      await server.close();
    }
  }

  /** A screen service whose prerenderer starts with every current ticker waiting. */
  function prerenderingService(prerenderReports: PrerenderOptions) {
    return createScreenService({
      reads,
      refresher: unavailableRefresher,
      cache: { freshDays: 1, staleWhileRevalidateDays: 7 },
      renderer: inlineReportRenderer,
      prerenderReports,
    });
  }

  /** Runs a prerenderer until nothing waits, then stops it; returns what it did. */
  async function prerenderEverything(options: PrerenderOptions = {}): Promise<{ rendered: number; pending: number; otherRelease: number }> {
    const service = prerenderingService({ batch: 64, intervalMs: 10, quietMs: 0, ...options });
    const started = Date.now();
    while (service.prerenderer!.stats().pending > 0 && Date.now() - started < 60_000)
      await new Promise((resolve) => setTimeout(resolve, 20));
    await service.prerenderer!.turn();
    service.prerenderer!.stop();
    return { ...service.prerenderer!.stats(), otherRelease: service.prerenderer!.otherReleaseReports() };
  }

  /** A prerenderer that only turns when the test calls `turn()` (5 tickers checked a turn), stopped after `body`. */
  async function withTurnedPrerenderer(quietMs: number, body: (prerenderer: ReportPrerenderer) => Promise<void>): Promise<void> {
    const prerenderer = prerenderingService({ batch: 64, scan: 5, intervalMs: 600_000, quietMs }).prerenderer!;
    try {
      await body(prerenderer);
    } finally {
      prerenderer.stop();
    }
  }

  beforeAll(async () => {
    temp = await makeTempDir();
    t = await buildLake(temp.dir);
    reads = await openApiReads({ dataDir: temp.dir, followIntervalMs: 0 });
  }, 180_000);
  afterAll(async () => {
    await reads?.close();
    await temp?.cleanup();
  });

  it('when the prerenderer has run, then a cold default screen is answered without a render, byte for byte the rendered report; other selections render', async () => {
    expect(scopeFrameworks(null, { allowedFrameworks: [...UNSCOPED_KEY_FRAMEWORKS], allowedMarkets: null })).toEqual(
      UNSCOPED_KEY_FRAMEWORKS,
    );
    const tickers = t.fresh.slice(0, 12);
    const rendered = await bodies(tickers);
    expect(rendered.renders).toBe(tickers.length);

    const stats = await prerenderEverything();
    expect(stats.rendered).toBeGreaterThanOrEqual(tickers.length);

    const served = await bodies(tickers);
    expect(served.renders).toBe(0);
    expect(served.texts).toEqual(rendered.texts);
    // Another selection is rendered, as before.
    expect((await bodies(tickers.slice(0, 3), '?framework=shariah_aaoifi')).renders).toBe(3);
  }, 120_000);

  it('when every ticker waits (a start), then a turn checks at most `scan` of them and renders none already stored', async () => {
    await withTurnedPrerenderer(0, async (prerenderer) => {
      const waiting = prerenderer.stats().pending;
      expect(waiting).toBeGreaterThan(10);
      await prerenderer.turn();
      expect(prerenderer.stats()).toEqual({ rendered: 0, pending: waiting - 5 });
    });
  }, 60_000);

  it('when the change feed brought tickers within the quiet time (a screen still publishing), then a turn neither checks nor renders; once quiet, it does', async () => {
    await withTurnedPrerenderer(400, async (prerenderer) => {
      const waiting = prerenderer.stats().pending;
      expect(waiting).toBeGreaterThan(10);
      // The start brought every ticker: a change as far as the quiet time goes.
      await prerenderer.turn();
      expect(prerenderer.stats()).toEqual({ rendered: 0, pending: waiting });
      await new Promise((resolve) => setTimeout(resolve, 450));
      await prerenderer.turn();
      expect(prerenderer.stats().pending).toBe(waiting - 5);
    });
  }, 60_000);

  it('when the stored report is of another rendering version or names another company, then it is not served; a rename is stored again, another release’s report only by a deploy’s render', async () => {
    const [byVersion, byName] = t.fresh.slice(0, 2) as [string, string];
    for (const [ticker, change] of [
      [byVersion, { version: 'an older rendering' }],
      [byName, { companyName: 'A Renamed Company' }],
    ] as const) {
      const row = reads.current('us', ticker)!;
      const stored = (await reads.prerenderedReport(row))!;
      expect(stored.version).toBe(RENDER_VERSION);
      await reads.storeReports([{ ...stored, ...change }]);
    }
    const again = await bodies([byVersion, byName, t.fresh[2]!]);
    expect(again.renders).toBe(2);

    // An API's prerenderer stores the rename again and leaves the other release's report: two releases sharing a store
    // would otherwise overwrite each other's reports back and forth.
    expect(await prerenderEverything()).toMatchObject({ rendered: 1, otherRelease: 1 });
    expect((await bodies([byVersion, byName])).renders).toBe(1);
    // A deploy's `faithscreen serving render` replaces it; then both are served.
    expect((await prerenderEverything({ replaceOtherVersions: true })).rendered).toBe(1);
    expect((await bodies([byVersion, byName])).renders).toBe(0);
  }, 60_000);
  // Last: it writes a newer day of one ticker into the shared store.
  it('when the feed brings a day of history, then the quiet time runs on and no listener hears of it; when it moves a current verdict, then the next turn waits', async () => {
    const ticker = t.fresh.at(-1)!;
    const current = reads.current('us', ticker)!;
    const store = await openServingStore(servingTargetOf(temp.dir));
    const write = async (snapshotDate: string) => {
      const grouper = new ResultGrouper();
      grouper.add(servingRow(ticker, snapshotDate, new Date().toISOString().slice(0, 23)), Buffer.from('{}'));
      const { snapshots, blocks } = grouper.finish();
      await store.write(snapshots, undefined, blocks);
      await reads.sync();
    };
    const heard: TickerKey[][] = [];
    reads.onCurrentChanged(
      (tickers) => heard.push(tickers),
      () => undefined,
    );
    heard.length = 0;
    try {
      await withTurnedPrerenderer(400, async (prerenderer) => {
        await new Promise((resolve) => setTimeout(resolve, 450));
        const waiting = prerenderer.stats().pending;
        await write('2009-06-30');
        expect(heard).toEqual([]);
        await prerenderer.turn();
        expect(prerenderer.stats().pending).toBe(waiting - 5);

        const nextDay = new Date(Date.parse(`${current.snapshotDate}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
        await write(nextDay);
        expect(heard).toEqual([[{ market: 'us', ticker }]]);
        const before = prerenderer.stats().pending;
        await prerenderer.turn();
        expect(prerenderer.stats().pending).toBe(before);
      });
    } finally {
      await store.close();
    }
  }, 60_000);
});
