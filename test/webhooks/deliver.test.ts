import { randomBytes } from 'node:crypto';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookActivities } from '../../activities/webhooks.ts';
import { createAccount, createKey, lapseAccount, revokeKey } from '../../access/administration.ts';
import { AccessStore } from '../../access/access-store.ts';
import { openServiceDb, type ServiceDb } from '../../service-state/db.ts';
import { deliver } from '../../webhooks/deliver.ts';
import { DNS_DEADLINE_MS } from '../../webhooks/resolve-host.ts';
import { newEventId, newSubscriptionId } from '../../webhooks/events.ts';
import { sealSecret } from '../../webhooks/secret-box.ts';
import { verifySignature } from '../../webhooks/signature.ts';
import { STRICT_POLICY } from '../../webhooks/target-policy.ts';
import { WebhookStore } from '../../webhooks/webhook-store.ts';
import { testServiceState } from '../support/service-state.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { startReceiver } from './support/receiver.ts';
import { startSilentDns } from './support/silent-dns.ts';
import { startSlowReceiver } from './support/slow-receiver.ts';

const LOCAL = { allowHttp: true, allowPrivate: true };
const BODY = '{"id":"evt_x","type":"status.changed"}';

describe('delivering one event', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver((path) => (path === '/down' ? 503 : 200));
  });
  afterAll(() => receiver?.close());

  it('when the target is allowed, then the body arrives signed and a 2xx is success', async () => {
    const outcome = await deliver(LOCAL, `${receiver.url}/ok`, 'whsec_s', BODY, 'evt_x');
    expect(outcome).toMatchObject({ statusCode: 200, error: null, refused: false });
    const [got] = receiver.on('/ok');
    expect(got!.body).toBe(BODY);
    expect(got!.headers['content-type']).toBe('application/json');
    expect(verifySignature('whsec_s', got!.headers['faithscreen-signature'] as string, got!.body).valid).toBe(true);
  });

  it('when the receiver answers 503 or nobody listens, then the attempt failed with the reason and may be retried', async () => {
    expect(await deliver(LOCAL, `${receiver.url}/down`, 'whsec_s', BODY, 'evt_x')).toMatchObject({
      statusCode: 503,
      error: 'receiver answered 503',
      refused: false,
    });
    const closed = await deliver(LOCAL, 'http://127.0.0.1:9/nobody', 'whsec_s', BODY, 'evt_x');
    expect(closed).toMatchObject({ statusCode: null, error: 'connection refused (ECONNREFUSED)', refused: false });
  });

  it('when a name resolves to an address that refuses the connection, then the error says so without naming the address', async () => {
    const closed = await deliver(LOCAL, 'http://localhost:9/nobody', 'whsec_s', BODY, 'evt_x');
    expect(closed).toMatchObject({ statusCode: null, error: 'connection refused (ECONNREFUSED)', refused: false });
  });

  it('when the name server never answers, then the attempt ends on the lookup deadline saying so', async () => {
    const dns = await startSilentDns();
    try {
      const outcome = await deliver({ ...LOCAL, dnsServers: [dns.server] }, 'http://hooks.test/x', 'whsec_s', BODY, 'evt_x');
      expect(outcome).toMatchObject({ statusCode: null, error: 'host hooks.test does not resolve (ETIMEOUT)', refused: false });
      expect(outcome.durationMs).toBeLessThan(DNS_DEADLINE_MS + 1_000);
      expect(dns.queries()).toBeGreaterThan(0);
    } finally {
      await dns.close();
    }
  }, 20_000);
  it('when the production policy meets a loopback target at delivery time (by IP, or by a name resolving there), then nothing is sent and the refusal is final', async () => {
    const before = receiver.received.length;
    const policy = { ...STRICT_POLICY, allowHttp: true };
    const byIp = await deliver(policy, `${receiver.url}/ok`, 'whsec_s', BODY, 'evt_x');
    expect(byIp).toMatchObject({
      statusCode: null,
      refused: true,
      error: expect.stringMatching(/address 127.0.0.1 is not a public address/),
    });
    const byName = await deliver(policy, `${receiver.url.replace('127.0.0.1', 'localhost')}/ok`, 'whsec_s', BODY, 'evt_x');
    expect(byName).toMatchObject({
      statusCode: null,
      refused: true,
      error: expect.stringMatching(/host localhost resolves to an address that is not a public address/),
    });
    expect(byName.error).not.toMatch(/127\.0\.0\.1|::1/);
    expect(receiver.received.length).toBe(before);
  });
});

