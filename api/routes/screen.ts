import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { ApiState } from '../../common/grants.ts';
import { assertMarketGranted, declareEndpoint, grantOf, scopeFrameworks } from '../access-scope.ts';
import {
  BATCH_MAX,
  batchEnvelopeSchema,
  compareQuerySchema,
  etfBodySchema,
  screenQuerySchema,
  timelineQuerySchema,
} from '../schemas/requests.ts';
import type { ScreenService } from '../screen-service.ts';
import { compareTickers, parseCompareTickers } from '../use-cases/compare-tickers.ts';
import { listFrameworks } from '../use-cases/reference-lists.ts';
import { screenBatch } from '../use-cases/screen-batch.ts';
import { screenEtf } from '../use-cases/screen-etf.ts';
import { screenResponseJson, serveScreen } from '../use-cases/screen-ticker.ts';
import { snapshotAsOf } from '../use-cases/snapshot-as-of.ts';
import type { CustomScreenContext } from '../use-cases/manage-custom-screens.ts';
import { customSlugOf, loadCustomScreen, notInForceToday, screenCustom, screenInForce } from '../use-cases/screen-custom.ts';
import { customTimeline } from '../use-cases/custom-timeline.ts';
import { utcDay } from '../../engine/dates.ts';
import { screenCustomBatch } from '../use-cases/screen-custom-batch.ts';
import { statusTimeline } from '../use-cases/status-timeline.ts';
import { checkAsOf, checkDateRange, checkMarket, normaliseTicker, parseFlag, parseFrameworks, parseRequest } from '../validation.ts';
import { AppError, badRequest } from '../../common/app-error.ts';
import { RefreshSlots } from '../refresh-slots.ts';

function sendJsonBytes(ctx: Context, json: Buffer): void {
  ctx.type = 'application/json';
  ctx.body = json;
}

/**
 * Batch size for the cost declaration, read from the parsed body without trusting its shape.
 * A body the route will refuse (not a list, over 100) costs nothing here, so its client gets
 * the validation error rather than a 429.
 */
function batchSize(ctx: Context): number {
  const tickers = (ctx.request.body as { tickers?: unknown } | undefined)?.tickers;
  return Array.isArray(tickers) && tickers.length <= BATCH_MAX ? tickers.length : 0;
}

/** An ETF screen costs one unit per ten holdings returned (default 15 → 2 units, 50 → 5). */
function etfCost(ctx: Context): number {
  const requested = (ctx.request.body as { max_holdings?: unknown } | undefined)?.max_holdings;
  const holdings = typeof requested === 'number' && Number.isInteger(requested) && requested >= 1 && requested <= 50 ? requested : 15;
  return Math.ceil(holdings / 10);
}

/** A timeline reads the ticker's whole history and the stored reasons of each change: more than one as_of (2). */
export const TIMELINE_COST = 3;

/**
 * The screening endpoints (docs/api.md). Each route declares its endpoint tag and cost first;
 * `access` (access control, when configured) runs next; handlers only parse, call one
 * use-case and send its result.
 */
