import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import renderReport from '../../api/report-render-thread.ts';
import { createLakePipelineData } from '../../activities/lake-pipeline-data.ts';
import { screenChunkWork } from '../../activities/screen-chunk.ts';
import { openApiReads, type ApiReads } from '../../reads/api-reads.ts';
import { PRERENDERED_FRAMEWORKS, RENDER_VERSION } from '../../serving/default-report.ts';
import { sharedServingStore, servingTargetOf } from '../../serving/open-serving-store.ts';
import { decompressResult } from '../../serving/serving-codec.ts';
import { ingestSource } from '../../sources/ingest.ts';
import { TODAY } from '../api/support/lake-fixture.ts';
import { listen } from '../support/http.ts';
import { countingRenderer, screenApp } from '../api/support/screen-app.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const chunk = { index: 0, market: 'us', offset: 0, limit: 1_000 };

/**
 * The nightly renders each screened ticker's default report as it publishes (docs/serving.md,
 * "Pre-rendered reports"), so an API answers the first requests after it with no render. SYNTHETIC
 * sample universe.
 */
describe('default reports written by the nightly', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let reads: ApiReads;

  beforeAll(async () => {
    temp = await makeTempDir();
    await ingestSource({ source: 'sample', scale: 0.002, dataDir: temp.dir, asOf: TODAY, markets: ['us'], concurrency: 2 });
    const data = createLakePipelineData(temp.dir);
    await screenChunkWork({ dataDir: temp.dir, data }, { runId: 'nightly-1', source: 'nightly', chunk, dates: [TODAY] }, () => {});
    reads = await openApiReads({ dataDir: temp.dir, followIntervalMs: 0 });
  }, 180_000);
  afterAll(async () => {
    await reads?.close();
    await temp?.cleanup();
  });

  const currentRows = () => reads.listings('us').flatMap((listing) => reads.current('us', listing.ticker) ?? []);

  it('stores, for every ticker it screened, the very bytes an API renders from the stored result', async () => {
    const rows = currentRows();
    expect(rows.length).toBeGreaterThan(20);
    for (const row of rows) {
      const stored = await reads.prerenderedReport(row);
      const companyName = reads.listing(row.market, row.ticker)!.name;
      expect(stored).toMatchObject({ snapshotDate: row.snapshotDate, screenedAt: row.screenedAt, companyName, version: RENDER_VERSION });
      const rendered = renderReport({
        stored: (await reads.storedResults([row]))[0]!,
        frameworks: PRERENDERED_FRAMEWORKS,
        snapshot: { snapshotDate: row.snapshotDate, screenedAt: row.screenedAt, source: row.source },
        companyName,
      });
      expect(decompressResult(stored!.report).toString('utf8')).toBe(Buffer.from(rendered).toString('utf8'));
    }
  });

  it('when an API answers the default screen right after the nightly, then it renders nothing', async () => {
    const { renderer, renders } = countingRenderer();
    const app = screenApp(reads, { renderer });
    const server = await listen(app);
    try {
      const tickers = currentRows().map((row) => row.ticker);
      for (const ticker of tickers) {
        const response = await fetch(`${server.url}/api/screen/us/${ticker}?framework=${PRERENDERED_FRAMEWORKS.join(',')}`);
        expect(response.status).toBe(200);
        expect(((await response.json()) as { report: { ticker: string } }).report.ticker).toBe(ticker);
      }
      expect(renders()).toBe(0);
      // Another selection has no stored report: rendered on request.
      expect((await fetch(`${server.url}/api/screen/us/${tickers[0]}?framework=shariah_aaoifi`)).status).toBe(200);
      expect(renders()).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('when a backfill screens earlier days, then it stores no report and leaves the nightly’s', async () => {
    const before = await reads.prerenderedStamps(currentRows());
    const data = createLakePipelineData(temp.dir);
    // The store the chunk writes: what it is handed, not only what the newer-screen rule keeps.
    const write = vi.spyOn(await sharedServingStore(servingTargetOf(temp.dir)), 'write');
    const outcome = await screenChunkWork(
      { dataDir: temp.dir, data },
      { runId: 'backfill-1', source: 'backfill', chunk, dates: ['2020-12-31'] },
      () => {},
    );
    expect(outcome.published).toBeGreaterThan(0);
    expect(write).toHaveBeenCalled();
    expect(write.mock.calls.every(([, , , reports]) => (reports ?? []).length === 0)).toBe(true);
    write.mockRestore();
    expect(await reads.prerenderedStamps(currentRows())).toEqual(before);
  }, 120_000);
});
