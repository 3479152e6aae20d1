import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { accountKeys, createOwnKey, ownKey, revokeOwnKey, type CreateRefusal } from '../../access/account-keys.ts';
import type { AccessStore } from '../../access/access-store.ts';
import { renderKeyNotFoundPage, renderKeysPage, renderRevokePage } from '../pages/account-keys-page.ts';
import { ACCOUNT_PAGE_CSP, type SignedIn } from '../pages/account-layout.ts';
import { renderUpgradePage } from '../pages/upgrade-page.ts';

/** Who is signed in, as the session middleware leaves it on ctx.state. */
export interface AccountSession {
  accountId: string;
  userId: string;
  email: string;
  csrfToken: string;
}

/** Sign-in and CSRF, provided by the account users' session layer. */
export interface AccountAuth {
  /** Lets a request through only with a live session on ctx.state (otherwise it answers, e.g. by sending to sign-in). */
  requireSession: Middleware;
  /** Puts a live session on ctx.state when there is one; lets every request through. */
  optionalSession: Middleware;
  /** Refuses a form post without the session's CSRF token. */
  csrf: Middleware;
  /** The session on ctx.state, if any. */
  sessionOf(ctx: Context): AccountSession | undefined;
}

export interface AccountPagesDeps {
  store: AccessStore;
  hashSecret: Buffer;
  /** UPGRADE_CONTACT: how customers reach the operator to change plans. */
  contact: string | undefined;
  /** Without it only the public view of /account/upgrade is served. */
  auth?: AccountAuth;
  now?: () => number;
}

/** Headers of every account page: never cached (a new key's secret is in one), never indexed, nothing loaded from elsewhere. */
function pageHeaders(ctx: Context): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Robots-Tag', 'noindex, nofollow');
  ctx.set('Content-Security-Policy', ACCOUNT_PAGE_CSP);
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.type = 'text/html; charset=utf-8';
}

const KEY_ID = /^key_[0-9A-Za-z]{12}$/;

/**
 * /account/api-keys (the signed-in account's keys: list, create, revoke with confirmation) and
 * /account/upgrade (public; it names the plan too when someone is signed in). Every read and
 * write is scoped to the session's account: another account's key is a 404, like an unknown one.
 */
export function accountRoutes(deps: AccountPagesDeps): Router {
  const router = new Router();
  const now = deps.now ?? Date.now;
  const html: Middleware = async (ctx, next) => {
    pageHeaders(ctx);
    await next();
  };

  router.get('/account/upgrade', html, ...(deps.auth ? [deps.auth.optionalSession] : []), async (ctx) => {
    const session = deps.auth?.sessionOf(ctx);
    const account = session ? await deps.store.account(session.accountId) : undefined;
    ctx.body = renderUpgradePage({ signedIn: session && signedInOf(session), account, contact: deps.contact });
  });

  const auth = deps.auth;
  if (!auth) return router;
  const session = (ctx: Context): AccountSession => {
    const found = auth.sessionOf(ctx);
    // Fail closed: requireSession must have answered already when there is no session.
    if (!found) throw new Error(`${ctx.method} ${ctx.path} reached an account page without a session`);
    return found;
  };

  const keysPage = async (
    ctx: Context,
    extra: { created?: { key: string; keyId: string }; revoked?: string; refused?: CreateRefusal } = {},
  ) => {
    const signedIn = session(ctx);
    const view = await accountKeys(deps.store, signedIn.accountId, now());
    if (!view) throw new Error(`the session's account '${signedIn.accountId}' does not exist`);
    ctx.body = renderKeysPage({ view, signedIn: signedInOf(signedIn), contact: deps.contact, ...extra });
  };

  router.get('/account/api-keys', html, auth.requireSession, async (ctx) => {
    // Only a revocation that happened is confirmed: the id in the address is checked, not echoed.
    const asked = typeof ctx.query.revoked === 'string' && KEY_ID.test(ctx.query.revoked) ? ctx.query.revoked : undefined;
    const revoked = asked ? await ownKey(deps.store, session(ctx).accountId, asked) : undefined;
    await keysPage(ctx, revoked && revoked.revokedAt !== null ? { revoked: revoked.keyId } : {});
  });

  // The secret is in this response only (no redirect that would have to carry it); no-store keeps it out of caches.
  router.post('/account/api-keys', html, auth.requireSession, auth.csrf, async (ctx) => {
    const signedIn = session(ctx);
    const account = await deps.store.account(signedIn.accountId);
    if (!account) throw new Error(`the session's account '${signedIn.accountId}' does not exist`);
    const outcome = await createOwnKey(deps.store, deps.hashSecret, account, new Date(now()));
    if (outcome.ok) {
      ctx.state.log?.info({ key_id: outcome.keyId, account: account.name, user_id: signedIn.userId }, 'key created on the account page');
      ctx.status = 201;
      await keysPage(ctx, { created: { key: outcome.key, keyId: outcome.keyId } });
    } else {
      ctx.status = outcome.reason === 'too_many_keys' ? 409 : 403;
      await keysPage(ctx, { refused: outcome.reason });
    }
  });

  router.get('/account/api-keys/:keyId/revoke', html, auth.requireSession, async (ctx) => {
    const signedIn = session(ctx);
    const keyId = ctx.params.keyId!;
    const key = KEY_ID.test(keyId) ? await ownKey(deps.store, signedIn.accountId, keyId) : undefined;
    if (!key || key.revokedAt !== null) {
      ctx.status = 404;
      ctx.body = renderKeyNotFoundPage(signedInOf(signedIn));
      return;
    }
    ctx.body = renderRevokePage(keyId, signedInOf(signedIn));
  });

  router.post('/account/api-keys/:keyId/revoke', html, auth.requireSession, auth.csrf, async (ctx) => {
    const signedIn = session(ctx);
    const keyId = ctx.params.keyId!;
    const outcome = KEY_ID.test(keyId) ? await revokeOwnKey(deps.store, signedIn.accountId, keyId, new Date(now())) : 'not_found';
    if (outcome === 'not_found') {
      ctx.status = 404;
      ctx.body = renderKeyNotFoundPage(signedInOf(signedIn));
      return;
    }
    if (outcome === 'revoked')
      ctx.state.log?.info({ key_id: keyId, account: signedIn.accountId, user_id: signedIn.userId }, 'key revoked on the account page');
    // Post/redirect/get: a reload of the list does not post again.
    ctx.redirect(`/account/api-keys?revoked=${encodeURIComponent(keyId)}`);
    ctx.status = 303;
  });

  return router;
}

function signedInOf(session: AccountSession): SignedIn {
  return { email: session.email, account: session.accountId, csrfToken: session.csrfToken };
}
