import Koa from 'koa';
import type { Logger } from 'pino';
import type { Metrics } from '../platform/metrics.ts';
import { notFound } from './errors.ts';
import { errorHandler } from './middleware/error-handler.ts';
import { requestContext } from './middleware/request-context.ts';
import { opsRoutes, type ReadinessCheck } from './routes/ops.ts';

export interface AppDeps {
  logger: Logger;
  metrics: Metrics;
  readiness: Record<string, ReadinessCheck>;
}

/** The Koa application: request context, the single error road, then the routers. */
export function createApp(deps: AppDeps): Koa {
  const app = new Koa();
  app.proxy = false;
  app.silent = true; // errors are logged by errorHandler with the request id, not by Koa's default printer
  app.use(requestContext(deps.logger, deps.metrics));
  app.use(errorHandler());
  const ops = opsRoutes({ metrics: deps.metrics, readiness: deps.readiness });
  app.use(ops.routes()).use(ops.allowedMethods());
  app.use((ctx) => {
    throw notFound(`no route for ${ctx.method} ${ctx.path}; see /openapi.json for the API's routes`, 'route_not_found');
  });
  return app;
}