describe('a receiver that answers one byte at a time', () => {
  let slow: Awaited<ReturnType<typeof startSlowReceiver>>;
  beforeAll(async () => {
    slow = await startSlowReceiver(300);
  });
  afterAll(() => slow?.close());

  it('when even the status line trickles, then the attempt is cut at the deadline on the whole request and the connection closed', async () => {
    const outcome = await deliver(LOCAL, `${slow.url}/trickle-head`, 'whsec_s', BODY, 'evt_x', { deadlineMs: 1_500 });
    expect(outcome).toMatchObject({ statusCode: null, error: 'no answer within 1.5 s', refused: false });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(1_400);
    expect(outcome.durationMs).toBeLessThan(2_500);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const [connection] = slow.on('/trickle-head');
    expect(connection!.closedAt! - connection!.openedAt).toBeLessThan(2_500);
  }, 30_000);

  it('when the status line comes at once and the body trickles, then the status decides and the body is never waited for', async () => {
    const outcome = await deliver(LOCAL, `${slow.url}/trickle-body`, 'whsec_s', BODY, 'evt_x', { deadlineMs: 5_000 });
    expect(outcome).toMatchObject({ statusCode: 200, error: null });
    expect(outcome.durationMs).toBeLessThan(1_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(slow.on('/trickle-body')[0]!.closedAt).not.toBeNull();
  }, 30_000);

  it('when the attempt is cancelled, then it stops at once and the connection is closed', async () => {
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(), 300);
    const outcome = await deliver(LOCAL, `${slow.url}/trickle-head`, 'whsec_s', BODY, 'evt_x', { signal: cancel.signal });
    expect(outcome).toMatchObject({ statusCode: null, error: 'attempt cancelled' });
    expect(outcome.durationMs).toBeLessThan(1_000);
  }, 30_000);
});

