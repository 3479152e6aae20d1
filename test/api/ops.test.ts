import { Writable } from 'node:stream';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.ts';
import { errorHandler } from '../../api/middleware/error-handler.ts';
import { requestContext } from '../../api/middleware/request-context.ts';
import { createLogger } from '../../platform/logger.ts';
import { createMetrics } from '../../api/metrics.ts';
import { listen } from '../support/http.ts';

function captureLogs() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, logger: createLogger('info', stream) };
}

describe('ops routes over real HTTP', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  async function serve(readiness: Parameters<typeof createApp>[0]['readiness']) {
    const { logger, lines } = captureLogs();
    const server = await listen(createApp({ logger, metrics: createMetrics(), readiness }));
    close = server.close;
    return { url: server.url, lines };
  }

  it('when the process is up, then /healthz answers 200', async () => {
    const { url } = await serve({});
    const response = await fetch(`${url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('when every dependency is usable, then /readyz answers 200 with each check', async () => {
    const { url } = await serve({ temporal: async () => undefined, warehouse: async () => undefined });
    const response = await fetch(`${url}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ready', checks: { temporal: 'ok', warehouse: 'ok' } });
  });

  it('when Temporal is unreachable, then /readyz answers 503 naming the reason', async () => {
    const { url } = await serve({
      temporal: async () => {
        throw new Error('14 UNAVAILABLE: connection refused');
      },
      warehouse: async () => undefined,
    });
    const response = await fetch(`${url}/readyz`);
    expect(response.status).toBe(503);
    const body = (await response.json()) as { checks: unknown; detail: string };
    expect(body.checks).toEqual({ temporal: '14 UNAVAILABLE: connection refused', warehouse: 'ok' });
    expect(body.detail).toMatch(/unavailable/);
  });

  it('when a route is requested, then /metrics exposes a latency histogram labelled by route and status', async () => {
    const { url } = await serve({});
    await fetch(`${url}/healthz`);
    const text = await (await fetch(`${url}/metrics`)).text();
    expect(text).toMatch(/faithscreen_http_request_duration_seconds_count\{method="GET",route="\/healthz",status="200"\} 1/);
  });

  it('when the route is unknown, then 404 comes back as JSON with a detail', async () => {
    const { url } = await serve({});
    const response = await fetch(`${url}/api/nothing-here`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/no route for GET \/api\/nothing-here/);
  });

  it('when a client sends a sane X-Request-Id, then it is echoed and logged; an unsafe one is replaced', async () => {
    const { url, lines } = await serve({});
    const kept = await fetch(`${url}/healthz`, { headers: { 'X-Request-Id': 'abc-123' } });
    expect(kept.headers.get('x-request-id')).toBe('abc-123');
    const replaced = await fetch(`${url}/healthz`, { headers: { 'X-Request-Id': 'bad id with spaces' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines.some((l) => JSON.parse(l).request_id === 'abc-123')).toBe(true);
  });
});

describe('errorHandler', () => {
  it('when a handler throws unexpectedly, then the client gets a 500 without internals and the log gets the error without the API key', async () => {
    const { logger, lines } = captureLogs();
    const app = new Koa();
    app.use(requestContext(logger, createMetrics()));
    app.use(errorHandler());
    app.use(() => {
      throw new Error('secret internal stack detail');
    });
    const server = await listen(app);
    try {
      const response = await fetch(`${server.url}/boom`, { headers: { 'X-API-Key': 'fs_live_supersecretvalue' } });
      expect(response.status).toBe(500);
      const body = await response.json();
      expect(body).toEqual({ detail: 'internal server error; retry after a moment' });
      const log = lines.join('');
      expect(log).toContain('secret internal stack detail');
      expect(log).not.toContain('fs_live_supersecretvalue');
    } finally {
      await server.close();
    }
  });
});
