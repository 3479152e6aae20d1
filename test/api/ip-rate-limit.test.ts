import http from 'node:http';
import Koa from 'koa';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.ts';
import { errorHandler } from '../../api/middleware/error-handler.ts';
import { ipRateLimit } from '../../api/middleware/ip-rate-limit.ts';
import { unavailableRefresher } from '../../api/refresher.ts';
import { createMetrics } from '../../api/metrics.ts';
import { openServiceDb, type ServiceDb } from '../../service-state/db.ts';
import { openApiReads, type ApiReads } from '../../reads/api-reads.ts';
import { listen } from '../support/http.ts';
import { testServiceState } from '../support/service-state.ts';
import { makeTempDir } from '../support/temp-dir.ts';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: { detail?: string };
}

/** A GET from a chosen loopback source address (the limit is per peer address; Linux routes all of 127.0.0.0/8 to loopback). */
function get(url: string, options: { from?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      url,
      { localAddress: options.from ?? '127.0.0.1', headers: options.headers ?? {}, agent: false },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode!,
            headers: response.headers,
            body: text.startsWith('{') ? (JSON.parse(text) as Answer['body']) : {},
          }),
        );
      },
    );
    request.on('error', reject);
  });
}

describe('ipRateLimit: a sliding window per client address', () => {
  let clock = 1_000_000;
  let server: { url: string; close: () => Promise<void> };

  beforeAll(async () => {
    const app = new Koa();
    app.use(errorHandler());
    app.use(ipRateLimit({ limit: 3, windowMs: 60_000, what: 'verification requests', now: () => clock }));
    app.use((ctx) => {
      ctx.body = { ok: true };
    });
    server = await listen(app);
  });
  afterAll(() => server?.close());

  it('when an address exceeds the limit, then 429 with a JSON detail and Retry-After, no X-RateLimit headers; the window slides', async () => {
    for (const offset of [0, 30_000, 59_000]) {
      clock = 1_000_000 + offset;
      expect((await get(server.url)).status).toBe(200);
    }
    const refused = await get(server.url);
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(
      /too many verification requests from 127\.0\.0\.1: the limit is 3 per 60 s per IP address; retry in 1 s/,
    );
    expect(refused.headers['retry-after']).toBe('1');
    expect(Object.keys(refused.headers).filter((h) => h.startsWith('x-ratelimit'))).toEqual([]);
    clock = 1_060_001; // the first request left the window: exactly one more fits
    expect((await get(server.url)).status).toBe(200);
    expect((await get(server.url)).status).toBe(429);
  });

  it('when X-Forwarded-For names another client, then it is ignored (proxy headers are not trusted); another peer address has its own budget', async () => {
    clock = 5_000_000;
    for (let i = 0; i < 3; i += 1) expect((await get(server.url, { from: '127.0.0.3' })).status).toBe(200);
    expect((await get(server.url, { from: '127.0.0.3', headers: { 'X-Forwarded-For': '203.0.113.9' } })).status).toBe(429);
    expect((await get(server.url, { from: '127.0.0.4' })).status).toBe(200);
  });
});

describe('ipRateLimit memory bound', () => {
  it('when more addresses than it tracks are busy, then the least recently seen tenth is forgotten and the others keep their count', async () => {
    const limit = ipRateLimit({ limit: 2, windowMs: 60_000, what: 'requests', maxTrackedIps: 10, now: () => 1_000 });
    // The middleware reads only ctx.ip and sets Retry-After: called directly, without sockets, for many addresses.
    const ask = async (n: number): Promise<number> => {
      const ctx = { ip: `198.51.100.${n}`, set: () => undefined } as unknown as Parameters<typeof limit>[0];
      try {
        await limit(ctx, async () => undefined);
        return 200;
      } catch (error) {
        return (error as { status: number }).status;
      }
    };
    for (let n = 10; n < 20; n += 1) expect([await ask(n), await ask(n)]).toEqual([200, 200]);
    expect(await ask(19)).toBe(429);
    // An eleventh address: the two least recently seen (.10 and .11) are forgotten, the rest still count.
    expect(await ask(20)).toBe(200);
    expect(await ask(12)).toBe(429);
    expect(await ask(10)).toBe(200);
  });
});

