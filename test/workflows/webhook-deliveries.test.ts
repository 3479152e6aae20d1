import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessSetup } from '../../access/open-access.ts';
import { createActivities } from '../../activities/index.ts';
import { createTemporalRefresher } from '../../api/temporal-refresher.ts';
import { bundleWorkflows } from '../../platform/worker.ts';
import { openServiceDb, type ServiceDb } from '../../service-state/db.ts';
import { verifySignature } from '../../webhooks/signature.ts';
import { WebhookStore } from '../../webhooks/webhook-store.ts';
import { buildLake, daysAgo, TODAY, type FixtureTickers } from '../api/support/lake-fixture.ts';
import { lapseAccount } from '../../access/administration.ts';
import { keyFor, openTestAccess } from '../support/access.ts';
import { testServiceState } from '../support/service-state.ts';
import { startTestTemporal } from '../support/temporal.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { startReceiver } from '../webhooks/support/receiver.ts';
import { flippedYesterday, until } from '../webhooks/support/status-change.ts';
import { serveWebhookApi, type WebhookApi } from '../webhooks/support/webhook-api.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON under test
type Json = Record<string, any>;

const TASK_QUEUE = 'webhook-deliveries';
/** Operators running locally (and these tests) allow http and loopback targets. */
const LOCAL_POLICY = { allowHttp: true, allowPrivate: true };
/** Short retries so a receiver that fails twice gets the event within a second or two. */
const TEST_RETRY = { initialIntervalMs: 200, maximumIntervalMs: 1_000, giveUpAfterMs: 60_000 };

