import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities } from '../../activities/index.ts';
import { bundleWorkflows } from '../../platform/worker.ts';
import { ingestSource } from '../../sources/ingest.ts';
import type { RunProgress } from '../../workflows/run-progress.ts';
import { createTestApi, type TestApi } from '../api/support/lake-fixture.ts';
import { listen } from '../support/http.ts';
import { catalogQuery, testSource } from '../support/pipeline-env.ts';
import { startTestTemporal } from '../support/temporal.ts';
import { makeTempDir } from '../support/temp-dir.ts';

// Response bodies are read as loosely typed JSON: the assertions check their shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON under test
type Json = Record<string, any>;

describe('history from the first day: a backfill from 2009-01-01 through Temporal, read by the API', () => {
  let env: TestWorkflowEnvironment;
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let api: TestApi;
  let server: Awaited<ReturnType<typeof listen>>;
  let result: RunProgress;
  let veteran: string;
  let bundle: WorkflowBundleWithSourceMap;
  const createWorker = (): Promise<Worker> =>
    Worker.create({
      connection: env.nativeConnection,
      taskQueue: 'history',
      workflowBundle: bundle,
      activities: createActivities({ dataDir: temp.dir, source: testSource }),
    });
  const backfill2009 = (workflowId: string): Promise<RunProgress> =>
    env.client.workflow.execute('backfill', {
      taskQueue: 'history',
      workflowId,
      args: [{ from: '2009-01-01', to: '2010-12-31', cadence: 'year-end', markets: ['us'] }],
    });
  /** Runs one workflow to its end on a worker of its own (a worker runs once). */
  const runOnce = async (workflow: string, workflowId: string, input: Record<string, unknown>): Promise<RunProgress> =>
    (await createWorker()).runUntil(
      env.client.workflow.execute(workflow, { taskQueue: 'history', workflowId, args: [input] }),
    ) as Promise<RunProgress>;
  const get = async (path: string) => {
    const response = await fetch(`${server.url}${path}`);
    return { status: response.status, body: (await response.json()) as Json };
  };

  beforeAll(async () => {
    const [started, workflows, dir] = await Promise.all([startTestTemporal(), bundleWorkflows(), makeTempDir('faithscreen-history-')]);
    [env, temp] = [started, dir];
    await ingestSource({ ...testSource, dataDir: temp.dir, asOf: '2010-12-31', markets: ['us'], concurrency: 2 });
    bundle = workflows;
    result = await (await createWorker()).runUntil(backfill2009('backfill-year-end-2009-01-01-2010-12-31-us'));
    const [row] = await catalogQuery(
      temp.dir,
      "SELECT ticker FROM universe WHERE market = 'us' AND kind = 'stock' AND listed_on < DATE '2009-01-01' ORDER BY ticker LIMIT 1",
    );
    veteran = String(row?.ticker);
    api = await createTestApi(temp.dir);
    server = await listen(api.app);
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    api?.reads.close();
    await env?.teardown();
    await temp?.cleanup();
  });

  it('when the backfill is done, then every listing listed before 2009 has a snapshot dated 2009-01-01', async () => {
    expect(result).toMatchObject({ phase: 'done', failedCount: 0 });
    const [counts] = await catalogQuery(
      temp.dir,
      `SELECT (SELECT count(DISTINCT ticker) FROM universe WHERE market = 'us' AND kind = 'stock' AND listed_on <= DATE '2009-01-01')::INT AS listed,
              (SELECT count(DISTINCT ticker) FROM snapshots
                WHERE market = 'us' AND source = 'backfill' AND snapshot_date = DATE '2009-01-01')::INT AS screened`,
    );
    expect(counts!.listed).toBeGreaterThan(0);
    expect(counts!.screened).toBe(counts!.listed);
  });

  it('when as_of is 2009-01-02 for a company listed before 2009, then the API answers 200 with the 2009-01-01 snapshot', async () => {
    const { status, body } = await get(`/api/screen/us/${veteran}?as_of=2009-01-02`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      ticker: veteran,
      as_of: '2009-01-02',
      snapshot_date: '2009-01-01',
      source: 'backfill',
      era: 'legacy',
      historical: true,
    });
  });

  it('when as_of is 2009-01-02 for a company listed later in 2009 or after, then 404 names its first snapshot date', async () => {
    const [late] = await catalogQuery(
      temp.dir,
      `SELECT u.ticker, strftime(min(s.snapshot_date), '%Y-%m-%d') AS first FROM universe u JOIN snapshots s USING (market, ticker)
       WHERE u.market = 'us' AND u.kind = 'stock' AND u.listed_on > DATE '2009-01-02' GROUP BY u.ticker ORDER BY u.ticker LIMIT 1`,
    );
    expect(late!.first).not.toBe('2009-01-01');
    const { status, body } = await get(`/api/screen/us/${String(late!.ticker)}?as_of=2009-01-02`);
    expect(status).toBe(404);
    expect(body.detail).toMatch(String(late!.first));
  });

  it('when as_of is before 2009-01-01, then 400 says history starts there', async () => {
    const { status, body } = await get(`/api/screen/us/${veteran}?as_of=2008-12-31`);
    expect(status).toBe(400);
    expect(body.detail).toMatch(/2009-01-01/);
  });

  it('when a nightly screened a day first, then a backfill through that day skips it: the nightly stays its only snapshot', async () => {
    const day = '2010-06-30';
    const nightly = await runOnce('nightlyScreen', 'nightly-before-backfill', { date: day, ingest: false, markets: ['us'] });
    expect(nightly).toMatchObject({ phase: 'done', failedCount: 0 });
    const backfill = await runOnce('backfill', 'backfill-through-nightly-day', {
      from: '2010-05-01',
      to: day,
      cadence: 'month-end',
      markets: ['us'],
    });
    // Its days: 2010-05-01 and 2010-05-31 are new; the nightly's day is skipped for every listing it screened.
    expect(backfill).toMatchObject({ phase: 'done', skipped: nightly.published, failedCount: 0 });
    expect(backfill.published).toBeGreaterThan(0);
    const sources = await catalogQuery(
      temp.dir,
      `SELECT source, count(*)::INT AS n FROM snapshots WHERE market = 'us' AND snapshot_date = DATE '${day}' GROUP BY source`,
    );
    expect(sources).toEqual([{ source: 'nightly', n: nightly.published }]);
  });

  it('when the same range is backfilled again, then nothing is republished and the first day stays single', async () => {
    // A worker runs once: the re-run gets its own.
    const again = await (await createWorker()).runUntil(backfill2009('backfill-again'));
    expect(again).toMatchObject({ phase: 'done', published: 0, skipped: result.published, failedCount: 0 });
    const [day] = await catalogQuery(
      temp.dir,
      "SELECT count(*)::INT AS rows, count(DISTINCT ticker)::INT AS tickers FROM snapshots WHERE snapshot_date = DATE '2009-01-01'",
    );
    expect(day!.rows).toBe(day!.tickers);
  });
});
