import Router from '@koa/router';
import type { Middleware } from 'koa';
import { assertMarketGranted, declareEndpoint, grantOf } from '../access-scope.ts';
import { zakatQuerySchema } from '../schemas/zakat.ts';
import type { ScreenService } from '../screen-service.ts';
import { zakatHolding, zakatToday } from '../use-cases/zakat-holding.ts';
import { badRequest } from '../../common/app-error.ts';
import type { ZakatHolding } from '../../engine/zakat/zakat-due.ts';
import type { ZakatLake } from '../../warehouse/zakat-reads.ts';
import { checkAsOf, checkMarket, normaliseTicker, parseRequest } from '../validation.ts';

/** Units per zakat answer: two point-in-time lake reads (the filing in force and the close), as a history read. */
export const ZAKAT_UNITS = 2;

function holdingOf(shares: string | undefined, value: string | undefined): ZakatHolding {
  if (shares !== undefined && value !== undefined)
    throw badRequest('shares, value: send one of them, not both (shares held, or their market value)', 'invalid_value');
  if (shares !== undefined) return { shares: Number(shares) };
  if (value !== undefined) return { value: Number(value) };
  throw badRequest('shares or value: send the shares held (e.g. shares=120) or their market value (value=15000)', 'invalid_value');
}

/** `GET /api/zakat/{market}/{ticker}` (docs/frameworks/zakat.md): parse, check the grant, call the use-case. */
export function zakatRoutes(service: ScreenService, lake: ZakatLake, access: Middleware[]): Router {
  const router = new Router({ prefix: '/api/zakat' });
  router.get(
    '/:market/:ticker',
    declareEndpoint(() => ({ tag: 'screen/history', cost: ZAKAT_UNITS })),
    ...access,
    async (ctx) => {
      const market = checkMarket(ctx.params.market!);
      const ticker = normaliseTicker(ctx.params.ticker!);
      const query = parseRequest(zakatQuerySchema, ctx.query, 'query');
      assertMarketGranted(market, grantOf(ctx));
      const holding = holdingOf(query.shares, query.value);
      const asOf = query.as_of === undefined ? zakatToday(service) : checkAsOf(query.as_of, service.now());
      ctx.body = await zakatHolding(service, lake, { market, ticker, method: query.method, year: query.year, holding, asOf });
    },
  );
  return router;
}
