import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { assertMarketGranted, declareEndpoint, grantOf, scopeFrameworks } from '../access-scope.ts';
import { explainQuerySchema } from '../schemas/explain.ts';
import type { ScreenService } from '../screen-service.ts';
import { explainScreen } from '../use-cases/explain-disagreements.ts';
import { checkAsOf, checkMarket, normaliseTicker, parseFrameworks, parseRequest } from '../validation.ts';

/** As the screen itself: the current snapshot 1 unit (tag screen), a past one 2 (screen/history): one stored result read and compared. */
function explainTag(ctx: Context) {
  return typeof ctx.query.as_of === 'string' ? { tag: 'screen/history' as const, cost: 2 } : { tag: 'screen' as const, cost: 1 };
}

/** `GET /api/screen/{market}/{ticker}/explain` (docs/frameworks/README.md, "Why frameworks disagree"). */
export function explainRoutes(service: ScreenService, access: Middleware[]): Router {
  const router = new Router({ prefix: '/api/screen' });
  router.get('/:market/:ticker/explain', declareEndpoint(explainTag), ...access, async (ctx) => {
    const market = checkMarket(ctx.params.market!);
    const ticker = normaliseTicker(ctx.params.ticker!);
    const query = parseRequest(explainQuerySchema, ctx.query, 'query');
    assertMarketGranted(market, grantOf(ctx));
    const frameworks = scopeFrameworks(parseFrameworks(query.framework), grantOf(ctx));
    const asOf = query.as_of === undefined ? undefined : checkAsOf(query.as_of, service.now());
    ctx.body = await explainScreen(service, { market, ticker, frameworks, ...(asOf === undefined ? {} : { asOf }) });
  });
  return router;
}
