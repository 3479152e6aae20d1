import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { Metrics } from '../metrics.ts';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Gives each request an id (kept from `X-Request-Id` when sane), a child logger, a log line and a latency sample. */
export function requestContext(logger: Logger, metrics: Metrics): Middleware {
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.set('X-Request-Id', requestId);
    ctx.state.requestId = requestId;
    ctx.state.log = logger.child({ request_id: requestId });
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = (ctx as unknown as { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
      metrics.httpDuration.observe({ method: ctx.method, route: String(route), status: String(ctx.status) }, seconds);
      ctx.state.log.info(
        // key_id is the key's public id; the key itself never reaches a log.
        {
          method: ctx.method,
          route,
          path: ctx.path,
          status: ctx.status,
          duration_ms: Math.round(seconds * 1e4) / 10,
          key_id: ctx.state.grant?.keyId,
        },
        'request',
      );
    }
  };
}
