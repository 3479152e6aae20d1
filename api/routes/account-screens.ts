import Router from '@koa/router';
import type { Context } from 'koa';
import { AppError } from '../../common/app-error.ts';
import type { Grant } from '../../common/grants.ts';
import type { AccountHttp } from '../account/account-http.ts';
import { accountFormBody, requireAccountSession, signedInUser } from '../account/account-session.ts';
import { requireCsrf } from '../account/csrf.ts';
import { sendAccountPage, type PageUser } from '../pages/account-layout.ts';
import { screenNotFoundPage, screensPage, type ScreensPageModel } from '../pages/account-screens-page.ts';
import { CUSTOM_SCREEN_SLUG_PATTERN, CUSTOM_SCREENS_PER_ACCOUNT, createCustomScreenBodySchema } from '../schemas/custom-screens.ts';
import { createCustomScreen, type CustomScreenContext } from '../use-cases/manage-custom-screens.ts';
import { utcDay } from '../../engine/dates.ts';
import { parseRequest } from '../validation.ts';

function pageUser(ctx: Context): PageUser {
  const user = signedInUser(ctx);
  return { accountId: user.accountId, email: user.email, csrfToken: user.csrfToken };
}

/** The session's account as the API's use-cases know an account: a grant without a key. */
const grantOfSession = (user: PageUser): Grant => ({ account: user.accountId, allowedFrameworks: null, allowedMarkets: null });

const listOf = (text: string | undefined) =>
  (text ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);

/**
 * /account/screens: the signed-in account's custom screens, a create form (slug, base, activities
 * excluded at any revenue, excluded tickers) checked by the API's own use-case, and a delete form
 * per screen. Every form is CSRF-checked; another account's screen is a 404, like an unknown one.
 */
export function accountScreenRoutes(deps: { http: AccountHttp; screens: CustomScreenContext }): Router {
  const router = new Router();
  const signedIn = requireAccountSession(deps.http);
  const { screens } = deps;
  const show = async (ctx: Context, status: number, extra: Partial<ScreensPageModel> = {}) => {
    const user = pageUser(ctx);
    const list = await screens.store.list(user.accountId);
    const today = utcDay(screens.now());
    sendAccountPage(ctx, screensPage({ screens: list, user, today, limit: CUSTOM_SCREENS_PER_ACCOUNT, ...extra }), status);
  };
  const own = async (ctx: Context, field: 'created' | 'deleted') => {
    const asked = ctx.query[field];
    if (typeof asked !== 'string' || !CUSTOM_SCREEN_SLUG_PATTERN.test(asked)) return {};
    const exists = (await screens.store.get(pageUser(ctx).accountId, asked)) !== undefined;
    // Only what happened is confirmed: a created screen exists, a deleted one does not.
    return exists === (field === 'created') ? { [field]: asked } : {};
  };

  router.get('/account/screens', signedIn, async (ctx) => {
    await show(ctx, 200, { ...(await own(ctx, 'created')), ...(await own(ctx, 'deleted')) });
  });

  router.post('/account/screens', accountFormBody, signedIn, requireCsrf, async (ctx) => {
    const user = pageUser(ctx);
    const form = (ctx.request.body ?? {}) as Record<string, string>;
    const typed = { slug: form.slug ?? '', base: form.base ?? '', activities: form.activities ?? '', tickers: form.tickers ?? '' };
    try {
      const body = parseRequest(
        createCustomScreenBodySchema,
        {
          slug: typed.slug.trim(),
          base: typed.base,
          exclude_activities: listOf(typed.activities).map((activity) => ({ activity })),
          exclude_tickers: listOf(typed.tickers),
        },
        'body',
      );
      const created = await createCustomScreen(screens, body, grantOfSession(user));
      ctx.set('Cache-Control', 'no-store');
      ctx.redirect(`/account/screens?created=${encodeURIComponent(created.slug)}`);
      ctx.status = 303;
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      await show(ctx, error.status, { error: { detail: String(error.detail), form: typed } });
    }
  });

  router.post('/account/screens/:slug/delete', accountFormBody, signedIn, requireCsrf, async (ctx) => {
    const user = pageUser(ctx);
    const slug = ctx.params.slug!;
    const deleted = CUSTOM_SCREEN_SLUG_PATTERN.test(slug) && (await screens.store.delete(user.accountId, slug));
    if (!deleted) return sendAccountPage(ctx, screenNotFoundPage(user), 404);
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(`/account/screens?deleted=${encodeURIComponent(slug)}`);
    ctx.status = 303;
  });

  return router;
}
