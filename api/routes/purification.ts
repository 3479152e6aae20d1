import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { assertMarketGranted, declareEndpoint, grantOf, scopeFrameworks } from '../access-scope.ts';
import { PURIFICATION_LOTS_MAX, purificationBodySchema } from '../schemas/purification.ts';
import type { ScreenService } from '../screen-service.ts';
import { purificationFramework, purifyHolding } from '../use-cases/purify-holding.ts';
import { badRequest } from '../../common/app-error.ts';
import type { PurificationReads } from '../../warehouse/purification-reads.ts';
import { normaliseTicker, parseFrameworks, parseRequest } from '../validation.ts';

/** Units per lot: each lot is a walk over the ticker's history, so it costs what one history read does. */
export const PURIFICATION_UNITS_PER_LOT = 2;

/**
 * The cost declaration, read from the parsed body without trusting its shape: a body the route
 * will refuse (lots not a list, or too many) costs nothing here, so its client gets the
 * validation error rather than a 429.
 */
function purificationCost(ctx: Context): number {
  const lots = (ctx.request.body as { lots?: unknown } | undefined)?.lots;
  return Array.isArray(lots) && lots.length <= PURIFICATION_LOTS_MAX ? PURIFICATION_UNITS_PER_LOT * lots.length : 0;
}

/** `POST /api/purification` (docs/api.md, "Purification"): parse, check the grant, call the use-case. */
export function purificationRoutes(service: ScreenService, lake: PurificationReads, access: Middleware[]): Router {
  const router = new Router({ prefix: '/api' });
  router.post(
    '/purification',
    declareEndpoint((ctx) => ({ tag: 'screen/history', cost: purificationCost(ctx) })),
    ...access,
    async (ctx) => {
      const body = parseRequest(purificationBodySchema, ctx.request.body, 'body');
      assertMarketGranted(body.market, grantOf(ctx));
      const named = parseFrameworks(body.framework, 'framework') ?? [];
      if (named.length !== 1) throw badRequest(`framework: name exactly one framework id, got ${named.length}`, 'unknown_framework');
      const [framework] = scopeFrameworks(named, grantOf(ctx));
      ctx.body = await purifyHolding(service, lake, {
        market: body.market,
        ticker: normaliseTicker(body.ticker),
        framework: purificationFramework(framework!),
        lots: body.lots,
      });
    },
  );
  return router;
}
