import { randomBytes } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessSetup } from '../../access/open-access.ts';
import { createTemporalRefresher } from '../../api/temporal-refresher.ts';
import { bundleWorkflows, startWorker, type RunningWorker } from '../../platform/worker.ts';
import { openServiceDb, type ServiceDb } from '../../service-state/db.ts';
import { DELIVERY_DEADLINE_MS } from '../../webhooks/deliver.ts';
import { WEBHOOK_LOG_RETENTION_DAYS } from '../../webhooks/delivery-policy.ts';
import { WebhookStore } from '../../webhooks/webhook-store.ts';
import type { LakeMaintenanceResult } from '../../workflows/lake-maintenance.ts';
import { buildLake, type FixtureTickers } from '../api/support/lake-fixture.ts';
import { keyFor, openTestAccess } from '../support/access.ts';
import { testServiceState } from '../support/service-state.ts';
import { startTestTemporal } from '../support/temporal.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { startReceiver } from '../webhooks/support/receiver.ts';
import { startSlowReceiver } from '../webhooks/support/slow-receiver.ts';
import { flippedYesterday, until } from '../webhooks/support/status-change.ts';
import { serveWebhookApi, type WebhookApi } from '../webhooks/support/webhook-api.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON under test
type Json = Record<string, any>;

const TASK_QUEUE = 'webhook-isolation';
const DELIVERY_QUEUE = 'webhook-isolation-deliveries';
const LOCAL_POLICY = { allowHttp: true, allowPrivate: true };
/** Retries quickly, and gives up within the test's bounds. */
const TEST_RETRY = { initialIntervalMs: 500, maximumIntervalMs: 2_000, giveUpAfterMs: 40_000 };
/** Trickling receivers, more than a run's deliveries used to have lanes (4), so the old way queued everyone behind them. */
const TRICKLING = 5;

/**
 * The real worker (both task queues, its slots as configured) on a real Temporal dev server; a
 * re-screen through the API publishes a status change that several subscribers follow, some of
 * them on receivers that answer one byte every two seconds.
 */
