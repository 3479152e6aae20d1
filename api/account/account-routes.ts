import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { PasswordOutcome } from '../../access/account-users.ts';
import { sendAccountPage } from '../pages/account-layout.ts';
import {
  accountHomePage,
  changePasswordPage,
  invalidLinkPage,
  busyMessage,
  IN_FLIGHT,
  rateLimitedMessage,
  setPasswordLinkPage,
  signInBusyPage,
  setPasswordPage,
  signInPage,
  WRONG_CREDENTIALS,
} from '../pages/account-auth-pages.ts';
import { clientAddress } from '../client-address.ts';
import { trustedHopsOf, type AccountHttp } from './account-http.ts';
import { accountFormBody, loadAccountSession, requireAccountSession, safeNext, sessionIdOf, signedInUser } from './account-session.ts';
import { clearCookie, SESSION_COOKIE, writeCookie } from './cookies.ts';
import { requireCsrf } from './csrf.ts';

/**
 * Sign-in, set-password (the operator's one-time link), password change and sign-out, as
 * server-rendered pages and plain form posts (docs/access.md, "Account users and sign-in").
 */
type Form = Record<string, unknown>;
const formOf = (ctx: Context): Form => ((ctx.request as { body?: Form }).body ?? {}) as Form;
const text = (form: Form, name: string): string => (typeof form[name] === 'string' ? (form[name] as string) : '');

function seeOther(ctx: Context, location: string): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.redirect(location);
  ctx.status = 303;
}

