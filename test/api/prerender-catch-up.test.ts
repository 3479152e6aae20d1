import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unavailableRefresher } from '../../api/refresher.ts';
import { inlineReportRenderer } from '../../api/report-renderer.ts';
import { createScreenService } from '../../api/screen-service.ts';
import { openApiReads, type ApiReads } from '../../reads/api-reads.ts';
import { buildLake } from './support/lake-fixture.ts';
import { makeTempDir } from '../support/temp-dir.ts';

/**
 * How fast the prerenderer catches up after a nightly (docs/serving.md, "Pre-rendered
 * reports"): more a turn while no request asks for a report, fewer while requests do. SYNTHETIC sample
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

  it('when no request asked for a report since its last turn, then a turn renders up to `idleBatch`; after one did, up to `batch`', async () => {
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
      // A request asked for a report between two turns (served from the store: no render, but the event loop is busy).
      service.reportsAsked += 1;
      await prerenderer.turn();
      expect(prerenderer.stats().rendered).toBe(9);
      await prerenderer.turn();
      expect(prerenderer.stats().rendered).toBe(14);
    } finally {
      prerenderer.stop();
    }
  }, 60_000);
});
