import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { unavailableRefresher } from '../../api/refresher.ts';
import { inlineReportRenderer } from '../../api/report-renderer.ts';
import { createScreenService } from '../../api/screen-service.ts';
import { openApiReads, type ApiReads } from '../../reads/api-reads.ts';
import { buildLake } from './support/lake-fixture.ts';
import { listen } from '../support/http.ts';
import { countingRenderer, screenApp } from './support/screen-app.ts';
import { makeTempDir } from '../support/temp-dir.ts';

/**
 * How fast the prerenderer catches up after a nightly (docs/serving.md, "Pre-rendered
 * reports"): more a turn while no request comes, fewer (none by default) while requests do. SYNTHETIC sample
 * universe with no report stored yet.
 */
describe('the prerenderer catching up', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let reads: ApiReads;

  beforeAll(async () => {
    temp = await makeTempDir();
    await buildLake(temp.dir);
    reads = await openApiReads({ dataDir: temp.dir, followIntervalMs: 0 });
  }, 180_000);
  afterAll(async () => {
    await reads?.close();
    await temp?.cleanup();
  });

  it('when no request came since its last turn, then a turn renders up to `idleBatch`; after one did, up to `batch`', async () => {
    const service = createScreenService({
      reads,
      refresher: unavailableRefresher,
      cache: { freshDays: 1, staleWhileRevalidateDays: 7 },
      renderer: inlineReportRenderer,
      prerenderReports: { batch: 2, idleBatch: 5, scan: 50, intervalMs: 600_000, quietMs: 0 },
    });
    const prerenderer = service.prerenderer!;
    try {
      expect(prerenderer.stats().pending).toBeGreaterThan(20);
      // The first turn knows nothing of what rendered before it: the smaller batch.
      await prerenderer.turn();
      expect(prerenderer.stats().rendered).toBe(2);
      await prerenderer.turn();
      expect(prerenderer.stats().rendered).toBe(7);
      // A request came between two turns.
      service.requestsSeen += 1;
      await prerenderer.turn();
      expect(prerenderer.stats().rendered).toBe(9);
      await prerenderer.turn();
      expect(prerenderer.stats().rendered).toBe(14);
    } finally {
      prerenderer.stop();
    }
  }, 60_000);

  it('when requests of any route keep coming (health checks), then it renders nothing by default; once they stop, it catches up', async () => {
    const { renderer, renders } = countingRenderer();
    const app = screenApp(reads, { renderer, prerenderReports: { idleBatch: 2, intervalMs: 250, quietMs: 0 } });
    const server = await listen(app);
    try {
      const until = Date.now() + 1_500;
      while (Date.now() < until) {
        expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(renders()).toBe(0);
      await vi.waitFor(() => expect(renders()).toBeGreaterThan(0), { timeout: 5_000 });
    } finally {
      await server.close();
    }
  }, 60_000);
});
