import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities } from '../../activities/index.ts';
import { createTemporalRefresher } from '../../api/temporal-refresher.ts';
import { createLazyClient } from '../../platform/temporal-client.ts';
import { bundleWorkflows } from '../../platform/worker.ts';
import { listen } from '../support/http.ts';
import { startTestTemporal } from '../support/temporal.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import {
  type FixtureTickers,
  type ServedLakeApi,
  TODAY,
  type TestApi,
  buildLake,
  createTestApi,
  serveLakeApi,
} from './support/lake-fixture.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response JSON under test
type Json = Record<string, any>;

const TASK_QUEUE = 'api-refresh';

describe('re-screening through refreshTicker on a real Temporal dev server with the real worker', () => {
  let env: TestWorkflowEnvironment;
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let t: FixtureTickers;
  let worker: Worker;
  let running: Promise<void>;
  let api: TestApi;
  let server: Awaited<ReturnType<typeof listen>>;
  const get = async (base: string, path: string) => {
    const response = await fetch(`${base}${path}`);
    return { status: response.status, body: (await response.json()) as Json };
  };

  beforeAll(async () => {
    const [started, bundle, dir] = await Promise.all([startTestTemporal(), bundleWorkflows(), makeTempDir('faithscreen-api-refresh-')]);
    env = started;
    temp = dir;
    t = await buildLake(temp.dir);
    worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue: TASK_QUEUE,
      workflowBundle: bundle,
      activities: createActivities({ dataDir: temp.dir, source: { source: 'sample', scale: 0.002 } }),
    });
    running = worker.run();
    api = await createTestApi(temp.dir, createTemporalRefresher({ client: env.client, taskQueue: TASK_QUEUE }));
    server = await listen(api.app);
  }, 240_000);
  afterAll(async () => {
    await server?.close();
    api?.reads.close();
    worker?.shutdown();
    await running;
    await env?.teardown();
    await temp?.cleanup();
  });

  it('when a listed ticker was never screened, then it is screened now and then served from cache', async () => {
    const first = await get(server.url, `/api/screen/us/${t.unscreened}`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ ticker: t.unscreened, from_cache: false, stale: false, cache_age_days: 0 });
    expect(first.body.report.financial_data.provenance).toMatchObject({
      snapshot_source: 'refresh',
      snapshot_date: TODAY,
      synthetic: true,
    });
    const second = await get(server.url, `/api/screen/us/${t.unscreened}`);
    expect(second.body).toMatchObject({ from_cache: true, stale: false });
  }, 60_000);

  it('when 100 clients force a refresh of one ticker at once, across two API processes, then one screen answers them all', async () => {
    const other = await createTestApi(temp.dir, createTemporalRefresher({ client: env.client, taskQueue: TASK_QUEUE }));
    const otherServer = await listen(other.app);
    try {
      const bases = Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? server.url : otherServer.url));
      const answers = await Promise.all(
        bases.map((base) => get(base, `/api/screen/us/${t.fresh[2]}?force_refresh=true&framework=lds_mormon`)),
      );
      expect(answers.every((a) => a.status === 200 && a.body.from_cache === false)).toBe(true);
      const screenedAt = new Set(answers.map((a) => a.body.report.financial_data.provenance.screened_at));
      expect(screenedAt.size).toBe(1);
    } finally {
      await otherServer.close();
      other.reads.close();
    }
  }, 60_000);

  it('when the snapshot is stale, then it is served stale while a background refresh runs, and the refreshed one is served after', async () => {
    const stale = await get(server.url, `/api/screen/us/${t.stale}`);
    expect(stale.body).toMatchObject({ from_cache: true, stale: true, cache_age_days: 3 });
    expect(['started', 'already_running']).toContain(stale.body.refresh);
    let fresh: Json = stale.body;
    for (let i = 0; i < 100 && fresh.stale; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      await api.reads.sync();
      fresh = (await get(server.url, `/api/screen/us/${t.stale}`)).body;
    }
    expect(fresh).toMatchObject({ from_cache: true, stale: false, cache_age_days: 0 });
    expect(fresh.report.financial_data.provenance.snapshot_source).toBe('refresh');
  }, 60_000);

  it('when the snapshot is beyond the stale window, then it is re-screened before answering', async () => {
    const { body } = await get(server.url, `/api/screen/us/${t.expired}`);
    expect(body).toMatchObject({ from_cache: false, stale: false, cache_age_days: 0 });
  }, 60_000);
});

describe('when Temporal is unreachable', () => {
  let lake: ServedLakeApi;
  let t: FixtureTickers;
  let server: ServedLakeApi['server'];

  beforeAll(async () => {
    const { client } = createLazyClient({ address: '127.0.0.1:1', namespace: 'default' });
    lake = await serveLakeApi(createTemporalRefresher({ client, taskQueue: TASK_QUEUE, startTimeoutMs: 3_000 }));
    ({ t, server } = lake);
  }, 120_000);
  afterAll(() => lake?.close());

  it('then stale data is still served, saying the background refresh could not start', async () => {
    const response = await fetch(`${server.url}/api/screen/us/${t.stale}`);
    const body = (await response.json()) as Json;
    expect(response.status).toBe(200);
    expect(body).toMatchObject({ stale: true, refresh: 'unavailable' });
    expect(response.headers.get('x-refresh')).toBe('unavailable');
  }, 20_000);

  it('then a forced refresh gets 503 with a detail naming the workflow service', async () => {
    const response = await fetch(`${server.url}/api/screen/us/${t.fresh[0]}?force_refresh=true`);
    expect(response.status).toBe(503);
    expect(((await response.json()) as Json).detail).toMatch(/Temporal/);
  }, 20_000);
});
