import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { AccountPageSpending } from '../../access/account-page-spend.ts';
import { AppError } from '../../common/app-error.ts';
import { UNSCOPED_KEY_FRAMEWORKS } from '../../common/grants.ts';
import type { PurificationReads } from '../../warehouse/purification-reads.ts';
import type { AccountHttp } from '../account/account-http.ts';
import { requireAccountSession, signedInUser } from '../account/account-session.ts';
import { requireCsrf } from '../account/csrf.ts';
import { portfolioPage, type PortfolioPageModel } from '../pages/account-portfolio-page.ts';
import { sendAccountPage, type PageUser } from '../pages/account-layout.ts';
import { readTextBody } from '../read-text-body.ts';
import { PORTFOLIO_CSV_LIMIT_BYTES, portfolioBodySchema } from '../schemas/portfolio.ts';
import type { ScreenService } from '../screen-service.ts';
import { holdingsFromCsv } from '../use-cases/portfolio-csv.ts';
import { checkHoldingCount } from '../use-cases/portfolio-holdings.ts';
import { portfolioUnits, screenPortfolio } from '../use-cases/screen-portfolio.ts';
import { checkMarket, normaliseTicker, parseRequest } from '../validation.ts';

function pageUser(ctx: Context): PageUser {
  const user = signedInUser(ctx);
  return { accountId: user.accountId, email: user.email, csrfToken: user.csrfToken };
}

/**
 * The form post with the pasted CSV (url-encoded, up to the API's CSV limit plus room for the
 * encoding): read here because the account pages' own parser stops at 16 kB. Anything else is a 415.
 */
const portfolioFormBody: Middleware = async (ctx, next) => {
  if (!ctx.is('application/x-www-form-urlencoded'))
    throw new AppError(415, 'unsupported_media_type', 'send the form as application/x-www-form-urlencoded (an HTML form post)');
  ctx.request.body = Object.fromEntries(new URLSearchParams(await readTextBody(ctx, 3 * PORTFOLIO_CSV_LIMIT_BYTES)));
  await next();
};

/**
 * The portfolio of a pasted CSV, screened by the use-case the API route calls, for every framework
 * an unscoped key sees. It spends what `POST /api/portfolio` charges for the same holdings (no
 * period, no zakat: a unit per stock line, five per fund line) from the account's allowance:
 * charged before the screen, all given back when it is refused, the rest when it is worth less.
 * A CSV that cannot be read is refused before anything is charged.
 */
async function screenCsv(deps: AccountPortfolioDeps, account: string, csv: string, market: string): Promise<Record<string, unknown>> {
  const read = holdingsFromCsv(csv, checkMarket(market));
  checkHoldingCount(read.holdings.length);
  const body = parseRequest(portfolioBodySchema, { holdings: read.holdings }, 'body');
  const holdings = body.holdings.map((h, i) => ({ ...h, ticker: normaliseTicker(h.ticker, `holdings.${i}.ticker`) }));
  const kinds = holdings.map((h) =>
    deps.service.reads.listing(h.market, h.ticker)?.kind === 'fund' ? ('fund' as const) : ('stock' as const),
  );
  return deps.spending.spend(account, portfolioUnits(kinds, 0, false), 'portfolio screen', async () => {
    const outcome = await screenPortfolio(deps.service, deps.lake, {
      holdings,
      frameworks: UNSCOPED_KEY_FRAMEWORKS,
      period: null,
      zakat: null,
    });
    return { value: { ...outcome.body, csv: read.summary }, units: outcome.units };
  });
}

export interface AccountPortfolioDeps {
  http: AccountHttp;
  service: ScreenService;
  lake: PurificationReads;
  /** The account's allowance, spent one screen at a time. */
  spending: AccountPageSpending;
}

/**
 * /account/portfolio (docs/access.md, "Account pages"): a signed-in user pastes or chooses a
 * broker CSV and sees the screen of it with a chart. A refused portfolio shows what was wrong
 * above the form, with the status the API would answer. The page spends the account's allowance
 * as the API would for the same holdings, so signing in is no way around the quota; it screens
 * from the current verdicts only (no re-screens, no purification, no zakat), within the API's
 * limits. A spent allowance is the API's 429 with its words; the free and partner tiers have no
 * account allowance to spend (403); one screen per account runs at a time (a second is a 429).
 */
export function accountPortfolioRoutes(deps: AccountPortfolioDeps): Router {
  const router = new Router();
  const signedIn = requireAccountSession(deps.http);
  router.get('/account/portfolio', signedIn, (ctx) => {
    sendAccountPage(ctx, portfolioPage({ user: pageUser(ctx), csv: '', market: 'us' }));
  });
  router.post('/account/portfolio', portfolioFormBody, signedIn, requireCsrf, async (ctx) => {
    const form = ctx.request.body as Record<string, string | undefined>;
    const model: PortfolioPageModel = { user: pageUser(ctx), csv: form.csv ?? '', market: form.market ?? 'us' };
    try {
      model.result = await screenCsv(deps, model.user.accountId, model.csv, model.market);
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      model.error = typeof error.detail === 'string' ? error.detail : error.detail.message;
      if (error.retryAfterSeconds !== undefined) ctx.set('Retry-After', String(error.retryAfterSeconds));
      return sendAccountPage(ctx, portfolioPage(model), error.status);
    }
    sendAccountPage(ctx, portfolioPage(model));
  });
  return router;
}
