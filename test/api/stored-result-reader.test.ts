import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import renderReport from '../../api/report-render-thread.ts';
import { threadedReportRenderer } from '../../api/report-renderer.ts';
import { openApiReads, type ApiReads } from '../../reads/api-reads.ts';
import { PRERENDERED_FRAMEWORKS } from '../../serving/default-report.ts';
import { buildLake, type FixtureTickers } from './support/lake-fixture.ts';
import { listen } from '../support/http.ts';
import { screenApp } from './support/screen-app.ts';
import { makeTempDir } from '../support/temp-dir.ts';

/**
 * A render thread reads a cold report's stored result itself from a SQLite store (docs/serving.md,
 * "Rendering off the event loop"). SYNTHETIC sample universe; the embedded store (this file runs
 * in the SQLite project only).
 */
describe('stored results read by the render thread', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let t: FixtureTickers;
  let reads: ApiReads;

  beforeAll(async () => {
    temp = await makeTempDir();
    t = await buildLake(temp.dir);
    reads = await openApiReads({ dataDir: temp.dir, followIntervalMs: 0 });
  }, 180_000);
  afterAll(async () => {
    await reads?.close();
    await temp?.cleanup();
  });

  const selection = (companyName: string) => ({
    frameworks: PRERENDERED_FRAMEWORKS,
    companyName,
  });

  it('renders from the key the same bytes as from the result the API reads, and names a snapshot the store lacks', async () => {
    for (const ticker of t.fresh.slice(0, 5)) {
      const row = reads.current('us', ticker)!;
      const snapshot = { snapshotDate: row.snapshotDate, screenedAt: row.screenedAt, source: row.source };
      const read = reads.resultReadInThread(row)!;
      expect(read).toMatchObject({ market: 'us', ticker, snapshotDate: row.snapshotDate });
      const fromKey = renderReport({ ...selection('Name'), snapshot, read });
      const fromBytes = renderReport({ ...selection('Name'), snapshot, stored: (await reads.storedResults([row]))[0]! });
      expect(Buffer.from(fromKey).equals(Buffer.from(fromBytes))).toBe(true);
    }
    const row = reads.current('us', t.fresh[0]!)!;
    const missing = { ...reads.resultReadInThread(row)!, snapshotDate: '1999-12-31' };
    expect(() => renderReport({ ...selection('Name'), snapshot: row, read: missing })).toThrow(/not in the serving store/);
  });

  it('when a cold report of another selection renders, then the API reads no stored result on the event loop (SQLite)', async () => {
    const storedResults = vi.spyOn(reads, 'storedResults');
    const renderer = threadedReportRenderer(1);
    const app = screenApp(reads, { renderer });
    const server = await listen(app);
    try {
      for (const ticker of t.fresh.slice(0, 5)) {
        const response = await fetch(`${server.url}/api/screen/us/${ticker}?framework=shariah_aaoifi`);
        expect(response.status).toBe(200);
        expect(((await response.json()) as { report: { frameworks_returned: string[] } }).report.frameworks_returned).toEqual([
          'shariah_aaoifi',
        ]);
      }
      expect(storedResults).not.toHaveBeenCalled();
    } finally {
      storedResults.mockRestore();
      await server.close();
      await renderer.close();
    }
  });
});