describe('the delivery activity', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let db: ServiceDb;
  let store: WebhookStore;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const key = randomBytes(32);
  /** Each account's key, which creates its subscriptions. */
  const keys: Record<string, string> = {};
  /** One attempt as the worker runs it: in an activity context (heartbeats, cancellation). */
  const attempt = (activities: ReturnType<typeof createWebhookActivities>, eventId: string) =>
    new MockActivityEnvironment().run(activities.deliverWebhookEvent, eventId);

  beforeAll(async () => {
    temp = await makeTempDir('faithscreen-webhook-activity-');
    db = await openServiceDb(await testServiceState(temp.dir));
    store = new WebhookStore(db);
    const access = new AccessStore(db);
    for (const account of ['acme', 'lapsing']) {
      await createAccount(access, account, 'pro');
      keys[account] = (await createKey(access, randomBytes(32), { account })).key_id;
    }
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await db?.close();
    await temp?.cleanup();
  });

  async function pendingEvent(url: string, account = 'acme', keyId = keys[account]!): Promise<{ subscriptionId: string; eventId: string }> {
    const subscriptionId = newSubscriptionId();
    await store.createSubscription(
      {
        subscriptionId,
        account,
        createdByKeyId: keyId,
        url,
        market: 'us',
        tickers: null,
        frameworks: ['shariah_aaoifi'],
        events: ['status.changed'],
        secretSealed: sealSecret(key, subscriptionId, 'whsec_s'),
        createdAt: new Date().toISOString(),
        deletedAt: null,
      },
      25,
    );
    const event = await store.recordEvent({
      eventId: newEventId(),
      subscriptionId,
      type: 'status.changed',
      market: 'us',
      ticker: 'ABC',
      runId: `run-${subscriptionId}`,
      body: BODY,
      createdAt: new Date().toISOString(),
    });
    return { subscriptionId, eventId: event.eventId };
  }

  it('when the worker policy refuses a target the API once accepted, then the attempt is recorded, the event fails and no retry follows', async () => {
    const activities = createWebhookActivities(temp.dir, { store, secretKey: key, policy: { ...STRICT_POLICY, allowHttp: true } });
    const { subscriptionId, eventId } = await pendingEvent(`${receiver.url}/hook`);
    const failure = await attempt(activities, eventId).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ nonRetryable: true, type: 'WebhookTargetRefused' });
    const [logged] = await store.deliveries(subscriptionId, 10);
    expect(logged).toMatchObject({
      status: 'failed',
      attempts: [{ attempt: 1, statusCode: null, error: expect.stringMatching(/not a public address/) }],
    });
    expect(receiver.received).toHaveLength(0);
  });

  it('when the event was delivered already or its subscription was deleted, then nothing is sent', async () => {
    const activities = createWebhookActivities(temp.dir, { store, secretKey: key, policy: LOCAL });
    const delivered = await pendingEvent(`${receiver.url}/once`);
    expect(await attempt(activities, delivered.eventId)).toBe('delivered');
    expect(await attempt(activities, delivered.eventId)).toBe('skipped');
    expect(receiver.on('/once')).toHaveLength(1);
    const orphan = await pendingEvent(`${receiver.url}/deleted`);
    await store.deleteSubscription('acme', orphan.subscriptionId, new Date().toISOString());
    expect(await attempt(activities, orphan.eventId)).toBe('skipped');
    expect(receiver.on('/deleted')).toHaveLength(0);
    expect((await store.event(orphan.eventId))?.status).toBe('failed');
  });

  it('when the account lapses while an event waits for a retry, then the next attempt sends nothing and the event ends failed saying why', async () => {
    const activities = createWebhookActivities(temp.dir, { store, secretKey: key, policy: LOCAL });
    const { subscriptionId, eventId } = await pendingEvent(`${receiver.url}/lapsing`, 'lapsing');
    await lapseAccount(new AccessStore(db), 'lapsing');
    expect(await attempt(activities, eventId)).toBe('skipped');
    expect(receiver.on('/lapsing')).toHaveLength(0);
    const [logged] = await store.deliveries(subscriptionId, 10);
    expect(logged).toMatchObject({
      status: 'failed',
      attempts: [{ attempt: 1, statusCode: null, error: expect.stringMatching(/^not sent: account lapsing lapsed on \d{4}-\d{2}-\d{2}$/) }],
    });
  });

  it('when the key that created the subscription is revoked while an event waits, then the next attempt sends nothing and says why', async () => {
    const activities = createWebhookActivities(temp.dir, { store, secretKey: key, policy: LOCAL });
    const access = new AccessStore(db);
    const own = (await createKey(access, randomBytes(32), { account: 'acme' })).key_id;
    const { subscriptionId, eventId } = await pendingEvent(`${receiver.url}/revoked`, 'acme', own);
    await revokeKey(access, own);
    expect(await attempt(activities, eventId)).toBe('skipped');
    expect(receiver.on('/revoked')).toHaveLength(0);
    const [logged] = await store.deliveries(subscriptionId, 10);
    expect(logged).toMatchObject({
      status: 'failed',
      attempts: [
        { error: expect.stringMatching(new RegExp(`^not sent: the key ${own} that created the subscription was revoked on \\d{4}-`)) },
      ],
    });
  });

  it.each([
    [
      'allowed_frameworks',
      '["shariah_djim"]',
      /^not sent: none of the subscription's frameworks is within the grant of key key_\w+ any more$/,
    ],
    ['allowed_markets', '["gb"]', /^not sent: market us is no longer within the grant of key key_\w+$/],
    ['allowed_endpoints', '["screen"]', /^not sent: the key key_\w+ that created the subscription no longer has the webhooks grant$/],
  ])("when the key's %s is narrowed to %s while an event waits, then it is not sent and the log says why", async (column, value, why) => {
    const activities = createWebhookActivities(temp.dir, { store, secretKey: key, policy: LOCAL });
    const own = (await createKey(new AccessStore(db), randomBytes(32), { account: 'acme' })).key_id;
    const { subscriptionId, eventId } = await pendingEvent(`${receiver.url}/narrowed-${column}`, 'acme', own);
    // An operator narrowing the grant in the service state.
    await db.run(`UPDATE api_keys SET ${column} = ? WHERE key_id = ?`, [value, own]);
    expect(await attempt(activities, eventId)).toBe('skipped');
    expect(receiver.on(`/narrowed-${column}`)).toHaveLength(0);
    const [logged] = await store.deliveries(subscriptionId, 10);
    expect(logged).toMatchObject({ status: 'failed', attempts: [{ error: expect.stringMatching(why) }] });
  });

  it('when an attempt is cancelled while the receiver trickles, then it stops at once, is recorded, and the cancellation reaches Temporal', async () => {
    const slow = await startSlowReceiver(300);
    try {
      const activities = createWebhookActivities(temp.dir, { store, secretKey: key, policy: LOCAL });
      const { subscriptionId, eventId } = await pendingEvent(`${slow.url}/trickle-head`);
      const env = new MockActivityEnvironment();
      const started = Date.now();
      setTimeout(() => env.cancel(), 500);
      const failure = await env.run(activities.deliverWebhookEvent, eventId).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(CancelledFailure);
      expect(Date.now() - started).toBeLessThan(2_000);
      const [logged] = await store.deliveries(subscriptionId, 10);
      expect(logged).toMatchObject({ status: 'pending', attempts: [{ attempt: 1, statusCode: null, error: 'attempt cancelled' }] });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(slow.on('/trickle-head')[0]!.closedAt).not.toBeNull();
    } finally {
      await slow.close();
    }
  });

  it('when a run is recorded twice for one subscription and ticker, then it is one event', async () => {
    const { subscriptionId, eventId } = await pendingEvent(`${receiver.url}/dup`);
    const again = await store.recordEvent({
      eventId: newEventId(),
      subscriptionId,
      type: 'status.changed',
      market: 'us',
      ticker: 'ABC',
      runId: `run-${subscriptionId}`,
      body: '{"other":true}',
      createdAt: new Date().toISOString(),
    });
    expect(again).toMatchObject({ eventId, body: BODY });
  });
});
