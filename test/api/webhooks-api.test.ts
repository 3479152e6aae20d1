import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessSetup } from '../../access/open-access.ts';
import { WEBHOOK_SUBSCRIPTIONS_PER_ACCOUNT } from '../../api/schemas/webhooks.ts';
import { DNS_DEADLINE_MS } from '../../webhooks/resolve-host.ts';
import { STRICT_POLICY } from '../../webhooks/target-policy.ts';
import { keyFor, meterUsed, openTestAccess } from '../support/access.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { startSilentDns } from '../webhooks/support/silent-dns.ts';
import { serveWebhookApi, type WebhookApi } from '../webhooks/support/webhook-api.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON under test
type Json = Record<string, any>;

/** A public https target given as an IP literal: accepted by the production policy without a DNS lookup. */
const PUBLIC_URL = 'https://8.8.8.8/faithscreen-hook';

describe('webhook subscriptions over real HTTP with the production target policy', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let access: AccessSetup;
  let api: WebhookApi;

  const call = async (path: string, key: string | undefined, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (key !== undefined) headers.set('X-API-Key', key);
    const response = await fetch(`${api.url}${path}`, { ...init, headers });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Json };
  };
  const create = (key: string | undefined, body: unknown) =>
    call('/api/webhooks', key, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const used = async (keyId: string) => {
    await access.meter.returnSpare();
    return meterUsed(access, keyId);
  };

  beforeAll(async () => {
    temp = await makeTempDir('faithscreen-webhooks-api-');
    access = await openTestAccess(temp.dir);
    api = await serveWebhookApi(temp.dir, access, STRICT_POLICY);
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await access?.close();
    await temp?.cleanup();
  });

  it('when a key creates a market subscription, then 201 returns it with its secret once, and the list shows it without the secret', async () => {
    const owner = await keyFor(access, 'pro');
    const created = await create(owner.key, { url: PUBLIC_URL, market: 'us', frameworks: ['shariah_aaoifi', 'christian_bri'] });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^whs_[0-9a-f]{24}$/),
      url: PUBLIC_URL,
      market: 'us',
      tickers: null,
      frameworks: ['shariah_aaoifi', 'christian_bri'],
      events: ['status.changed'],
      secret: expect.stringMatching(/^whsec_/),
    });
    expect(await used(owner.keyId)).toBe(5);
    const list = await call('/api/webhooks', owner.key);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      subscriptions: [expect.objectContaining({ id: created.body.id })],
      limit: WEBHOOK_SUBSCRIPTIONS_PER_ACCOUNT,
    });
    expect(JSON.stringify(list.body)).not.toContain(created.body.secret);
    expect(await used(owner.keyId)).toBe(5);
    // The store holds the secret sealed, never as sent.
    const stored = await api.db.get<{ secret_sealed: string }>(
      'SELECT secret_sealed FROM webhook_subscriptions WHERE subscription_id = ?',
      [created.body.id],
    );
    expect(stored?.secret_sealed).toMatch(/^v1\./);
    expect(stored?.secret_sealed).not.toContain(created.body.secret);
  });

  it('when a key subscribes tickers, then they are normalised to market/TICKER without repeats', async () => {
    const owner = await keyFor(access, 'team');
    const created = await create(owner.key, { url: PUBLIC_URL, tickers: ['us/abc', 'US/ABC', 'gb/xyz.l'], frameworks: ['shariah_djim'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ market: null, tickers: ['us/ABC', 'gb/XYZ.L'] });
  });

  it("when another account's key lists, deletes or reads the deliveries of a subscription, then it sees none and gets 404", async () => {
    const owner = await keyFor(access, 'pro');
    const stranger = await keyFor(access, 'pro');
    const { body } = await create(owner.key, { url: PUBLIC_URL, market: 'gb', frameworks: ['shariah_msci'] });
    expect((await call('/api/webhooks', stranger.key)).body.subscriptions).toEqual([]);
    for (const [path, method] of [
      [`/api/webhooks/${body.id}`, 'DELETE'],
      [`/api/webhooks/${body.id}/deliveries`, 'GET'],
    ] as const) {
      const answer = await call(path, stranger.key, { method });
      expect(answer.status).toBe(404);
      expect(answer.body.detail).toMatch(new RegExp(`no webhook subscription '${body.id}' for this account`));
    }
    // The owner's subscription is untouched.
    expect((await call('/api/webhooks', owner.key)).body.subscriptions).toHaveLength(1);
  });

  it('when the owner deletes a subscription, then it is gone from the list and a second delete is 404', async () => {
    const owner = await keyFor(access, 'pro');
    const { body } = await create(owner.key, { url: PUBLIC_URL, market: 'us', frameworks: ['jewish_halakhic'] });
    const deliveries = await call(`/api/webhooks/${body.id}/deliveries`, owner.key);
    expect(deliveries).toMatchObject({ status: 200, body: { subscription_id: body.id, deliveries: [] } });
    const deleted = await call(`/api/webhooks/${body.id}`, owner.key, { method: 'DELETE' });
    expect(deleted).toMatchObject({ status: 200, body: { id: body.id, deleted: true } });
    expect((await call('/api/webhooks', owner.key)).body.subscriptions).toEqual([]);
    expect((await call(`/api/webhooks/${body.id}`, owner.key, { method: 'DELETE' })).status).toBe(404);
    expect((await call(`/api/webhooks/${body.id}/deliveries`, owner.key)).status).toBe(404);
    expect((await call('/api/webhooks/not-an-id', owner.key, { method: 'DELETE' })).status).toBe(404);
  });

  it(`when an account already has ${WEBHOOK_SUBSCRIPTIONS_PER_ACCOUNT} subscriptions, then another is 409 and costs nothing`, async () => {
    const owner = await keyFor(access, 'team');
    for (let i = 0; i < WEBHOOK_SUBSCRIPTIONS_PER_ACCOUNT; i += 1)
      expect((await create(owner.key, { url: `${PUBLIC_URL}/${i}`, market: 'us', frameworks: ['shariah_ftse'] })).status).toBe(201);
    const before = await used(owner.keyId);
    const refused = await create(owner.key, { url: PUBLIC_URL, market: 'us', frameworks: ['shariah_ftse'] });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(
      new RegExp(`already has ${WEBHOOK_SUBSCRIPTIONS_PER_ACCOUNT} webhook subscriptions.*delete one first`),
    );
    expect(await used(owner.keyId)).toBe(before);
  });

  describe('refusals', () => {
    let key: string;
    beforeAll(async () => {
      key = (await keyFor(access, 'pro')).key;
    });

    it('when no key is sent, then 401', async () => {
      expect((await create(undefined, { url: PUBLIC_URL, market: 'us', frameworks: ['shariah_aaoifi'] })).status).toBe(401);
      expect((await call('/api/webhooks', undefined)).status).toBe(401);
    });

    it('when the key lacks the webhooks endpoint grant, then 403 names the endpoint', async () => {
      const narrow = await keyFor(access, 'partner', { endpoints: ['screen'] });
      const { status, body } = await create(narrow.key, { url: PUBLIC_URL, market: 'us', frameworks: ['shariah_aaoifi'] });
      expect(status).toBe(403);
      expect(body.detail).toMatch(/not provisioned for endpoint 'webhooks'; it may use: screen/);
      expect((await call('/api/webhooks', narrow.key)).status).toBe(403);
    });

    it('when the key is not granted the market or a framework, then 403 names it', async () => {
      const gbOnly = await keyFor(access, 'partner', { markets: ['gb'], frameworks: ['shariah_aaoifi'] });
      const market = await create(gbOnly.key, { url: PUBLIC_URL, tickers: ['us/ABC'], frameworks: ['shariah_aaoifi'] });
      expect(market).toMatchObject({ status: 403, body: { detail: expect.stringMatching(/not provisioned for market 'us'/) } });
      const framework = await create(gbOnly.key, { url: PUBLIC_URL, market: 'gb', frameworks: ['shariah_djim'] });
      expect(framework).toMatchObject({
        status: 403,
        body: { detail: expect.stringMatching(/not provisioned for framework\(s\) shariah_djim/) },
      });
      const consensus = await create(key, { url: PUBLIC_URL, market: 'us', frameworks: ['service_consensus'] });
      expect(consensus.status).toBe(403);
    });

    it.each([
      [
        { url: PUBLIC_URL, market: 'us', frameworks: ['shariah_nope'] },
        /body.frameworks: unknown framework id\(s\) shariah_nope; valid ids: shariah_aaoifi/,
      ],
      [{ url: PUBLIC_URL, market: 'us', frameworks: [] }, /body.frameworks: name at least one framework id/],
      [{ url: PUBLIC_URL, market: 'mars', frameworks: ['shariah_aaoifi'] }, /body.market: unknown market 'mars'; valid markets: /],
      [{ url: PUBLIC_URL, tickers: ['AAPL'], frameworks: ['shariah_aaoifi'] }, /body.tickers\[0\]: 'AAPL' is not market\/TICKER/],
      [{ url: PUBLIC_URL, tickers: ['us/$$$'], frameworks: ['shariah_aaoifi'] }, /body.tickers\[0\]: invalid ticker/],
      [{ url: PUBLIC_URL, tickers: [], frameworks: ['shariah_aaoifi'] }, /body.tickers: name at least one/],
      [{ url: PUBLIC_URL, market: 'us', tickers: ['us/ABC'], frameworks: ['shariah_aaoifi'] }, /either `market`.*or `tickers`/],
      [{ url: PUBLIC_URL, frameworks: ['shariah_aaoifi'] }, /either `market`.*or `tickers`/],
      [
        { url: PUBLIC_URL, market: 'us', frameworks: ['shariah_aaoifi'], events: ['price.changed'] },
        /unknown event type\(s\) price.changed; valid: status.changed/,
      ],
      [{ url: 'hooks.example.com/x', market: 'us', frameworks: ['shariah_aaoifi'] }, /url: 'hooks.example.com\/x' is not an absolute URL/],
      [{ url: 'ftp://8.8.8.8/x', market: 'us', frameworks: ['shariah_aaoifi'] }, /scheme 'ftp' is not accepted; use https/],
    ])('when the body is %j, then 400 names the problem', async (body, detail) => {
      const { status, body: answer } = await create(key, body);
      expect(status).toBe(400);
      expect(answer.detail).toMatch(detail);
    });

    it.each([
      ['http://8.8.8.8/hook', /plain http is not accepted; webhook targets must use https/],
      ['https://127.0.0.1:8443/hook', /address 127.0.0.1 is not a public address/],
      ['https://[::7f00:1]/hook', /address ::7f00:1 is not a public address/],
      ['https://localhost/hook', /^webhook URL host localhost resolves to an address that is not a public address/],
      ['https://169.254.169.254/latest/meta-data', /not a public address/],
      ['https://[fd00::1]/hook', /not a public address/],
    ])('when the URL is %s, then 400 says it is not allowed', async (url, detail) => {
      const { status, body } = await create(key, { url, market: 'us', frameworks: ['shariah_aaoifi'] });
      expect(status).toBe(400);
      expect(body.detail).toMatch(detail);
    });

    it('when the host is a name resolving to loopback, then 400 refuses it without telling the address it resolves to', async () => {
      const { status, body } = await create(key, { url: 'https://localhost/hook', market: 'us', frameworks: ['shariah_aaoifi'] });
      expect(status).toBe(400);
      expect(JSON.stringify(body)).not.toMatch(/127\.0\.0\.1|[ (]::1\b/);
    });

    it("when the host's name server never answers, then 400 says it does not resolve within the lookup deadline", async () => {
      const dns = await startSilentDns();
      const slowDns = await serveWebhookApi(temp.dir, access, { ...STRICT_POLICY, dnsServers: [dns.server] });
      try {
        const started = Date.now();
        const response = await fetch(`${slowDns.url}/api/webhooks`, {
          method: 'POST',
          headers: { 'X-API-Key': key, 'content-type': 'application/json' },
          body: JSON.stringify({ url: 'https://hooks.test/x', market: 'us', frameworks: ['shariah_aaoifi'] }),
        });
        expect(response.status).toBe(400);
        expect(((await response.json()) as Json).detail).toBe('url: host hooks.test does not resolve (ETIMEOUT)');
        expect(Date.now() - started).toBeLessThan(DNS_DEADLINE_MS + 2_000);
        expect(dns.queries()).toBeGreaterThan(0);
      } finally {
        await slowDns.close();
        await dns.close();
      }
    }, 30_000);

    it("when the key's quota cannot cover the 5 units, then 429, while listing (0 units) still answers", async () => {
      const small = await keyFor(access, 'partner', { dailyLimit: 4 });
      const { status, body } = await create(small.key, { url: PUBLIC_URL, market: 'us', frameworks: ['shariah_aaoifi'] });
      expect(status).toBe(429);
      expect(body.detail.message).toMatch(/this request costs 5 unit\(s\)/);
      expect((await call('/api/webhooks', small.key)).status).toBe(200);
    });

    it('when the body has an unknown field or a wrong type, then 422', async () => {
      const extra = await create(key, { url: PUBLIC_URL, market: 'us', frameworks: ['shariah_aaoifi'], secret: 'mine' });
      expect(extra.status).toBe(422);
      expect(extra.body.detail).toMatch(/secret/);
      const wrongType = await create(key, { url: PUBLIC_URL, market: 'us', frameworks: 'shariah_aaoifi' });
      expect(wrongType).toMatchObject({ status: 422, body: { detail: expect.stringMatching(/body.frameworks: expected array/) } });
    });

    it('when the deliveries limit is out of range or not a number, then 400 names the range', async () => {
      const { body } = await create(key, { url: PUBLIC_URL, market: 'us', frameworks: ['shariah_aaoifi'] });
      for (const limit of ['0', '201', 'ten']) {
        const answer = await call(`/api/webhooks/${body.id}/deliveries?limit=${limit}`, key);
        expect(answer.status).toBe(400);
      }
      expect((await call(`/api/webhooks/${body.id}/deliveries?limit=0`, key)).body.detail).toMatch(/give 1 to 200/);
    });
  });

  it('serves an OpenAPI document that a real validator accepts, with the four webhook operations', async () => {
    const { body } = await call('/openapi.json', undefined);
    const result = await new Validator().validate(body);
    expect(result.errors ?? []).toEqual([]);
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining(['/api/webhooks', '/api/webhooks/{id}', '/api/webhooks/{id}/deliveries']),
    );
    expect(Object.keys(body.paths['/api/webhooks'])).toEqual(['post', 'get']);
    expect(body.paths['/api/webhooks'].post['x-unit-cost']).toBe('5');
  });
});
