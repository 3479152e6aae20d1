import Router from '@koa/router';
import type { Middleware } from 'koa';
import { assertMarketGranted, declareEndpoint, grantOf, scopeFrameworks } from '../access-scope.ts';
import { AppError } from '../../common/app-error.ts';
import { exportQuerySchema, searchQuerySchema } from '../schemas/requests.ts';
import type { ScreenService } from '../screen-service.ts';
import { ARROW_STREAM, NDJSON, exportRows, toArrowStream, toNdjsonStream } from '../use-cases/export-verdicts.ts';
import { listMarkets, searchUniverse } from '../use-cases/reference-lists.ts';
import { checkAsOf, parseRequest } from '../validation.ts';

/** Markets, universe search and the researchers' verdict export. */
export function referenceRoutes(service: ScreenService, access: Middleware[]): Router {
  const router = new Router({ prefix: '/api' });

  router.get(
    '/markets',
    declareEndpoint(() => ({ tag: 'public', cost: 0 })),
    ...access,
    (ctx) => {
      ctx.body = listMarkets(service.reads);
    },
  );

  router.get(
    '/universe/search',
    declareEndpoint(() => ({ tag: 'public', cost: 0 })),
    ...access,
    (ctx) => {
      const query = parseRequest(searchQuerySchema, ctx.query, 'query');
      ctx.body = searchUniverse(service.reads, query.q, query.market ?? null, query.limit);
    },
  );

  router.get(
    '/export/verdicts',
    declareEndpoint(() => ({ tag: 'export', cost: 10 })),
    ...access,
    async (ctx) => {
      const query = parseRequest(exportQuerySchema, ctx.query, 'query');
      assertMarketGranted(query.market, grantOf(ctx));
      const date = query.date === undefined ? null : checkAsOf(query.date, service.now());
      const type = ctx.accepts(NDJSON, ARROW_STREAM);
      if (type === false)
        throw new AppError(406, 'not_acceptable', `this export is available as ${ARROW_STREAM} or ${NDJSON}; send one of them in Accept`);
      const rows = await exportRows(service.reads, query.market, date);
      const frameworks = scopeFrameworks(null, grantOf(ctx));
      ctx.set('X-Row-Count', String(rows.length));
      if (type === ARROW_STREAM) {
        ctx.type = ARROW_STREAM;
        ctx.body = Buffer.from(await toArrowStream(rows, frameworks));
      } else {
        ctx.type = NDJSON;
        ctx.body = toNdjsonStream(rows, frameworks);
      }
    },
  );

  return router;
}
