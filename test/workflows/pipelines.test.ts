import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { WorkflowIdConflictPolicy } from '@temporalio/client';
import type { WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RefreshedScreen } from '../../warehouse/snapshot-schema.ts';
import { bundleWorkflows } from '../../platform/worker.ts';
import { ingestSource } from '../../sources/ingest.ts';
import type { RunProgress } from '../../workflows/run-progress.ts';
import { refreshWorkflowId } from '../../workflows/refresh-ticker.ts';
import { catalogQuery, createTestWorker, testSource } from '../support/pipeline-env.ts';
import { startTestTemporal } from '../support/temporal.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { sql } from '../../warehouse/sql.ts';
import { RENDER_VERSION } from '../../serving/default-report.ts';
import { openServingStore, servingTargetOf } from '../../serving/open-serving-store.ts';
import { lakeRoot } from '../../warehouse/lake-paths.ts';

const DATE = '2026-11-20';

describe('pipelines on a real Temporal dev server', () => {
  let env: TestWorkflowEnvironment;
  let bundle: WorkflowBundleWithSourceMap;
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let listings = 0;

  beforeAll(async () => {
    [env, bundle, temp] = await Promise.all([startTestTemporal(), bundleWorkflows(), makeTempDir('faithscreen-pipelines-')]);
    await ingestSource({ ...testSource, dataDir: temp.dir, asOf: DATE });
    const [row] = await catalogQuery(temp.dir, "SELECT count(DISTINCT (market, ticker))::INT AS n FROM universe WHERE kind = 'stock'");
    listings = Number(row?.n);
  });
  afterAll(async () => {
    await env?.teardown();
    await temp?.cleanup();
  });

  it('when the nightly screen runs, then every stock gets exactly one nightly snapshot for the day, all 10 frameworks filled', async () => {
    const worker = await createTestWorker(env, bundle, temp.dir, 'nightly');
    const result = await worker.runUntil(
      env.client.workflow.execute('nightlyScreen', {
        taskQueue: 'nightly',
        workflowId: 'nightly-test',
        args: [{ date: DATE, ingest: false, chunkSize: 7 }],
      }),
    );
    expect(result).toMatchObject({ phase: 'done', totalTickers: listings, doneTickers: listings, published: listings, failedCount: 0 });
    const [counts] = await catalogQuery(
      temp.dir,
      `SELECT count(*)::INT AS n, count(DISTINCT (market, ticker))::INT AS k,
        count(*) FILTER (WHERE service_consensus_status IS NULL OR shariah_aaoifi_status IS NULL)::INT AS missing
       FROM snapshots WHERE source = 'nightly' AND snapshot_date = DATE '${DATE}'`,
    );
    expect(counts).toEqual({ n: listings, k: listings, missing: 0 });
  });

  it('when one ticker cannot be screened, then the run completes and names it with its reason', async () => {
    const worker = await createTestWorker(env, bundle, temp.dir, 'bad-ticker', (data) => ({
      ...data,
      async loadInputs(chunk, dates) {
        const loaded = await data.loadInputs(chunk, dates);
        // Corrupt the first input of the first chunk the way a broken source row would: a bad date.
        const first = loaded[0];
        if (chunk.index === 0 && first?.ok) first.input = { ...first.input, screeningDate: 'not-a-date' };
        return loaded;
      },
    }));
    const result: RunProgress = await worker.runUntil(
      env.client.workflow.execute('nightlyScreen', {
        taskQueue: 'bad-ticker',
        workflowId: 'nightly-bad',
        args: [{ date: '2026-11-19', ingest: false, chunkSize: 50 }],
      }),
    );
    expect(result.phase).toBe('done');
    expect(result.failedCount).toBe(1);
    expect(result.failedSample[0]?.reason).toMatch(/not-a-date/);
    expect(result.published).toBe(listings - 1);
    // The complete list is on disk, one JSON line per failed ticker.
    expect(result.failedFiles).toHaveLength(1);
    const lines = (await readFile(path.join(temp.dir, result.failedFiles[0]!), 'utf8')).trim().split('\n');
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([result.failedSample[0]]);
  });

  // Two real backfills through Temporal: under shared cores they can outlast the default 60 s.
  it(
    'when a backfill range is run twice, then the second run publishes nothing and each (ticker, day) has one snapshot',
    { timeout: 180_000 },
    async () => {
      const worker = await createTestWorker(env, bundle, temp.dir, 'backfill');
      const args = [{ from: '2023-01-01', to: DATE, cadence: 'quarter-end', chunkSize: 25 }];
      const [first, second] = await worker.runUntil(async () => [
        await env.client.workflow.execute('backfill', { taskQueue: 'backfill', workflowId: 'backfill-1', args }),
        await env.client.workflow.execute('backfill', { taskQueue: 'backfill', workflowId: 'backfill-2', args }),
      ]);
      expect(first.published).toBeGreaterThan(listings * 10);
      // The first run skipped the days an earlier screen of this lake already published (its last day, today); the second skips those and all it published.
      expect(second).toMatchObject({ published: 0, skipped: first.published + first.skipped, failedCount: 0 });
      const [dupes] = await catalogQuery(
        temp.dir,
        "SELECT count(*)::INT AS rows, count(DISTINCT (market, ticker, snapshot_date))::INT AS keys FROM snapshots WHERE source = 'backfill'",
      );
      expect(dupes).toEqual({ rows: first.published, keys: first.published });
      // A backfill writes no copy of the current verdicts into the lake.
      expect(existsSync(path.join(lakeRoot(temp.dir), '_current'))).toBe(false);
      const eras = await catalogQuery(
        temp.dir,
        "SELECT DISTINCT era, snapshot_date < DATE '2026-07-04' AS before FROM snapshots WHERE source = 'backfill' ORDER BY era",
      );
      expect(eras).toEqual([
        { era: 'current', before: false },
        { era: 'legacy', before: true },
      ]);
    },
  );

  it('when the progress query is asked mid-run, then it reports done out of total', async () => {
    const worker = await createTestWorker(env, bundle, temp.dir, 'progress');
    const progress = await worker.runUntil(async () => {
      const handle = await env.client.workflow.start('backfill', {
        taskQueue: 'progress',
        workflowId: 'backfill-progress',
        args: [{ from: '2015-01-01', to: '2016-12-31', cadence: 'quarter-end', chunkSize: 10 }],
      });
      let seen: RunProgress | undefined;
      while (!seen || seen.phase !== 'screening') seen = await handle.query<RunProgress>('progress');
      await handle.result();
      return seen;
    });
    // Listings not yet listed at the range's end are not part of it.
    expect(progress.totalTickers).toBeGreaterThan(0);
    expect(progress.totalTickers).toBeLessThanOrEqual(listings);
    expect(progress.doneTickers).toBeLessThanOrEqual(progress.totalTickers);
    expect(progress.totalChunks).toBeGreaterThan(1);
  });

  it('when 100 refreshes of one ticker start at once, then one workflow runs and all get its result', async () => {
    const [listing] = await catalogQuery(
      temp.dir,
      "SELECT market, ticker FROM universe WHERE kind = 'stock' ORDER BY market, ticker LIMIT 1",
    );
    const market = String(listing?.market);
    const ticker = String(listing?.ticker);
    const worker = await createTestWorker(env, bundle, temp.dir, 'refresh');
    const results: RefreshedScreen[] = await worker.runUntil(
      Promise.all(
        Array.from({ length: 100 }, async () => {
          const handle = await env.client.workflow.start('refreshTicker', {
            taskQueue: 'refresh',
            workflowId: refreshWorkflowId(market, ticker),
            workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
            args: [{ market, ticker, date: DATE }],
          });
          return handle.result() as Promise<RefreshedScreen>;
        }),
      ),
    );
    expect(new Set(results.map((r) => r.screenedAt)).size).toBe(1);
    expect(results[0]).toMatchObject({ market, ticker, source: 'refresh', snapshotDate: DATE });
    const [count] = await catalogQuery(
      temp.dir,
      sql`SELECT count(*)::INT AS n FROM snapshots WHERE source = 'refresh' AND ticker = ${ticker}`,
    );
    expect(count?.n).toBe(1);
    const [current] = await catalogQuery(
      temp.dir,
      sql`SELECT source FROM current_verdicts WHERE market = ${market} AND ticker = ${ticker}`,
    );
    expect(current?.source).toBe('refresh');
    // Its default report is stored with it, ready to send: no API renders it.
    const store = await openServingStore(servingTargetOf(temp.dir));
    try {
      expect(await store.report({ market, ticker, snapshotDate: DATE, screenedAt: results[0]!.screenedAt })).toMatchObject({
        version: RENDER_VERSION,
      });
    } finally {
      await store.close();
    }
  });

  it('when a refresh names an unknown ticker, then it fails at once, naming the ticker', async () => {
    const worker = await createTestWorker(env, bundle, temp.dir, 'refresh-unknown');
    const outcome = await worker.runUntil(
      env.client.workflow
        .execute('refreshTicker', {
          taskQueue: 'refresh-unknown',
          workflowId: 'refresh-us-NOPE',
          args: [{ market: 'us', ticker: 'NOPE', date: DATE }],
        })
        .then(
          () => 'completed',
          (error: Error) => String(((error.cause as Error | undefined)?.cause as Error | undefined)?.message),
        ),
    );
    expect(outcome).toMatch(/us\/NOPE is not a listed ticker/);
  });
});