describe('verification in the app: 60 requests a minute per IP, shared by the JSON endpoint and the page', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let reads: ApiReads;
  let db: ServiceDb;
  let server: { url: string; close: () => Promise<void> };

  beforeAll(async () => {
    temp = await makeTempDir('faithscreen-ratelimit-');
    reads = await openApiReads({ dataDir: temp.dir, followIntervalMs: 0 });
    db = await openServiceDb(await testServiceState(temp.dir));
    const app = createApp({
      logger: pino({ level: 'silent' }),
      metrics: createMetrics(),
      readiness: {},
      screen: { reads, refresher: unavailableRefresher, cache: { freshDays: 1, staleWhileRevalidateDays: 7 } },
      attest: { db, dataDir: temp.dir },
      baseUrl: 'http://127.0.0.1',
    });
    server = await listen(app);
  });
  afterAll(async () => {
    await server?.close();
    reads?.close();
    db?.close();
    await temp?.cleanup();
  });

  it('when one address makes a 61st verification within a minute, then 429; another address is unaffected', async () => {
    const id = `fsc_${'b'.repeat(40)}`;
    for (let i = 0; i < 59; i += 1) expect((await get(`${server.url}/api/attest/verify/${id}`, { from: '127.0.0.5' })).status).toBe(404);
    expect((await get(`${server.url}/attest/${id}`, { from: '127.0.0.5' })).status).toBe(404);
    const refused = await get(`${server.url}/api/attest/verify/${id}`, { from: '127.0.0.5' });
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(/the limit is 60 per 60 s per IP address/);
    expect((await get(`${server.url}/attest/${id}`, { from: '127.0.0.5' })).status).toBe(429);
    expect((await get(`${server.url}/api/attest/verify/${id}`, { from: '127.0.0.6' })).status).toBe(404);
  });
});

describe('verification behind a trusted proxy (TRUST_PROXY with 1 hop): the limit counts the forwarded client', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let reads: ApiReads;
  let db: ServiceDb;
  let server: { url: string; close: () => Promise<void> };

  beforeAll(async () => {
    temp = await makeTempDir('faithscreen-ratelimit-proxy-');
    reads = await openApiReads({ dataDir: temp.dir, followIntervalMs: 0 });
    db = await openServiceDb(await testServiceState(temp.dir));
    const app = createApp({
      logger: pino({ level: 'silent' }),
      metrics: createMetrics(),
      readiness: {},
      screen: { reads, refresher: unavailableRefresher, cache: { freshDays: 1, staleWhileRevalidateDays: 7 } },
      attest: { db, dataDir: temp.dir, verifyRateLimit: { limit: 3, windowMs: 60_000 } },
      baseUrl: 'http://127.0.0.1',
      trustedProxyHops: 1,
    });
    server = await listen(app);
  });
  afterAll(async () => {
    await server?.close();
    reads?.close();
    db?.close();
    await temp?.cleanup();
  });

  const verify = (forwardedFor: string) =>
    get(`${server.url}/api/attest/verify/fsc_${'c'.repeat(40)}`, { from: '127.0.0.7', headers: { 'X-Forwarded-For': forwardedFor } });

  it('when one client behind the balancer is limited, then another client behind it is not; a forged first entry changes nothing', async () => {
    for (let i = 0; i < 3; i += 1) expect((await verify(`10.9.9.${i}, 198.51.100.20`)).status).toBe(404);
    const refused = await verify('10.9.9.99, 198.51.100.20');
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(/from 198\.51\.100\.20:/);
    expect((await verify('198.51.100.21')).status).toBe(404);
  });

  it('when an IPv6 client rotates addresses within its /64, then they count as one', async () => {
    for (let i = 1; i <= 3; i += 1) expect((await verify(`2001:db8:5:6::${i}`)).status).toBe(404);
    const refused = await verify('2001:db8:5:6:ffff:1:2:3');
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(/from 2001:db8:5:6::\/64:/);
    expect((await verify('2001:db8:5:7::1')).status).toBe(404);
  });
});