describe('status-change webhooks through a real Temporal dev server, real HTTP and a local receiver', () => {
  let env: TestWorkflowEnvironment;
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let t: FixtureTickers;
  let access: AccessSetup;
  let api: WebhookApi;
  let workerDb: ServiceDb;
  let worker: Worker;
  let running: Promise<void>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let aaoifiBefore: string;
  let aaoifiNow: string;

  const call = async (path: string, key: string, init: RequestInit = {}) => {
    const response = await fetch(`${api.url}${path}`, { ...init, headers: { 'X-API-Key': key, 'content-type': 'application/json' } });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const subscribe = async (key: string, body: Json) => {
    const created = await call('/api/webhooks', key, { method: 'POST', body: JSON.stringify(body) });
    expect(created.status).toBe(201);
    return created.body as { id: string; secret: string };
  };

  beforeAll(async () => {
    const [started, bundle, dir] = await Promise.all([startTestTemporal(), bundleWorkflows(), makeTempDir('faithscreen-webhooks-')]);
    env = started;
    temp = dir;
    t = await buildLake(temp.dir);
    ({ before: aaoifiBefore, now: aaoifiNow } = await flippedYesterday(temp.dir, t.stale));

    access = await openTestAccess(temp.dir);
    api = await serveWebhookApi(temp.dir, access, LOCAL_POLICY, {
      refresher: createTemporalRefresher({ client: env.client, taskQueue: TASK_QUEUE }),
    });
    // The worker has its own connection to the service state, as a worker process would.
    workerDb = await openServiceDb(await testServiceState(temp.dir));
    worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue: TASK_QUEUE,
      workflowBundle: bundle,
      activities: createActivities({
        dataDir: temp.dir,
        source: { source: 'sample', scale: 0.002 },
        webhooks: { store: new WebhookStore(workerDb), secretKey: api.secretKey, policy: LOCAL_POLICY, retry: TEST_RETRY },
      }),
    });
    running = worker.run();
    receiver = await startReceiver((path, count) => (path === '/down' ? 503 : path === '/flaky' && count < 2 ? 500 : 200));
  }, 240_000);
  afterAll(async () => {
    worker?.shutdown();
    await running;
    await receiver?.close();
    await api?.close();
    await workerDb?.close();
    await access?.close();
    await env?.teardown();
    await temp?.cleanup();
  });

  it('when a re-screen changes a status, then each subscription gets one signed delivery, a receiver failing twice gets it on the 3rd try, and a tampered body fails verification', async () => {
    const alice = await keyFor(access, 'pro');
    const bob = await keyFor(access, 'team');
    const byTicker = await subscribe(alice.key, {
      url: `${receiver.url}/alice`,
      tickers: [`us/${t.stale}`],
      frameworks: ['shariah_aaoifi'],
    });
    const byMarket = await subscribe(bob.key, { url: `${receiver.url}/bob`, market: 'us', frameworks: ['shariah_aaoifi', 'shariah_djim'] });
    const flaky = await subscribe(bob.key, { url: `${receiver.url}/flaky`, tickers: [`us/${t.stale}`], frameworks: ['shariah_aaoifi'] });
    // Nothing this run changed: another market, and a framework whose status stayed.
    await subscribe(alice.key, { url: `${receiver.url}/gb`, market: 'gb', frameworks: ['shariah_aaoifi'] });
    await subscribe(alice.key, { url: `${receiver.url}/unchanged`, tickers: [`us/${t.stale}`], frameworks: ['christian_bri'] });
    // An account whose subscription lapsed after subscribing gets nothing while it is lapsed.
    const lapsing = await keyFor(access, 'pro');
    await subscribe(lapsing.key, { url: `${receiver.url}/lapsed`, tickers: [`us/${t.stale}`], frameworks: ['shariah_aaoifi'] });
    await lapseAccount(access.store, lapsing.account);

    // The re-screen goes through the API, the refreshTicker workflow and the child that delivers.
    const screen = await call(`/api/screen/us/${t.stale}?force_refresh=true&framework=shariah_aaoifi`, alice.key);
    expect(screen.status).toBe(200);
    expect(screen.body.from_cache).toBe(false);

    await until('the flaky receiver to succeed', () => (receiver.on('/flaky').length >= 3 ? true : undefined));
    await until('alice and bob', () => (receiver.on('/alice').length >= 1 && receiver.on('/bob').length >= 1 ? true : undefined));
    // Let any stray duplicate arrive before counting.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(receiver.on('/alice')).toHaveLength(1);
    expect(receiver.on('/bob')).toHaveLength(1);
    expect(receiver.on('/flaky')).toHaveLength(3);
    expect(receiver.on('/gb')).toHaveLength(0);
    expect(receiver.on('/unchanged')).toHaveLength(0);
    expect(receiver.on('/lapsed')).toHaveLength(0);

    for (const [path, subscription] of [
      ['/alice', byTicker],
      ['/bob', byMarket],
      ['/flaky', flaky],
    ] as const) {
      const delivery = receiver.on(path).at(-1)!;
      const header = delivery.headers['faithscreen-signature'] as string;
      expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(verifySignature(subscription.secret, header, delivery.body)).toMatchObject({ valid: true });
      const tampered = delivery.body.replace(`"to":"${aaoifiNow}"`, `"to":"${aaoifiBefore}"`);
      expect(tampered).not.toBe(delivery.body);
      expect(verifySignature(subscription.secret, header, tampered)).toMatchObject({ valid: false });
      expect(verifySignature(byTicker === subscription ? byMarket.secret : byTicker.secret, header, delivery.body).valid).toBe(false);
      const event = JSON.parse(delivery.body) as Json;
      expect(delivery.headers['faithscreen-event-id']).toBe(event.id);
      expect(event).toMatchObject({
        id: expect.stringMatching(/^evt_[0-9a-f]{24}$/),
        type: 'status.changed',
        subscription_id: subscription.id,
        data: {
          market: 'us',
          ticker: t.stale,
          changes: [{ framework: 'shariah_aaoifi', from: aaoifiBefore, to: aaoifiNow }],
          snapshot: { date: TODAY, source: 'refresh', screened_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/) },
          previous_snapshot: { date: daysAgo(1), screened_at: `${daysAgo(1)}T02:00:00.000` },
          synthetic: true,
        },
      });
    }
    // Every attempt carried the same event and body.
    expect(new Set(receiver.on('/flaky').map((r) => r.body)).size).toBe(1);

    const log = await call(`/api/webhooks/${flaky.id}/deliveries`, bob.key);
    expect(log.status).toBe(200);
    expect(log.body.deliveries).toHaveLength(1);
    const [entry] = log.body.deliveries as Json[];
    expect(entry).toMatchObject({ status: 'delivered', ticker: t.stale, body: receiver.on('/flaky')[0]!.body });
    expect(entry!.attempts.map((a: Json) => [a.attempt, a.status_code, a.error])).toEqual([
      [1, 500, 'receiver answered 500'],
      [2, 500, 'receiver answered 500'],
      [3, 200, null],
    ]);
    expect(entry!.attempts.every((a: Json) => Number.isInteger(a.duration_ms) && a.duration_ms >= 0)).toBe(true);
    const aliceLog = await call(`/api/webhooks/${byTicker.id}/deliveries`, alice.key);
    expect(aliceLog.body.deliveries[0].attempts).toHaveLength(1);
  }, 120_000);

  it('when the deliveries of a run are started again, then nothing already delivered is sent twice', async () => {
    const runs = await api.db.all<{ run_id: string }>("SELECT DISTINCT run_id FROM webhook_events WHERE status = 'delivered'");
    expect(runs).toHaveLength(1);
    const before = receiver.received.length;
    const result = await env.client.workflow.execute('deliverStatusChanges', {
      taskQueue: TASK_QUEUE,
      workflowId: `webhooks-again-${runs[0]!.run_id}`,
      args: [{ runId: runs[0]!.run_id, markets: ['us'] }],
    });
    expect(result).toEqual({ events: 0, delivered: 0, failed: 0 });
    expect(receiver.received.length).toBe(before);
  }, 60_000);

  it('when the nightly screen publishes a changed status, then the subscription to that ticker gets it, signed', async () => {
    const carol = await keyFor(access, 'pro');
    const change = await flippedYesterday(temp.dir, t.unscreened);
    const subscription = await subscribe(carol.key, {
      url: `${receiver.url}/nightly`,
      tickers: [`us/${t.unscreened}`],
      frameworks: ['shariah_aaoifi'],
    });
    await env.client.workflow.execute('nightlyScreen', {
      taskQueue: TASK_QUEUE,
      workflowId: `nightly-webhooks-${Date.now()}`,
      args: [{ date: TODAY, markets: ['us'], ingest: false }],
    });
    const [delivery] = await until('the nightly delivery', () =>
      receiver.on('/nightly').length > 0 ? receiver.on('/nightly') : undefined,
    );
    expect(verifySignature(subscription.secret, delivery!.headers['faithscreen-signature'] as string, delivery!.body).valid).toBe(true);
    expect(JSON.parse(delivery!.body)).toMatchObject({
      subscription_id: subscription.id,
      data: {
        ticker: t.unscreened,
        changes: [{ framework: 'shariah_aaoifi', from: change.before, to: change.now }],
        snapshot: { date: TODAY, source: 'nightly' },
        previous_snapshot: { date: daysAgo(1) },
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(receiver.on('/nightly')).toHaveLength(1);
  }, 180_000);

  it('when a receiver keeps failing until the retry window closes, then the event ends failed with every attempt recorded', async () => {
    // A second worker whose schedule gives up after 1.5 s, on a queue of its own.
    const quick = await Worker.create({
      connection: env.nativeConnection,
      taskQueue: `${TASK_QUEUE}-quick`,
      workflowBundle: await bundleWorkflows(),
      activities: createActivities({
        dataDir: temp.dir,
        source: { source: 'sample', scale: 0.002 },
        webhooks: {
          store: new WebhookStore(workerDb),
          secretKey: api.secretKey,
          policy: LOCAL_POLICY,
          retry: { initialIntervalMs: 100, maximumIntervalMs: 200, giveUpAfterMs: 1_500 },
        },
      }),
    });
    const dave = await keyFor(access, 'pro');
    const down = await subscribe(dave.key, { url: `${receiver.url}/down`, tickers: [`us/${t.stale}`], frameworks: ['shariah_aaoifi'] });
    const [refreshRun] = await api.db.all<{ run_id: string }>(
      "SELECT DISTINCT run_id FROM webhook_events WHERE ticker = ? AND run_id LIKE 'refresh-%'",
      [t.stale],
    );
    const result = await quick.runUntil(
      env.client.workflow.execute('deliverStatusChanges', {
        taskQueue: `${TASK_QUEUE}-quick`,
        workflowId: `webhooks-give-up-${Date.now()}`,
        args: [{ runId: refreshRun!.run_id, markets: ['us'] }],
      }),
    );
    expect(result).toEqual({ events: 1, delivered: 0, failed: 1 });
    const log = await call(`/api/webhooks/${down.id}/deliveries`, dave.key);
    const [entry] = log.body.deliveries as Json[];
    expect(entry!.status).toBe('failed');
    expect(entry!.finished_at).toEqual(expect.any(String));
    expect(entry!.attempts.length).toBeGreaterThanOrEqual(2);
    expect(entry!.attempts.every((a: Json) => a.status_code === 503 && a.error === 'receiver answered 503')).toBe(true);
    expect(receiver.on('/down')).toHaveLength(entry!.attempts.length);
  }, 60_000);
});
