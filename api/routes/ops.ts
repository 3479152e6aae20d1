import Router from '@koa/router';
import type { Metrics } from '../metrics.ts';

/** A readiness probe: resolves when the dependency is usable, throws with the reason otherwise. */
export type ReadinessCheck = () => Promise<void>;

export interface OpsDeps {
  metrics: Metrics;
  readiness: Record<string, ReadinessCheck>;
}

/** Liveness, readiness and Prometheus metrics for operators and orchestrators. */
export function opsRoutes(deps: OpsDeps): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    const checks: Record<string, string> = {};
    let ready = true;
    for (const [name, check] of Object.entries(deps.readiness)) {
      try {
        await check();
        checks[name] = 'ok';
      } catch (error) {
        ready = false;
        checks[name] = (error as Error).message;
      }
    }
    ctx.status = ready ? 200 : 503;
    ctx.body = ready ? { status: 'ready', checks } : { status: 'not_ready', detail: 'a dependency is unavailable', checks };
  });
  router.get('/metrics', async (ctx) => {
    ctx.type = deps.metrics.registry.contentType;
    ctx.body = await deps.metrics.registry.metrics();
  });
  return router;
}
