import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { SHARIAH_FRAMEWORK_IDS } from '../../engine/index.ts';
import { AppError, badRequest } from '../../common/app-error.ts';
import type { ApiState } from '../../common/grants.ts';
import type { PurificationReads } from '../../warehouse/purification-reads.ts';
import { assertMarketGranted, declareEndpoint, grantOf, scopeFrameworks } from '../access-scope.ts';
import { readTextBody } from '../read-text-body.ts';
import { PORTFOLIO_CSV_LIMIT_BYTES, PORTFOLIO_HOLDINGS_MAX, portfolioBodySchema } from '../schemas/portfolio.ts';
import type { ScreenService } from '../screen-service.ts';
import { holdingsFromCsv, type CsvHoldings } from '../use-cases/portfolio-csv.ts';
import { checkHoldingCount } from '../use-cases/portfolio-holdings.ts';
import { portfolioUnits, screenPortfolio } from '../use-cases/screen-portfolio.ts';
import { checkDateRange, checkMarket, normaliseTicker, parseFrameworks, parseRequest } from '../validation.ts';
import type { CustomScreenContext } from '../use-cases/manage-custom-screens.ts';
import { customSlugOf, loadCustomScreen, screenInForce } from '../use-cases/screen-custom.ts';
import { utcDay } from '../../engine/dates.ts';

interface PortfolioState extends ApiState {
  csv?: CsvHoldings['summary'];
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * A `text/csv` upload becomes the JSON body it stands for (query: market, frameworks, from, to,
 * zakat as the method);
 * a body neither JSON nor CSV is a 415 naming both.
 */
const csvBody: Middleware = async (ctx, next) => {
  if (ctx.is('text/csv')) {
    const csv = holdingsFromCsv(await readTextBody(ctx, PORTFOLIO_CSV_LIMIT_BYTES), checkMarket(text(ctx.query.market) ?? 'us'));
    const frameworks = text(ctx.query.frameworks);
    const from = text(ctx.query.from);
    const to = text(ctx.query.to);
    const zakat = text(ctx.query.zakat);
    ctx.request.body = {
      holdings: csv.holdings,
      ...(frameworks !== undefined ? { frameworks: frameworks.split(',') } : {}),
      ...(from !== undefined || to !== undefined ? { period: { from, ...(to !== undefined ? { to } : {}) } } : {}),
      ...(zakat !== undefined ? { zakat: { method: zakat } } : {}),
    };
    (ctx.state as PortfolioState).csv = csv.summary;
  } else if (ctx.request.length > 0 && !ctx.is('application/json')) {
    throw new AppError(415, 'unsupported_media_type', 'send the portfolio as application/json, or as text/csv (a broker export)');
  }
  await next();
};

/**
 * Units declared before access control runs, read from the body without trusting its shape:
 * a body the route will refuse (holdings not a list, or too many) costs nothing here, so its
 * client gets the validation error rather than a 429. The route gives back what the answer
 * did not use (frameworks the grant narrowed, purification not computed).
 */
function declaredUnits(service: ScreenService, ctx: Context): number {
  const body = ctx.request.body as { holdings?: unknown; frameworks?: unknown; period?: unknown; zakat?: unknown } | undefined;
  const holdings = body?.holdings;
  if (!Array.isArray(holdings) || holdings.length > PORTFOLIO_HOLDINGS_MAX) return 0;
  const kinds = holdings.map((h: { market?: unknown; ticker?: unknown }) => {
    const listing = service.reads.listing(text(h?.market)?.toLowerCase() ?? 'us', text(h?.ticker)?.trim().toUpperCase() ?? '');
    return listing?.kind === 'fund' ? ('fund' as const) : ('stock' as const);
  });
  const named = Array.isArray(body?.frameworks)
    ? SHARIAH_FRAMEWORK_IDS.filter((id) => (body.frameworks as unknown[]).includes(id))
    : SHARIAH_FRAMEWORK_IDS;
  const bySharesPeriod = body?.period !== undefined && holdings.some((h: { shares?: unknown }) => h?.shares !== undefined);
  return portfolioUnits(kinds, bySharesPeriod ? named.length : 0, body?.zakat !== undefined);
}

/** `POST /api/portfolio` (docs/api.md, "Portfolio"): JSON or a broker CSV; parse, check the grant, call the use-case. */
export function portfolioRoutes(
  service: ScreenService,
  lake: PurificationReads,
  access: Middleware[],
  customScreens?: CustomScreenContext,
): Router {
  const router = new Router({ prefix: '/api' });
  router.post(
    '/portfolio',
    csvBody,
    declareEndpoint((ctx) => ({ tag: 'screen/batch', cost: declaredUnits(service, ctx) })),
    ...access,
    async (ctx) => {
      const raw = (ctx.request.body as { holdings?: unknown } | undefined)?.holdings;
      // The limit first, with its own code, before every line of an oversized list is validated.
      if (Array.isArray(raw)) checkHoldingCount(raw.length);
      const body = parseRequest(portfolioBodySchema, ctx.request.body, 'body');
      const grant = grantOf(ctx);
      for (const market of new Set(body.holdings.map((h) => h.market))) assertMarketGranted(market, grant);
      const customSlug = customSlugOf(body.frameworks?.join(','));
      if (customSlug !== null && body.period !== undefined)
        throw badRequest(
          "period: purification under a custom screen is its base framework's; ask for the base framework with the period",
          'invalid_value',
        );
      const custom =
        customSlug === null
          ? undefined
          : screenInForce(await loadCustomScreen(customScreens, customSlug, grant), utcDay(service.now()), grant);
      const frameworks = custom ? [] : scopeFrameworks(parseFrameworks(body.frameworks, 'frameworks'), grant);
      const range = body.period ? checkDateRange(body.period.from, body.period.to, service.now()) : null;
      const outcome = await screenPortfolio(service, lake, {
        holdings: body.holdings.map((h, i) => ({ ...h, ticker: normaliseTicker(h.ticker, `holdings.${i}.ticker`) })),
        frameworks,
        ...(custom ? { custom } : {}),
        period: range === null ? null : { from: range.from!, to: range.to },
        zakat: body.zakat ?? null,
      });
      const state = ctx.state as PortfolioState;
      const declared = state.endpoint?.cost ?? 0;
      if (declared > outcome.units) state.itemsNotServed = declared - outcome.units;
      ctx.body = state.csv ? { ...outcome.body, csv: state.csv } : outcome.body;
    },
  );
  return router;
}