export function screenRoutes(service: ScreenService, access: Middleware[], customScreens?: CustomScreenContext): Router {
  const router = new Router({ prefix: '/api/screen' });
  const refreshSlots = new RefreshSlots(service.maxRefreshesPerKey);

  router.get(
    '/frameworks',
    declareEndpoint(() => ({ tag: 'public', cost: 0 })),
    ...access,
    (ctx) => {
      ctx.body = listFrameworks(grantOf(ctx));
    },
  );

  router.get(
    '/compare',
    declareEndpoint(() => ({ tag: 'screen/compare', cost: 1 })),
    ...access,
    async (ctx) => {
      const query = parseRequest(compareQuerySchema, ctx.query, 'query');
      assertMarketGranted(query.market, grantOf(ctx));
      const customSlug = customSlugOf(query.framework);
      if (customSlug !== null) {
        const record = await loadCustomScreen(customScreens, customSlug, grantOf(ctx));
        const custom = screenInForce(record, utcDay(service.now()), grantOf(ctx));
        ctx.body = await compareTickers(service, {
          market: query.market,
          tickers: parseCompareTickers(query.tickers),
          frameworks: [],
          custom,
        });
        return;
      }
      const frameworks = scopeFrameworks(parseFrameworks(query.framework), grantOf(ctx));
      ctx.body = await compareTickers(service, { market: query.market, tickers: parseCompareTickers(query.tickers), frameworks });
    },
  );

  router.post(
    '/batch',
    declareEndpoint((ctx) => ({ tag: 'screen/batch', cost: batchSize(ctx) })),
    ...access,
    async (ctx) => {
      const body = parseRequest(batchEnvelopeSchema, ctx.request.body, 'body');
      const customSlug = customSlugOf(body.frameworks?.join(','));
      if (customSlug !== null) {
        if (body.force_refresh !== undefined)
          throw badRequest('force_refresh: not available with a custom screen; re-screen with the base framework first', 'invalid_value');
        const answer = await screenCustomBatch(service, customScreens, { items: body.tickers, slug: customSlug, grant: grantOf(ctx) });
        (ctx.state as ApiState).itemsNotServed = answer.failed;
        ctx.body = answer;
        return;
      }
      const frameworks = scopeFrameworks(parseFrameworks(body.frameworks, 'frameworks'), grantOf(ctx));
      const outcome = await screenBatch(service, {
        items: body.tickers,
        frameworks,
        forceRefresh: body.force_refresh ?? false,
        grant: grantOf(ctx),
      });
      (ctx.state as ApiState).itemsNotServed = outcome.failed;
      sendJsonBytes(ctx, outcome.json);
    },
  );

  router.post(
    '/etf',
    declareEndpoint((ctx) => ({ tag: 'screen/etf', cost: etfCost(ctx) })),
    ...access,
    async (ctx) => {
      const body = parseRequest(etfBodySchema, ctx.request.body, 'body');
      assertMarketGranted(body.market, grantOf(ctx));
      const customSlug = customSlugOf(body.framework);
      if (body.framework !== undefined && customSlug === null)
        throw badRequest(
          `framework: '${body.framework}' is not a custom screen; give custom:<slug>, or omit it for every framework`,
          'unknown_framework',
        );
      const custom =
        customSlug === null
          ? undefined
          : screenInForce(await loadCustomScreen(customScreens, customSlug, grantOf(ctx)), utcDay(service.now()), grantOf(ctx));
      const frameworks = scopeFrameworks(null, grantOf(ctx));
      ctx.body = await screenEtf(service, {
        etfTicker: normaliseTicker(body.etf_ticker, 'etf_ticker'),
        market: body.market,
        maxHoldings: body.max_holdings,
        frameworks,
        ...(custom ? { custom } : {}),
      });
    },
  );

  const screenTag = (ctx: Context) =>
    typeof ctx.query.as_of === 'string' ? { tag: 'screen/history' as const, cost: 2 } : { tag: 'screen' as const, cost: 1 };
  router.get('/:market/:ticker', declareEndpoint(screenTag), ...access, async (ctx) => {
    const market = checkMarket(ctx.params.market!);
    const ticker = normaliseTicker(ctx.params.ticker!);
    const query = parseRequest(screenQuerySchema, ctx.query, 'query');
    assertMarketGranted(market, grantOf(ctx));
    const customSlug = customSlugOf(query.framework);
    if (customSlug !== null) {
      if (query.force_refresh !== undefined)
        throw badRequest('force_refresh: not available with a custom screen; re-screen with the base framework first', 'invalid_value');
      const asOf = query.as_of === undefined ? null : checkAsOf(query.as_of, service.now());
      ctx.body = await screenCustom(service, customScreens, { market, ticker, slug: customSlug, asOf, grant: grantOf(ctx) });
      return;
    }
    const frameworks = scopeFrameworks(parseFrameworks(query.framework), grantOf(ctx));
    if (query.as_of !== undefined) {
      const withReasons = parseFlag(query.reasons);
      ctx.body = await snapshotAsOf(service, { market, ticker, asOf: checkAsOf(query.as_of, service.now()), frameworks, withReasons });
      return;
    }
    if (query.reasons !== undefined)
      throw badRequest(
        'reasons: valid only with as_of (a screen report always carries its reasons); use ?as_of=YYYY-MM-DD&reasons=true',
        'invalid_value',
      );
    const forceRefresh = parseFlag(query.force_refresh);
    const keyId = grantOf(ctx)?.keyId;
    const release = forceRefresh && keyId !== undefined ? refreshSlots.take(keyId) : undefined;
    let outcome;
    try {
      outcome = await serveScreen(service, { market, ticker, forceRefresh });
    } catch (error) {
      // The re-screen this request started goes on: the work was done, so the units are kept.
      if (error instanceof AppError && error.code === 'refresh_pending') (ctx.state as ApiState).keepCharge = true;
      throw error;
    } finally {
      release?.();
    }
    if (outcome.refresh) ctx.set('X-Refresh', outcome.refresh);
    sendJsonBytes(ctx, await screenResponseJson(service, outcome, frameworks));
  });

  router.get(
    '/:market/:ticker/timeline',
    declareEndpoint(() => ({ tag: 'screen/history', cost: TIMELINE_COST })),
    ...access,
    async (ctx) => {
      const market = checkMarket(ctx.params.market!);
      const ticker = normaliseTicker(ctx.params.ticker!);
      const query = parseRequest(timelineQuerySchema, ctx.query, 'query');
      assertMarketGranted(market, grantOf(ctx));
      const customSlug = customSlugOf(query.framework);
      if (customSlug !== null) {
        const range = checkDateRange(query.from, query.to, service.now());
        const today = utcDay(service.now());
        const record = await loadCustomScreen(customScreens, customSlug, grantOf(ctx));
        const applied = screenInForce(record, today, grantOf(ctx));
        if (applied.version === null) throw notInForceToday(record);
        ctx.body = await customTimeline(service, { market, ticker, ...range, applied, today });
        return;
      }
      const frameworks = scopeFrameworks(parseFrameworks(query.framework), grantOf(ctx));
      const range = checkDateRange(query.from, query.to, service.now());
      ctx.body = await statusTimeline(service, { market, ticker, frameworks, ...range });
    },
  );

  return router;
}
