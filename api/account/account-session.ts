import { bodyParser } from '@koa/bodyparser';
import type { Context, Middleware } from 'koa';
import type { AccountSession } from '../../access/account-users.ts';
import { newToken, TOKEN_SHAPE } from '../../access/secret-tokens.ts';
import { AppError } from '../../common/app-error.ts';
import type { AccountHttp } from './account-http.ts';
import { FORM_COOKIE, readCookie, SESSION_COOKIE, writeCookie } from './cookies.ts';
import { formToken } from './csrf.ts';

/** What `requireAccountSession` puts on `ctx.state.accountSession`. */
export interface SignedInUser extends AccountSession {
  /** The token every form of this session must carry as `_csrf`. */
  csrfToken: string;
}

/** The signed-in user of the request, set by `requireAccountSession` (or by `loadAccountSession` when signed in). */
export function signedInUser(ctx: Context): SignedInUser {
  const user = ctx.state.accountSession as SignedInUser | undefined;
  if (!user) throw new Error('signedInUser: requireAccountSession must run first');
  return user;
}

/** The raw session id of the request (for sign-out and password change); never logged. */
export function sessionIdOf(ctx: Context): string | undefined {
  return ctx.state.accountSessionId as string | undefined;
}

/**
 * Resolves the session cookie: signed in, sets `ctx.state.accountSession` (accountId, userId,
 * email, csrfToken); either way sets `ctx.state.csrfToken` for the page's forms, creating the
 * `fs_form` cookie the first time a signed-out browser is shown a form.
 */
export function loadAccountSession(http: AccountHttp): Middleware {
  return async (ctx, next) => {
    const sessionId = readCookie(ctx, http.trustProxy, SESSION_COOKIE);
    const session = sessionId === undefined ? null : await http.auth.resolve(sessionId);
    if (session && sessionId !== undefined) {
      const csrfToken = formToken(http.csrfKey, { session: sessionId });
      ctx.state.accountSession = { ...session, csrfToken } satisfies SignedInUser;
      ctx.state.accountSessionId = sessionId;
      ctx.state.csrfToken = csrfToken;
    } else {
      let form = readCookie(ctx, http.trustProxy, FORM_COOKIE);
      if (form === undefined || !TOKEN_SHAPE.test(form)) {
        form = newToken();
        writeCookie(ctx, http.trustProxy, FORM_COOKIE, form);
      }
      ctx.state.csrfToken = formToken(http.csrfKey, { form });
    }
    await next();
  };
}

/** Where sign-in may send the user back to: only an /account page of this site. */
export function safeNext(value: unknown): string {
  return typeof value === 'string' && /^\/account(\/[A-Za-z0-9_-]+)*\/?$/.test(value) ? value : '/account';
}

/**
 * The account pages' gate: a signed-in user on `ctx.state.accountSession`, or a 303 to
 * /account/sign-in that comes back here afterwards (GET pages only; a form post goes to /account).
 */
export function requireAccountSession(http: AccountHttp): Middleware {
  const load = loadAccountSession(http);
  return (ctx, next) =>
    load(ctx, async () => {
      if (ctx.state.accountSession === undefined) {
        const back = ctx.method === 'GET' ? safeNext(ctx.path) : '/account';
        ctx.set('Cache-Control', 'no-store');
        ctx.redirect(`/account/sign-in?next=${encodeURIComponent(back)}`);
        ctx.status = 303;
        return;
      }
      await next();
    });
}

/** Parses an HTML form post (application/x-www-form-urlencoded, up to 16 kB); anything else is a 415. */
export const accountFormBody: Middleware = (() => {
  const parse = bodyParser({
    enableTypes: ['form'],
    formLimit: '16kb',
    encoding: 'utf-8',
    onError: (error: Error & { status?: number }) => {
      if (error.status === 413) throw new AppError(413, 'body_too_large', 'form too large: the limit is 16 kB');
      throw new AppError(400, 'malformed_form', `malformed form: ${error.message}`);
    },
  });
  return async (ctx, next) => {
    if (!ctx.is('application/x-www-form-urlencoded'))
      throw new AppError(415, 'unsupported_media_type', 'send the form as application/x-www-form-urlencoded (an HTML form post)');
    await parse(ctx, next);
  };
})();
