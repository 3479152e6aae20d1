import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { assertMarketGranted, declareEndpoint, grantOf } from '../access-scope.ts';
import type { ForensicContext } from '../forensic-context.ts';
import { FORENSIC_PEERS_DEFAULT, FORENSIC_PEERS_MAX, forensicPeersQuerySchema, forensicQuerySchema } from '../schemas/forensic.ts';
import { peersCost, forensicPeers } from '../use-cases/forensic-peers.ts';
import { analyseCompany, forensicReportResponse, healthScoreResponse } from '../use-cases/forensic-report.ts';
import { resolveForensicListing } from '../use-cases/forensic-resolve.ts';
import { utcDay } from '../../engine/dates.ts';
import { checkAsOf, normaliseTicker, parseRequest } from '../validation.ts';

/** Quota units: the full report reads and scores multi-year filings (2); the health score alone 1; peers 1 + 1 per 5 asked. */
export const FORENSIC_COSTS = { report: 2, healthScore: 1 } as const;

/** `n` for the cost declaration, before validation: a valid value, else the default (an invalid one is refused anyway). */
function requestedPeers(ctx: Context): number {
  const n = Number(ctx.query.n);
  return typeof ctx.query.n === 'string' && Number.isInteger(n) && n >= 1 && n <= FORENSIC_PEERS_MAX ? n : FORENSIC_PEERS_DEFAULT;
}

/** The ticker's listing and the as-of date of a forensic request; 400/404 as `resolveForensicListing` says, 403 outside the key's markets. */
function target(ctx: Context, service: ForensicContext, query: { market?: string | undefined; as_of?: string | undefined }) {
  const ticker = normaliseTicker(ctx.params.ticker!);
  const listing = resolveForensicListing(service.universe, ticker, query.market ?? null);
  assertMarketGranted(listing.market, grantOf(ctx));
  const asOf = query.as_of === undefined ? utcDay(service.now()) : checkAsOf(query.as_of, service.now());
  return { listing, asOf };
}

/** The forensic accounting endpoints (docs/forensic.md), tag `forensic`. */
export function forensicRoutes(service: ForensicContext, access: Middleware[]): Router {
  const router = new Router({ prefix: '/api/forensic' });

  router.get(
    '/:ticker',
    declareEndpoint(() => ({ tag: 'forensic', cost: FORENSIC_COSTS.report })),
    ...access,
    async (ctx) => {
      const { listing, asOf } = target(ctx, service, parseRequest(forensicQuerySchema, ctx.query, 'query'));
      ctx.body = forensicReportResponse(await analyseCompany(service, listing, asOf));
    },
  );

  router.get(
    '/:ticker/health-score',
    declareEndpoint(() => ({ tag: 'forensic', cost: FORENSIC_COSTS.healthScore })),
    ...access,
    async (ctx) => {
      const { listing, asOf } = target(ctx, service, parseRequest(forensicQuerySchema, ctx.query, 'query'));
      ctx.body = healthScoreResponse(await analyseCompany(service, listing, asOf));
    },
  );

  router.get(
    '/:ticker/peers',
    declareEndpoint((ctx) => ({ tag: 'forensic', cost: peersCost(requestedPeers(ctx)) })),
    ...access,
    async (ctx) => {
      const query = parseRequest(forensicPeersQuerySchema, ctx.query, 'query');
      const { listing, asOf } = target(ctx, service, query);
      ctx.body = await forensicPeers(service, listing, asOf, query.n);
    },
  );

  return router;
}