describe('webhook deliveries: a slow receiver holds back no other subscriber, and a key that lost its grant gets nothing', () => {
  let env: TestWorkflowEnvironment;
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let t: FixtureTickers;
  let access: AccessSetup;
  let api: WebhookApi;
  let workerDb: ServiceDb;
  let worker: RunningWorker;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let slow: Awaited<ReturnType<typeof startSlowReceiver>>;

  const call = async (path: string, key: string, init: RequestInit = {}) => {
    const response = await fetch(`${api.url}${path}`, { ...init, headers: { 'X-API-Key': key, 'content-type': 'application/json' } });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const subscribe = async (key: string, url: string, frameworks = ['shariah_aaoifi']) => {
    const created = await call('/api/webhooks', key, {
      method: 'POST',
      body: JSON.stringify({ url, tickers: [`us/${t.stale}`], frameworks }),
    });
    expect(created.status).toBe(201);
    return created.body as { id: string };
  };

  beforeAll(async () => {
    const [started, bundle, dir] = await Promise.all([
      startTestTemporal(),
      bundleWorkflows(),
      makeTempDir('faithscreen-webhook-isolation-'),
    ]);
    env = started;
    temp = dir;
    t = await buildLake(temp.dir);
    await flippedYesterday(temp.dir, t.stale);
    access = await openTestAccess(temp.dir);
    api = await serveWebhookApi(temp.dir, access, LOCAL_POLICY, {
      refresher: createTemporalRefresher({ client: env.client, taskQueue: TASK_QUEUE }),
      secretKey: randomBytes(32),
    });
    workerDb = await openServiceDb(await testServiceState(temp.dir));
    worker = await startWorker({
      address: env.address,
      namespace: 'default',
      taskQueue: TASK_QUEUE,
      dataDir: temp.dir,
      source: { source: 'sample', scale: 0.002 },
      maxConcurrentActivities: 2,
      workflowBundle: bundle,
      webhooks: { store: new WebhookStore(workerDb), secretKey: api.secretKey, policy: LOCAL_POLICY, retry: TEST_RETRY },
      deliveries: { taskQueue: DELIVERY_QUEUE, slots: 16 },
    });
    receiver = await startReceiver();
    slow = await startSlowReceiver(2_000);
  }, 240_000);
  afterAll(async () => {
    await worker?.stop();
    await slow?.close();
    await receiver?.close();
    await api?.close();
    await workerDb?.close();
    await access?.close();
    await env?.teardown();
    await temp?.cleanup();
  }, 120_000);

  it('when receivers trickle one byte every 2 s, then each attempt is cut at the 10 s deadline while the other subscribers get theirs within seconds, on the deliveries queue', async () => {
    expect(worker.slots).toEqual({ [TASK_QUEUE]: 2, [DELIVERY_QUEUE]: 16 });
    const owner = await keyFor(access, 'team');
    for (let n = 0; n < TRICKLING; n += 1) await subscribe(owner.key, `${slow.url}/trickle-head`);
    const bodyTrickler = await subscribe(owner.key, `${slow.url}/trickle-body`);
    const fast = await subscribe((await keyFor(access, 'pro')).key, `${receiver.url}/fast`);
    // Subscribers whose key lost its grant after subscribing: revoked, and narrowed to another framework.
    const revoked = await keyFor(access, 'pro');
    await subscribe(revoked.key, `${receiver.url}/revoked`);
    await access.store.revokeKey(revoked.keyId, new Date());
    const narrowed = await keyFor(access, 'pro', { frameworks: ['shariah_aaoifi', 'shariah_djim'] });
    const narrowedSubscription = await subscribe(narrowed.key, `${receiver.url}/narrowed`, ['shariah_aaoifi', 'shariah_djim']);
    await workerDb.run('UPDATE api_keys SET allowed_frameworks = ? WHERE key_id = ?', ['["shariah_djim"]', narrowed.keyId]);

    const screen = await call(`/api/screen/us/${t.stale}?force_refresh=true&framework=shariah_aaoifi`, owner.key);
    expect(screen.status).toBe(200);
    const published = Date.now();

    await until('the fast subscriber', () => (receiver.on('/fast').length > 0 ? true : undefined), 30_000);
    const fastLatencyMs = Date.now() - published;
    await until('the body trickler', () => (slow.on('/trickle-body').length > 0 ? true : undefined), 30_000);
    // The other subscribers were served while the trickling attempts were still open.
    expect(fastLatencyMs).toBeLessThan(5_000);
    expect(slow.on('/trickle-head').filter((c) => c.closedAt !== null)).toEqual([]);

    await until(
      'the first attempt of every trickling subscriber to be cut',
      () => (slow.on('/trickle-head').filter((c) => c.closedAt !== null).length >= TRICKLING ? true : undefined),
      DELIVERY_DEADLINE_MS + 20_000,
    );
    const cuts = slow
      .on('/trickle-head')
      .filter((c) => c.closedAt !== null)
      .slice(0, TRICKLING)
      .map((c) => c.closedAt! - c.openedAt);
    for (const cut of cuts) {
      expect(cut).toBeGreaterThanOrEqual(DELIVERY_DEADLINE_MS - 500);
      expect(cut).toBeLessThan(DELIVERY_DEADLINE_MS + 1_500);
    }
    console.info(`fast subscriber served ${fastLatencyMs} ms after publishing; trickling attempts cut after ${cuts.join(', ')} ms`);

    const [run] = await api.db.all<{ run_id: string }>('SELECT DISTINCT run_id FROM webhook_events WHERE subscription_id = ?', [fast.id]);
    const child = await env.client.workflow.getHandle(`webhooks-${run!.run_id}-${fast.id}`).describe();
    expect(child.taskQueue).toBe(DELIVERY_QUEUE);
    const bodyLog = await call(`/api/webhooks/${bodyTrickler.id}/deliveries`, owner.key);
    expect(bodyLog.body.deliveries[0]).toMatchObject({ status: 'delivered', attempts: [{ status_code: 200, error: null }] });
    expect(bodyLog.body.deliveries[0].attempts[0].duration_ms).toBeLessThan(2_000);
    const tricklerLog = await api.db.all<{ error: string }>(
      `SELECT a.error FROM webhook_attempts a JOIN webhook_events e ON e.event_id = a.event_id
       JOIN webhook_subscriptions s ON s.subscription_id = e.subscription_id WHERE s.url = ? ORDER BY a.attempted_at`,
      [`${slow.url}/trickle-head`],
    );
    expect(tricklerLog.slice(0, TRICKLING).map((a) => a.error)).toEqual(Array(TRICKLING).fill('no answer within 10 s'));

    expect(receiver.on('/revoked')).toHaveLength(0);
    expect(receiver.on('/narrowed')).toHaveLength(0);
    const narrowedEvents = await api.db.all('SELECT event_id FROM webhook_events WHERE subscription_id = ?', [narrowedSubscription.id]);
    expect(narrowedEvents).toHaveLength(0);
  }, 90_000);

  it('when lake maintenance runs, then delivery-log entries older than the retention go with their attempts and newer ones stay', async () => {
    const owner = await keyFor(access, 'pro');
    const { id } = await subscribe(owner.key, `${receiver.url}/retention`);
    const store = new WebhookStore(workerDb);
    const dayMs = 24 * 60 * 60_000;
    const record = async (ageDays: number, runId: string) => {
      const at = new Date(Date.now() - ageDays * dayMs).toISOString();
      const event = await store.recordEvent({
        eventId: `evt_${runId}`,
        subscriptionId: id,
        type: 'status.changed',
        market: 'us',
        ticker: t.stale,
        runId,
        body: '{}',
        createdAt: at,
      });
      await store.recordAttempt(event.eventId, { attemptedAt: at, statusCode: 500, error: 'receiver answered 500', durationMs: 3 });
      await store.recordAttempt(event.eventId, { attemptedAt: at, statusCode: 200, error: null, durationMs: 3 });
      await store.finishEvent(event.eventId, 'delivered', at);
      return event.eventId;
    };
    const old = await record(WEBHOOK_LOG_RETENTION_DAYS + 1, 'retention-old');
    const recent = await record(WEBHOOK_LOG_RETENTION_DAYS - 1, 'retention-recent');

    const result: LakeMaintenanceResult = await env.client.workflow.execute('lakeMaintenance', {
      taskQueue: TASK_QUEUE,
      workflowId: `maintenance-webhook-log-${Date.now()}`,
    });

    expect(result.webhookLog).toEqual({ events: 1, attempts: 2 });
    expect(await store.event(old)).toBeUndefined();
    expect(await api.db.all('SELECT attempt FROM webhook_attempts WHERE event_id = ?', [old])).toEqual([]);
    expect((await store.deliveries(id, 10)).map((e) => [e.eventId, e.attempts.length])).toEqual([[recent, 2]]);
  }, 120_000);
});
