import { existsSync } from 'node:fs';
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities } from '../../activities/index.ts';
import { bundleWorkflows } from '../../platform/worker.ts';
import { latestCatalogVersion } from '../../warehouse/catalog.ts';
import { ingestSource } from '../../sources/ingest.ts';
import { lakeRoot } from '../../warehouse/lake-paths.ts';
import { TEMP_PREFIX } from '../../warehouse/publish.ts';
import { CURRENT_VERDICTS_PATCH, CURRENT_VERDICTS_SKIPPED_PATCH, type LakeMaintenanceResult } from '../../workflows/lake-maintenance.ts';
import { createTestApi, type TestApi } from '../api/support/lake-fixture.ts';
import { listen } from '../support/http.ts';
import { catalogQuery, testSource } from '../support/pipeline-env.ts';
import { startTestTemporal } from '../support/temporal.ts';
import { makeTempDir } from '../support/temp-dir.ts';

/** Every snapshot Parquet file of the lake's market partitions, relative to the snapshots folder. */
async function snapshotFiles(dataDir: string): Promise<string[]> {
  const root = path.join(lakeRoot(dataDir), 'snapshots');
  const entries = await readdir(root, { recursive: true });
  return entries.filter((f) => f.endsWith('.parquet') && !f.startsWith('market=_none')).sort();
}

/** The activities a run scheduled and the patches it recorded, in order, from its history. */
async function historyOf(env: TestWorkflowEnvironment, workflowId: string): Promise<{ activities: string[]; patches: string[] }> {
  const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
  const activities: string[] = [];
  const patches: string[] = [];
  for (const event of history.events ?? []) {
    const activity = event.activityTaskScheduledEventAttributes?.activityType?.name;
    if (activity) activities.push(activity);
    const patch = event.markerRecordedEventAttributes?.details?.['patch-data']?.payloads?.[0]?.data;
    if (patch) patches.push((JSON.parse(Buffer.from(patch).toString('utf8')) as { id: string }).id);
  }
  return { activities, patches };
}

/** What researchers and the API read, reduced to figures that must not change while files are merged. */
const VIEW_FIGURES = `SELECT (SELECT count(*) FROM snapshot_days)::INT AS days,
  (SELECT count(*) FROM current_verdicts)::INT AS current,
  (SELECT md5(string_agg(ticker || snapshot_date || shariah_aaoifi_status, ',' ORDER BY ticker)) FROM current_verdicts) AS verdicts,
  (SELECT count(*) FROM verdict_as_of('us', (SELECT min(ticker) FROM current_verdicts), '2010-06-30'))::INT AS as_of_rows,
  (SELECT count(*) FROM snapshots)::INT AS raw`;

/**
 * Runs a read again when it listed a file that compaction removed before the read opened it:
 * the read fails whole, never answers with part of the data (docs/pipelines.md, "Lake maintenance").
 */
async function retryRemovedFile<T>(read: () => Promise<T>, raced: string[]): Promise<T> {
  for (;;) {
    try {
      return await read();
    } catch (error) {
      const message = (error as Error).message;
      if (!/No such file or directory|No files found that match the pattern/.test(message)) throw error;
      raced.push(message);
    }
  }
}

