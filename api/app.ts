import { bodyParser } from '@koa/bodyparser';
import Koa, { type Middleware } from 'koa';
import type { Logger } from 'pino';
import type { Metrics } from './metrics.ts';
import { accountAuthRoutes } from './account/account-routes.ts';
import type { AccountHttp } from './account/account-http.ts';
import { createAttestContext, type AttestDeps } from './attest-context.ts';
import { AppError, notFound, unprocessable } from '../common/app-error.ts';
import { createForensicContext, type ForensicDeps } from './forensic-context.ts';
import { errorHandler } from './middleware/error-handler.ts';
import { clientAddress } from './client-address.ts';
import { ipRateLimit } from './middleware/ip-rate-limit.ts';
import { requestContext } from './middleware/request-context.ts';
import { accountRoutes, type AccountPagesDeps } from './routes/account.ts';
import { accountPortfolioRoutes } from './routes/account-portfolio.ts';
import { AccountPageSpending } from '../access/account-page-spend.ts';
import { attestRoutes } from './routes/attest.ts';
import { customScreenRoutes } from './routes/custom-screens.ts';
import { accountScreenRoutes } from './routes/account-screens.ts';
import { docsRoutes } from './routes/docs.ts';
import { explainRoutes } from './routes/explain.ts';
import { forensicRoutes } from './routes/forensic.ts';
import { mcpRoutes } from './routes/mcp.ts';
import { opsRoutes, type ReadinessCheck } from './routes/ops.ts';
import { purificationRoutes } from './routes/purification.ts';
import { portfolioRoutes } from './routes/portfolio.ts';
import { referenceRoutes } from './routes/reference.ts';
import { screenRoutes } from './routes/screen.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { zakatRoutes } from './routes/zakat.ts';
import { createWebhookContext, type WebhookDeps } from './webhooks-context.ts';
import { createScreenService, type ScreenDeps } from './screen-service.ts';
import type { PurificationReads } from '../warehouse/purification-reads.ts';
import { CustomScreenStore } from '../service-state/custom-screen-store.ts';
import type { ServiceDb } from '../service-state/db.ts';

export interface AppDeps {
  logger: Logger;
  metrics: Metrics;
  readiness: Record<string, ReadinessCheck>;
  /** The screening API's reads, refresher and cache policy; without it only ops routes are served. */
  screen?: ScreenDeps;
  /** Attestations (service.db and the signing secrets); they need `screen` too. */
  attest?: AttestDeps;
  /** Forensic accounting endpoints (docs/forensic.md): their lake reads; they need `screen` too. */
  forensic?: ForensicDeps;
  /** Status-change webhook subscriptions (docs/webhooks.md); they need `screen` too. */
  webhooks?: WebhookDeps;
  /** `POST /api/purification` (docs/api.md, "Purification") and `GET /api/zakat`: their lake reads; they need `screen` too. */
  purification?: { lake: PurificationReads };
  /** An account's custom screens (docs/custom-screens.md), in the service state; they need `screen` and access control too. */
  customScreens?: { db: ServiceDb };
  /** Access control (docs/access.md): runs on every /api route after it declared its endpoint tag and cost. */
  accessControl?: Middleware[];
  /** Account users' sign-in pages under /account (docs/access.md, "Account users and sign-in"). */
  account?: AccountHttp;
  /** The account pages, /account/api-keys and /account/upgrade (docs/access.md, "Account pages"). */
  accountPages?: AccountPagesDeps;
  /** Base URL named in the OpenAPI document. */
  baseUrl?: string;
  /** Proxies in front whose X-Forwarded-For entries are trusted (TRUST_PROXY and TRUST_PROXY_HOPS; default none). */
  trustedProxyHops?: number;
}

/** Body parsing errors on the one error road: too large → 413, anything unreadable → 422. */
function bodyError(error: Error & { status?: number }): never {
  if (error.status === 413) throw new AppError(413, 'body_too_large', 'request body too large: the limit is 64 kB');
  throw unprocessable(`malformed request body: ${error.message}; send a JSON object`, 'malformed_body');
}

