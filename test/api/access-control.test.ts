import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAMEWORK_IDS } from '../../engine/index.ts';
import type { AccessSetup } from '../../access/open-access.ts';
import { lapseAccount, reinstateAccount, revokeKey } from '../../access/administration.ts';
import { DAY_MS } from '../../access/tiers.ts';
import { keyFor, meterUsed, openTestAccess, TEST_UPGRADE_URL } from '../support/access.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { type FixtureTickers, type ServedLakeApi, serveLakeApi } from './support/lake-fixture.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON under test
type Json = Record<string, any>;

const NON_CONSENSUS = FRAMEWORK_IDS.filter((id) => id !== 'service_consensus');

describe('access control over real HTTP (keys, scopes, quotas)', () => {
  let lake: ServedLakeApi;
  let t: FixtureTickers;
  let access: AccessSetup;
  let serviceDir: Awaited<ReturnType<typeof makeTempDir>>;
  let clock = Date.parse('2026-11-21T10:00:00Z');

  const call = async (path: string, key?: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (key !== undefined) headers.set('X-API-Key', key);
    const response = await fetch(`${lake.server.url}${path}`, { ...init, headers });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Json };
  };
  const post = (path: string, key: string, body: unknown) =>
    call(path, key, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  /** Units spent by a key: spare units this process holds are returned first, so the store shows exactly what was spent. */
  const used = async (keyId: string) => {
    await access.meter.returnSpare();
    return meterUsed(access, keyId);
  };

  beforeAll(async () => {
    serviceDir = await makeTempDir();
    access = await openTestAccess(serviceDir.dir, () => clock);
    lake = await serveLakeApi(undefined, access.middleware);
    t = lake.t;
  }, 120_000);
  afterAll(async () => {
    await lake?.close();
    await access?.close();
    await serviceDir?.cleanup();
  });

  describe('401: missing or invalid key', () => {
    it('when no key is sent to a metered endpoint, then 401 says to send X-API-Key', async () => {
      const { status, body } = await call(`/api/screen/us/${t.fresh[0]}`);
      expect(status).toBe(401);
      expect(body.detail).toMatch(/missing API key.*X-API-Key/);
    });

    it('when the key is malformed, unknown, has a wrong secret or is revoked, then 401 with one message for all', async () => {
      const good = await keyFor(access, 'pro');
      const wrongSecret = `${good.key.slice(0, -4)}${good.key.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
      const revoked = await keyFor(access, 'pro');
      await revokeKey(access.store, revoked.keyId);
      const unknown = `fs_live_${'Z'.repeat(55)}`;
      for (const bad of ['nonsense', unknown, wrongSecret, revoked.key]) {
        const { status, body } = await call(`/api/screen/us/${t.fresh[0]}`, bad);
        expect(status).toBe(401);
        expect(body.detail).toMatch(/^invalid API key/);
      }
      expect((await call(`/api/screen/us/${t.fresh[0]}`, good.key)).status).toBe(200);
    });

    it('when a public endpoint is called without a key or with an invalid one, then it answers, without key_scope', async () => {
      expect((await call('/api/screen/frameworks')).status).toBe(200);
      expect((await call('/api/universe/search?q=a')).status).toBe(200);
      expect((await call('/api/markets')).status).toBe(200);
      const bogus = await call('/api/screen/frameworks', 'fs_live_bogus');
      expect(bogus.status).toBe(200);
      expect(bogus.body.key_scope).toBeUndefined();
      expect((await call('/api/universe/search?q=a', 'fs_live_bogus')).status).toBe(200);
    });
  });

  describe('403: tier, endpoint, market and framework grants', () => {
    it("when the owner's subscription lapsed, then 403 carries upgrade_url; reinstating works on the next request", async () => {
      const lapsed = await keyFor(access, 'team', { lapsed: true });
      const { status, body } = await call(`/api/screen/us/${t.fresh[0]}`, lapsed.key);
      expect(status).toBe(403);
      expect(body.detail).toEqual({ message: expect.stringMatching(/lapsed on \d{4}-\d{2}-\d{2}/), upgrade_url: TEST_UPGRADE_URL });
      await reinstateAccount(access.store, lapsed.account);
      expect((await call(`/api/screen/us/${t.fresh[0]}`, lapsed.key)).status).toBe(200);
      await lapseAccount(access.store, lapsed.account);
      expect((await call(`/api/screen/us/${t.fresh[0]}`, lapsed.key)).status).toBe(403);
    });

    it('when the endpoint is outside the key grant, then 403 names it and what the key may use', async () => {
      const screenOnly = await keyFor(access, 'partner', { endpoints: ['screen'] });
      const batch = await post('/api/screen/batch', screenOnly.key, { tickers: [{ market: 'us', ticker: t.fresh[0] }] });
      expect(batch.status).toBe(403);
      expect(batch.body.detail).toBe("this key is not provisioned for endpoint 'screen/batch'; it may use: screen");
      const history = await call(`/api/screen/us/${t.withHistory}?as_of=2020-12-31`, screenOnly.key);
      expect(history.status).toBe(403);
      expect(history.body.detail).toMatch(/'screen\/history'/);
      expect((await call(`/api/screen/compare?market=us&tickers=${t.fresh[0]},${t.fresh[1]}`, screenOnly.key)).status).toBe(403);
      expect((await post('/api/screen/etf', screenOnly.key, { market: 'us', etf_ticker: t.fund.ticker })).status).toBe(403);
      expect((await call(`/api/screen/us/${t.fresh[0]}`, screenOnly.key)).status).toBe(200);
      expect(await used(screenOnly.keyId)).toBe(1);
    });

    it('when the market is outside the grant, then 403 names it, for single, compare, ETF and each batch item', async () => {
      const gbOnly = await keyFor(access, 'partner', { markets: ['gb'] });
      const single = await call(`/api/screen/us/${t.fresh[0]}`, gbOnly.key);
      expect(single.status).toBe(403);
      expect(single.body.detail).toBe("this key is not provisioned for market 'us'; it may use: gb");
      expect((await call(`/api/screen/compare?market=us&tickers=${t.fresh[0]},${t.fresh[1]}`, gbOnly.key)).status).toBe(403);
      expect((await post('/api/screen/etf', gbOnly.key, { market: 'us', etf_ticker: t.fund.ticker })).status).toBe(403);
      const batch = await post('/api/screen/batch', gbOnly.key, { tickers: [{ market: 'us', ticker: t.fresh[0] }] });
      expect(batch.status).toBe(200);
      expect(batch.body).toMatchObject({ requested: 1, succeeded: 0, failed: 1 });
      expect(batch.body.errors[0]).toMatchObject({ index: 0, market: 'us', status: 403 });
      expect(await used(gbOnly.keyId)).toBe(0);
    });

    it('when an explicit framework is outside the grant, then 403 names the denied ids; unfiltered responses are scoped', async () => {
      const twoShariah = await keyFor(access, 'partner', { frameworks: ['shariah_aaoifi', 'shariah_djim'] });
      const denied = await call(`/api/screen/us/${t.fresh[0]}?framework=shariah_aaoifi,christian_bri,jewish_halakhic`, twoShariah.key);
      expect(denied.status).toBe(403);
      expect(denied.body.detail).toMatch(/framework\(s\) christian_bri, jewish_halakhic; it may see: shariah_aaoifi, shariah_djim/);

      const single = await call(`/api/screen/us/${t.fresh[0]}`, twoShariah.key);
      expect(single.body.report.frameworks_returned).toEqual(['shariah_aaoifi', 'shariah_djim']);
      expect(single.body.report.christian_bri).toBeUndefined();

      const history = await call(`/api/screen/us/${t.withHistory}?as_of=2020-12-31`, twoShariah.key);
      expect(Object.keys(history.body.frameworks)).toEqual(['shariah_aaoifi', 'shariah_djim']);

      const batch = await post('/api/screen/batch', twoShariah.key, { tickers: [{ market: 'us', ticker: t.fresh[0] }] });
      expect(batch.body.results[0].report.frameworks_returned).toEqual(['shariah_aaoifi', 'shariah_djim']);

      const compare = await call(`/api/screen/compare?market=us&tickers=${t.fresh[0]},${t.fresh[1]}`, twoShariah.key);
      expect(compare.status).toBe(200);
      expect(JSON.stringify(compare.body)).not.toContain('christian_bri');

      const etf = await post('/api/screen/etf', twoShariah.key, { market: 'us', etf_ticker: t.fund.ticker, max_holdings: 3 });
      expect(etf.status).toBe(200);
      expect(Object.keys(etf.body.framework_stats).sort()).toEqual(['shariah_aaoifi', 'shariah_djim']);
    });

    it('when a framework-scoped key exports verdicts, then only the granted status columns are in the export', async () => {
      const scoped = await keyFor(access, 'partner', { frameworks: ['shariah_ftse'], endpoints: ['export'] });
      const response = await fetch(`${lake.server.url}/api/export/verdicts?market=us`, {
        headers: { 'X-API-Key': scoped.key, Accept: 'application/x-ndjson' },
      });
      expect(response.status).toBe(200);
      const first = JSON.parse((await response.text()).split('\n')[0]!) as Json;
      expect(Object.keys(first).filter((k) => k.endsWith('_status'))).toEqual(['shariah_ftse_status']);
      expect(await used(scoped.keyId)).toBe(10);
      const wrongMarket = await fetch(`${lake.server.url}/api/export/verdicts?market=gb`, {
        headers: { 'X-API-Key': (await keyFor(access, 'partner', { markets: ['us'] })).key, Accept: 'application/x-ndjson' },
      });
      expect(wrongMarket.status).toBe(403);
    });

    it('when a key has no framework restriction, then service_consensus still needs its own explicit grant', async () => {
      const unrestricted = await keyFor(access, 'pro');
      const all = await call(`/api/screen/us/${t.fresh[0]}`, unrestricted.key);
      expect(all.body.report.frameworks_returned).toEqual(NON_CONSENSUS);
      const asked = await call(`/api/screen/us/${t.fresh[0]}?framework=service_consensus`, unrestricted.key);
      expect(asked.status).toBe(403);
      expect(asked.body.detail).toMatch(/framework\(s\) service_consensus/);
      const granted = await keyFor(access, 'partner', { frameworks: ['shariah_aaoifi', 'service_consensus'] });
      const withConsensus = await call(`/api/screen/us/${t.fresh[0]}?framework=service_consensus`, granted.key);
      expect(withConsensus.status).toBe(200);
      expect(withConsensus.body.report.frameworks_returned).toEqual(['service_consensus']);
    });

    it('when a valid key is sent to the frameworks list, then key_scope shows its grant as provisioned', async () => {
      const scoped = await keyFor(access, 'partner', {
        markets: ['us', 'gb'],
        endpoints: ['screen', 'attest'],
        frameworks: ['shariah_msci'],
      });
      const withKey = await call('/api/screen/frameworks', scoped.key);
      expect(withKey.body.key_scope).toEqual({
        allowed_frameworks: ['shariah_msci'],
        allowed_markets: ['us', 'gb'],
        allowed_endpoints: ['screen', 'attest'],
      });
      const open = await call('/api/screen/frameworks', (await keyFor(access, 'enterprise')).key);
      expect(open.body.key_scope).toEqual({ allowed_frameworks: null, allowed_markets: null, allowed_endpoints: null });
      expect((await call('/api/screen/frameworks')).body.key_scope).toBeUndefined();
      expect(await used(scoped.keyId)).toBe(0);
    });
  });

  describe('metering: unit costs and refunds', () => {
    it('charges 1 for a screen, 2 for an as_of read, 1 for compare, 1 per ten ETF holdings and 1 per served batch ticker', async () => {
      const key = await keyFor(access, 'pro');
      await call(`/api/screen/us/${t.fresh[0]}`, key.key);
      expect(await used(key.keyId)).toBe(1);
      await call(`/api/screen/us/${t.withHistory}?as_of=2020-12-31`, key.key);
      expect(await used(key.keyId)).toBe(3);
      await call(`/api/screen/compare?market=us&tickers=${t.fresh[0]},${t.fresh[1]},${t.fresh[2]}`, key.key);
      expect(await used(key.keyId)).toBe(4);
      await post('/api/screen/etf', key.key, { market: 'us', etf_ticker: t.fund.ticker });
      expect(await used(key.keyId)).toBe(6);
      const batch = await post('/api/screen/batch', key.key, {
        tickers: [
          { market: 'us', ticker: t.fresh[0] },
          { market: 'us', ticker: 'NOPE9' },
          { market: 'zz', ticker: 'X' },
          { market: 'us', ticker: t.fresh[1] },
        ],
      });
      expect(batch.body).toMatchObject({ requested: 4, succeeded: 2, failed: 2 });
      expect(await used(key.keyId)).toBe(8);
    });

    it('when a request is refused (400, 404, 422), then it costs nothing', async () => {
      const key = await keyFor(access, 'pro');
      expect((await call('/api/screen/zz/AAPL', key.key)).status).toBe(400);
      expect((await call('/api/screen/us/NOSUCH1', key.key)).status).toBe(404);
      expect((await call(`/api/screen/us/${t.fresh[0]}?framework=nope`, key.key)).status).toBe(400);
      expect((await post('/api/screen/batch', key.key, { tickers: 'AAPL' })).status).toBe(422);
      expect(
        (await post('/api/screen/batch', key.key, { tickers: Array.from({ length: 101 }, () => ({ market: 'us', ticker: 'A' })) })).status,
      ).toBe(400);
      expect(await used(key.keyId)).toBe(0);
    });

    it("applies a partner key's own cost weights", async () => {
      const weighted = await keyFor(access, 'partner', { weights: { screen: 3, 'screen/batch': 2 } });
      await call(`/api/screen/us/${t.fresh[0]}`, weighted.key);
      expect(await used(weighted.keyId)).toBe(3);
      await post('/api/screen/batch', weighted.key, {
        tickers: [
          { market: 'us', ticker: t.fresh[0] },
          { market: 'us', ticker: t.fresh[1] },
        ],
      });
      expect(await used(weighted.keyId)).toBe(7);
    });
  });

  describe('429: exhausted quotas', () => {
    it('when the daily limit is used up, then 429 carries limits and upgrade_url, no X-RateLimit headers, and the window resets 24 hours after the first call', async () => {
      const small = await keyFor(access, 'partner', { dailyLimit: 3 });
      const firstCallAt = clock;
      for (let i = 0; i < 3; i++) expect((await call(`/api/screen/us/${t.fresh[i]}`, small.key)).status).toBe(200);
      clock += 60_000;
      const refused = await call(`/api/screen/us/${t.fresh[0]}`, small.key);
      expect(refused.status).toBe(429);
      expect(refused.body.detail).toEqual({
        message: expect.stringMatching(/quota exhausted: this request costs 1 unit\(s\) and the key's daily quota \(3 of 3 units used/),
        limits: [
          { window: 'daily', limit: 3, used: 3, remaining: 0, resets_at: new Date(firstCallAt + DAY_MS).toISOString(), exhausted: true },
        ],
        upgrade_url: TEST_UPGRADE_URL,
      });
      expect([...refused.headers.keys()].filter((h) => h.toLowerCase().startsWith('x-ratelimit'))).toEqual([]);
      expect(await used(small.keyId)).toBe(3);
      clock = firstCallAt + DAY_MS;
      expect((await call(`/api/screen/us/${t.fresh[0]}`, small.key)).status).toBe(200);
      expect(await used(small.keyId)).toBe(1);
    });

    it("when a partner key's rolling 30-day quota is used up, then 429 names the monthly window even with daily room", async () => {
      const monthly = await keyFor(access, 'partner', { dailyLimit: 100, monthlyQuota: 2 });
      await call(`/api/screen/us/${t.fresh[0]}`, monthly.key);
      await call(`/api/screen/us/${t.fresh[1]}`, monthly.key);
      const refused = await call(`/api/screen/us/${t.fresh[2]}`, monthly.key);
      expect(refused.status).toBe(429);
      expect(refused.body.detail.message).toMatch(/monthly quota \(2 of 2 units used/);
      expect(refused.body.detail.limits.map((l: Json) => [l.window, l.exhausted])).toEqual([
        ['daily', false],
        ['monthly', true],
      ]);
    });

    it('when an as_of read costs 2 and 1 unit is left, then 429 and the unit stays', async () => {
      const key = await keyFor(access, 'partner', { dailyLimit: 1 });
      expect((await call(`/api/screen/us/${t.withHistory}?as_of=2020-12-31`, key.key)).status).toBe(429);
      expect((await call(`/api/screen/us/${t.fresh[0]}`, key.key)).status).toBe(200);
    });

    it('when 500 requests arrive at once on a key with 10 units left, then exactly 10 succeed', async () => {
      const key = await keyFor(access, 'partner', { dailyLimit: 15 });
      for (let i = 0; i < 5; i++) await call(`/api/screen/us/${t.fresh[0]}`, key.key);
      const statuses = await Promise.all(
        Array.from({ length: 500 }, (_, i) => call(`/api/screen/us/${t.fresh[i % t.fresh.length]}`, key.key).then((r) => r.status)),
      );
      expect(statuses.filter((s) => s === 200)).toHaveLength(10);
      expect(statuses.filter((s) => s === 429)).toHaveLength(490);
      expect(await used(key.keyId)).toBe(15);
    }, 60_000);
  });
});