describe('lakeMaintenance workflow on a real Temporal dev server', () => {
  let env: TestWorkflowEnvironment;
  let bundle: WorkflowBundleWithSourceMap;
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  const createWorker = (taskQueue: string, dataDir: string): Promise<Worker> =>
    Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: bundle,
      activities: createActivities({ dataDir, source: testSource }),
    });

  beforeAll(async () => {
    [env, bundle, temp] = await Promise.all([startTestTemporal(), bundleWorkflows(), makeTempDir()]);
  });
  afterAll(async () => {
    await env?.teardown();
    await temp?.cleanup();
  });

  it('when a dead writer left a temp file, then the run removes it, finds nothing to compact and migrates the catalog', async () => {
    const dir = path.join(temp.dir, 'lake', 'snapshots', 'market=us');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, `${TEMP_PREFIX}x.parquet.999999998.bbbbbb`), 'orphan');
    const worker = await createWorker('maintenance-test', temp.dir);

    const result = await worker.runUntil(
      env.client.workflow.execute('lakeMaintenance', { taskQueue: 'maintenance-test', workflowId: 'maintenance-test-1' }),
    );

    expect(result).toEqual({
      tempFilesRemoved: 1,
      compaction: { partitions: 0, filesBefore: 0, filesAfter: 0, rows: 0 },
      catalogVersion: latestCatalogVersion(),
      migrationsApplied: expect.arrayContaining(['1-catalog-meta']),
      // This worker has no service state: no delivery log to trim.
      webhookLog: { events: 0, attempts: 0 },
    });
    expect(await readdir(dir)).toEqual([]);
    // A new run records that it skips saving the lake's copy of the current verdicts and never schedules it.
    const history = await historyOf(env, 'maintenance-test-1');
    expect(history.activities).toEqual(['sweepLakeTempFiles', 'compactSnapshotFiles', 'ensureCatalog', 'trimWebhookLog']);
    expect(history.patches).toContain(CURRENT_VERDICTS_SKIPPED_PATCH);
    expect(history.patches).not.toContain(CURRENT_VERDICTS_PATCH);
  });

  describe('over a backfilled lake of many small files', () => {
    let lake: Awaited<ReturnType<typeof makeTempDir>>;
    let api: TestApi;
    let server: Awaited<ReturnType<typeof listen>>;
    let before: string[];
    let young: string;

    beforeAll(async () => {
      lake = await makeTempDir('faithscreen-maintenance-');
      await ingestSource({ ...testSource, dataDir: lake.dir, asOf: '2012-12-31', markets: ['us'], concurrency: 2 });
      // Chunks of 3 listings: every (market, year) partition gets one file per chunk, as a long history does.
      const backfill = await createWorker('maintenance-backfill', lake.dir);
      await backfill.runUntil(
        env.client.workflow.execute('backfill', {
          taskQueue: 'maintenance-backfill',
          workflowId: 'maintenance-backfill',
          args: [{ from: '2009-01-01', to: '2012-12-31', cadence: 'year-end', markets: ['us'], chunkSize: 3 }],
        }),
      );
      before = await snapshotFiles(lake.dir);
      // Files older than the compaction's minimum age (6 hours) are merged; one just published stays.
      const old = new Date(Date.now() - 7 * 3_600_000);
      young = before.find((f) => f.includes('year=2012'))!;
      for (const file of before.filter((f) => f !== young)) await utimes(path.join(lakeRoot(lake.dir), 'snapshots', file), old, old);
      api = await createTestApi(lake.dir);
      server = await listen(api.app);
    }, 120_000);
    afterAll(async () => {
      await server?.close();
      await api?.reads.close();
      await lake?.cleanup();
    });

    it('when maintenance runs, then each partition is merged into one file, nothing is lost, and readers throughout never see a half state', async () => {
      const ticker = String((await catalogQuery(lake.dir, "SELECT min(ticker) AS t FROM current_verdicts WHERE market = 'us'"))[0]?.t);
      const baseline = (await catalogQuery(lake.dir, VIEW_FIGURES))[0]!;
      const asOf = async (date: string) => {
        const response = await fetch(`${server.url}/api/screen/us/${ticker}?as_of=${date}`);
        return `${response.status} ${String(((await response.json()) as { snapshot_date?: string }).snapshot_date)}`;
      };
      const youngRows = Number(
        (
          await catalogQuery(
            lake.dir,
            `SELECT count(*)::INT AS n FROM read_parquet('${path.join(lakeRoot(lake.dir), 'snapshots', young)}')`,
          )
        )[0]?.n,
      );
      const apiBaseline = [await asOf('2010-06-30'), await asOf('2012-12-31')];
      expect(before.length).toBeGreaterThan(4 * 8);
      expect(apiBaseline).toEqual(['200 2009-12-31', '200 2012-12-31']);

      const seen: Array<Record<string, unknown>> = [];
      const apiSeen: string[][] = [];
      const raced: string[] = [];
      let running = true;
      const researcher = (async () => {
        while (running) seen.push((await retryRemovedFile(() => catalogQuery(lake.dir, VIEW_FIGURES), raced))[0]!);
      })();
      const client = (async () => {
        while (running) {
          await retryRemovedFile(() => api.reads.sync(), raced);
          apiSeen.push([await asOf('2010-06-30'), await asOf('2012-12-31')]);
        }
      })();
      const worker = await createWorker('maintenance-compact', lake.dir);
      const result: LakeMaintenanceResult = await worker
        .runUntil(
          env.client.workflow.execute('lakeMaintenance', {
            taskQueue: 'maintenance-compact',
            workflowId: 'maintenance-compact',
            args: [{}],
          }),
        )
        .finally(() => (running = false));
      await Promise.all([researcher, client]);

      const after = await snapshotFiles(lake.dir);
      expect(result.compaction).toMatchObject({
        partitions: 4,
        filesBefore: before.length,
        filesAfter: 5,
        rows: Number(baseline.raw) - youngRows,
      });
      expect(after.filter((f) => f.includes('/compact-'))).toHaveLength(4);
      expect(after).toContain(young);
      // Researchers' views and the API answer exactly as before, during and after.
      expect(seen.length).toBeGreaterThan(0);
      for (const figures of seen) {
        expect({ ...figures, raw: undefined }).toEqual({ ...baseline, raw: undefined });
        // The merged file is renamed in before the files it replaces go: a row is never missing.
        expect(Number(figures.raw)).toBeGreaterThanOrEqual(Number(baseline.raw));
      }
      expect((await catalogQuery(lake.dir, VIEW_FIGURES))[0]).toEqual(baseline);
      expect(apiSeen.length).toBeGreaterThan(0);
      for (const answers of apiSeen) expect(answers).toEqual(apiBaseline);
      await api.reads.sync();
      expect([await asOf('2010-06-30'), await asOf('2012-12-31')]).toEqual(apiBaseline);

      // Neither the backfill nor maintenance writes a copy of the current verdicts into the lake.
      expect(result).not.toHaveProperty('currentVerdicts');
      expect(existsSync(path.join(lakeRoot(lake.dir), '_current'))).toBe(false);
    });

    it('when maintenance runs again, then the merged partitions are left as they are', async () => {
      const files = await snapshotFiles(lake.dir);
      const worker = await createWorker('maintenance-again', lake.dir);
      const result: LakeMaintenanceResult = await worker.runUntil(
        env.client.workflow.execute('lakeMaintenance', { taskQueue: 'maintenance-again', workflowId: 'maintenance-again' }),
      );
      expect(result.compaction).toMatchObject({ partitions: 4, filesBefore: files.length, filesAfter: files.length, rows: 0 });
      expect(await snapshotFiles(lake.dir)).toEqual(files);
    });
  });
});