/** A path some route serves, asked with another method: 405 naming the allowed methods. */
const methodNotAllowed: Middleware = async (ctx, next) => {
  const matched = (ctx as unknown as { matched?: Array<{ methods: string[] }> }).matched ?? [];
  const allowed = [...new Set(matched.flatMap((layer) => layer.methods))];
  if (allowed.length > 0) {
    ctx.set('Allow', allowed.join(', '));
    throw new AppError(405, 'method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}; allowed: ${allowed.join(', ')}`);
  }
  await next();
};

/** The Koa application: request context, the single error road, then the routers. */
export function createApp(deps: AppDeps): Koa {
  const app = new Koa();
  app.proxy = false;
  app.silent = true; // errors are logged by errorHandler with the request id, not by Koa's default printer
  app.use(requestContext(deps.logger, deps.metrics));
  app.use(errorHandler());
  const context = deps.screen ? createScreenService({ logger: deps.logger, ...deps.screen }) : null;
  // Every request is counted for the pre-renderer, which leaves the event loop to requests while they come.
  if (context) app.use((_ctx, next) => ((context.requestsSeen += 1), next()));
  const ops = opsRoutes({ metrics: deps.metrics, readiness: deps.readiness });
  app.use(ops.routes()).use(ops.allowedMethods());
  if (deps.account) app.use(accountAuthRoutes(deps.account).routes());
  if (deps.accountPages) app.use(accountRoutes({ ...deps.accountPages, http: deps.account }).routes());
  if (context) {
    const access = deps.accessControl ?? [];
    const customScreens = deps.customScreens ? { store: new CustomScreenStore(deps.customScreens.db), now: context.now } : undefined;
    // Before the API's JSON body parser: the page's forms are parsed by the account pages' own.
    if (customScreens && deps.account) app.use(accountScreenRoutes({ http: deps.account, screens: customScreens }).routes());
    app.use(bodyParser({ enableTypes: ['json'], jsonLimit: '64kb', encoding: 'utf-8', onError: bodyError }));
    for (const router of [screenRoutes(context, access, customScreens), referenceRoutes(context, access), docsRoutes(deps.baseUrl ?? '')]) {
      app.use(router.routes());
    }
    app.use(explainRoutes(context, access).routes());
    if (customScreens) app.use(customScreenRoutes(customScreens, access).routes());
    if (deps.attest) {
      const limit = deps.attest.verifyRateLimit ?? { limit: 60, windowMs: 60_000 };
      const hops = deps.trustedProxyHops ?? 0;
      const verifyLimit = ipRateLimit({ ...limit, what: 'verification requests', addressOf: (ctx) => clientAddress(ctx, hops) });
      app.use(attestRoutes(createAttestContext(deps.attest, context, deps.baseUrl ?? ''), access, verifyLimit).routes());
    }
    if (deps.forensic) app.use(forensicRoutes(createForensicContext(deps.forensic, context), access).routes());
    if (deps.webhooks) app.use(webhookRoutes(createWebhookContext(deps.webhooks, context.now), access).routes());
    if (deps.purification) app.use(purificationRoutes(context, deps.purification.lake, access).routes());
    if (deps.purification) app.use(zakatRoutes(context, deps.purification.lake, access).routes());
    if (deps.purification) app.use(portfolioRoutes(context, deps.purification.lake, access, customScreens).routes());
    if (deps.purification && deps.account && deps.accountPages?.meter) {
      const { store, meter, now } = deps.accountPages;
      const spending = new AccountPageSpending(store, meter, now);
      app.use(accountPortfolioRoutes({ http: deps.account, service: context, lake: deps.purification.lake, spending }).routes());
    }
    app.use(mcpRoutes(access).routes());
    app.use(methodNotAllowed);
  }
  app.use((ctx) => {
    throw notFound(`no route for ${ctx.method} ${ctx.path}; see /openapi.json for the API's routes`, 'route_not_found');
  });
  return app;
}