export function accountAuthRoutes(http: AccountHttp): Router {
  const router = new Router();
  const load = loadAccountSession(http);
  const signedIn = requireAccountSession(http);

  /** A new session replaces whatever session the browser presented (the id rotates at every sign-in). */
  const startSession = async (ctx: Context, sessionId: string) => {
    const previous = sessionIdOf(ctx);
    if (previous !== undefined) await http.auth.signOut(previous);
    writeCookie(ctx, http.trustProxy, SESSION_COOKIE, sessionId);
  };

  router.get('/account/sign-in', load, (ctx) => {
    const next = safeNext(ctx.query.next);
    if (ctx.state.accountSession) return seeOther(ctx, next);
    const info = ctx.query.signed_out !== undefined ? 'You are signed out.' : undefined;
    sendAccountPage(ctx, signInPage({ csrfToken: ctx.state.csrfToken as string, next, ...(info ? { info } : {}) }));
  });

  /**
   * A flood from one address is mostly refused here, before its form is read or a page with a
   * form token is made: the cheapest answer keeps the event loop free for everyone else. It is
   * answered after the failure delay, so a client keeping thousands of requests in flight has them
   * waiting, not ready to read: a server loop kept busy by ready connections is slow to take up
   * new ones, and real users' connections are new (docs/access.md, "Sign-in limits").
   */
  const oneAtATime: Middleware = async (ctx, next) => {
    if (!http.auth.signingIn(clientAddress(ctx, trustedHopsOf(http)))) return next();
    await http.auth.failureDelay();
    ctx.set('Retry-After', '1');
    sendAccountPage(ctx, signInBusyPage(), 429);
    ctx.state.log?.info({ event: 'account_sign_in_refused', reason: 'in_flight' }, 'account sign-in refused');
  };

  router.post('/account/sign-in', oneAtATime, accountFormBody, load, requireCsrf, async (ctx) => {
    const form = formOf(ctx);
    const email = text(form, 'email').trim();
    const next = safeNext(form.next);
    const csrfToken = ctx.state.csrfToken as string;
    if (email === '' || text(form, 'password') === '') {
      sendAccountPage(ctx, signInPage({ csrfToken, next, email, error: 'Enter both your email and your password.' }), 400);
      return;
    }
    const outcome = await http.auth.signIn(email, text(form, 'password'), clientAddress(ctx, trustedHopsOf(http)));
    if (!outcome.ok) {
      const refuse = (status: number, error: string) => sendAccountPage(ctx, signInPage({ csrfToken, next, email, error }), status);
      if (outcome.reason === 'invalid') refuse(401, WRONG_CREDENTIALS);
      else {
        ctx.set('Retry-After', String(outcome.retryAfterSeconds));
        if (outcome.reason === 'rate_limited') refuse(429, rateLimitedMessage(outcome.retryAfterSeconds));
        else if (outcome.reason === 'in_flight') refuse(429, IN_FLIGHT);
        else refuse(503, busyMessage(outcome.retryAfterSeconds));
      }
      ctx.state.log?.info({ event: 'account_sign_in_refused', reason: outcome.reason }, 'account sign-in refused');
      return;
    }
    await startSession(ctx, outcome.sessionId);
    ctx.state.log?.info(
      { event: 'account_sign_in', user_id: outcome.session.userId, account: outcome.session.accountId },
      'account sign-in',
    );
    seeOther(ctx, next);
  });

  router.get('/account/set-password', load, async (ctx) => {
    // Links carry the token in the fragment, which browsers never send: the page's form takes it.
    if (ctx.query.token === undefined) return sendAccountPage(ctx, setPasswordLinkPage({ csrfToken: ctx.state.csrfToken as string }));
    // Links issued before that carried it in the query string; they keep working until they expire.
    const token = typeof ctx.query.token === 'string' ? ctx.query.token : '';
    const email = await http.auth.inviteEmail(token);
    if (email === null) return sendAccountPage(ctx, invalidLinkPage(), 410);
    sendAccountPage(ctx, setPasswordPage({ csrfToken: ctx.state.csrfToken as string, token, email }));
  });

  router.post('/account/set-password', accountFormBody, load, requireCsrf, async (ctx) => {
    const form = formOf(ctx);
    const token = text(form, 'token');
    const email = await http.auth.inviteEmail(token);
    if (email === null) return sendAccountPage(ctx, invalidLinkPage(), 410);
    const again = (error: string) =>
      sendAccountPage(ctx, setPasswordPage({ csrfToken: ctx.state.csrfToken as string, token, email, error }), 422);
    if (text(form, 'password') !== text(form, 'confirm')) return again('The two passwords are not the same; type the new password twice.');
    const outcome = await http.auth.setPasswordWithInvite(token, text(form, 'password'));
    if (!outcome.ok) return outcome.reason === 'invalid_link' ? sendAccountPage(ctx, invalidLinkPage(), 410) : again(outcome.message);
    await startSession(ctx, outcome.sessionId);
    ctx.state.log?.info({ event: 'account_password_set', user_id: outcome.session.userId }, 'account password set by link');
    seeOther(ctx, '/account?welcome=1');
  });

  router.get('/account', signedIn, (ctx) => {
    const info = ctx.query.welcome !== undefined ? 'Your password is set and you are signed in.' : undefined;
    sendAccountPage(ctx, accountHomePage({ user: signedInUser(ctx), ...(info ? { info } : {}) }));
  });

  router.get('/account/password', signedIn, (ctx) => {
    const info = ctx.query.changed !== undefined ? 'Your password was changed. Other sessions were signed out.' : undefined;
    sendAccountPage(ctx, changePasswordPage({ user: signedInUser(ctx), ...(info ? { info } : {}) }));
  });

  router.post('/account/password', accountFormBody, signedIn, requireCsrf, async (ctx) => {
    const form = formOf(ctx);
    const user = signedInUser(ctx);
    const refuse = (status: number, error: string) => sendAccountPage(ctx, changePasswordPage({ user, error }), status);
    if (text(form, 'password') !== text(form, 'confirm'))
      return refuse(422, 'The two new passwords are not the same; type the new password twice.');
    const outcome: PasswordOutcome = await http.auth.changePassword(
      sessionIdOf(ctx)!,
      text(form, 'current'),
      text(form, 'password'),
      clientAddress(ctx, trustedHopsOf(http)),
    );
    if (!outcome.ok) {
      if (outcome.reason === 'rate_limited') {
        ctx.set('Retry-After', String(outcome.retryAfterSeconds));
        return refuse(429, outcome.message);
      }
      if (outcome.reason === 'invalid_link') return seeOther(ctx, '/account/sign-in');
      return refuse(outcome.reason === 'wrong_password' ? 401 : 422, outcome.message);
    }
    writeCookie(ctx, http.trustProxy, SESSION_COOKIE, outcome.sessionId);
    ctx.state.log?.info({ event: 'account_password_changed', user_id: user.userId }, 'account password changed');
    seeOther(ctx, '/account/password?changed=1');
  });

  router.post('/account/sign-out', accountFormBody, load, async (ctx) => {
    // Signed out already (or the session expired): nothing to protect, just leave.
    if (!ctx.state.accountSession) {
      clearCookie(ctx, http.trustProxy, SESSION_COOKIE);
      return seeOther(ctx, '/account/sign-in?signed_out=1');
    }
    await requireCsrf(ctx, async () => {
      await http.auth.signOut(sessionIdOf(ctx)!);
      clearCookie(ctx, http.trustProxy, SESSION_COOKIE);
      ctx.state.log?.info({ event: 'account_sign_out', user_id: signedInUser(ctx).userId }, 'account sign-out');
      seeOther(ctx, '/account/sign-in?signed_out=1');
    });
  });

  return router;
}
