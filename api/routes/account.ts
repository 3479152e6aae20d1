import Router from '@koa/router';
import type { Context } from 'koa';
import { accountKeys, createOwnKey, ownKey, revokeOwnKey, type CreateRefusal } from '../../access/account-keys.ts';
import type { AccessStore } from '../../access/access-store.ts';
import type { QuotaMeter } from '../../access/meter.ts';
import type { AccountHttp } from '../account/account-http.ts';
import { accountFormBody, loadAccountSession, requireAccountSession, signedInUser } from '../account/account-session.ts';
import { requireCsrf } from '../account/csrf.ts';
import { keyNotFoundPage, keysPage, revokePage } from '../pages/account-keys-page.ts';
import { sendAccountPage, type PageUser } from '../pages/account-layout.ts';
import { upgradePage } from '../pages/upgrade-page.ts';
import type { WebhookStore } from '../../webhooks/webhook-store.ts';
import { addAccountWebhookPages } from './account-webhooks.ts';

export interface AccountPagesDeps {
  store: AccessStore;
  hashSecret: Buffer;
  /** UPGRADE_CONTACT: how customers reach the operator to change plans. */
  contact: string | undefined;
  /** Sign-in and sessions; without them only the public view of /account/upgrade is served. */
  http?: AccountHttp | undefined;
  /** The account's webhook subscriptions: listed and deleted on /account/webhooks, offered for ending when a key is revoked. */
  webhooks?: WebhookStore | undefined;
  /** The process's quota meter: what /account/portfolio spends of the account's allowance; without it that page is not served. */
  meter?: QuotaMeter | undefined;
  now?: () => number;
}

const KEY_ID = /^key_[0-9A-Za-z]{12}$/;

function pageUser(ctx: Context): PageUser {
  const user = signedInUser(ctx);
  return { accountId: user.accountId, email: user.email, csrfToken: user.csrfToken };
}

/**
 * /account/api-keys (the signed-in account's keys: list, create, revoke with confirmation) and
 * /account/upgrade (public; it names the plan too when someone is signed in). Every read and
 * write is scoped to the session's account: another account's key is a 404, like an unknown one.
 */
export function accountRoutes(deps: AccountPagesDeps): Router {
  const router = new Router();
  const now = deps.now ?? Date.now;
  const { http } = deps;

  if (!http) {
    router.get('/account/upgrade', (ctx) =>
      sendAccountPage(ctx, upgradePage({ user: undefined, account: undefined, contact: deps.contact })),
    );
    return router;
  }

  router.get('/account/upgrade', loadAccountSession(http), async (ctx) => {
    const signedIn = ctx.state.accountSession === undefined ? undefined : pageUser(ctx);
    const account = signedIn ? await deps.store.account(signedIn.accountId) : undefined;
    sendAccountPage(ctx, upgradePage({ user: signedIn, account, contact: deps.contact }));
  });

  const signedIn = requireAccountSession(http);
  const showKeys = async (
    ctx: Context,
    status: number,
    extra: { created?: { key: string; keyId: string }; revoked?: string; refused?: CreateRefusal } = {},
  ) => {
    const user = pageUser(ctx);
    const view = await accountKeys(deps.store, user.accountId, now());
    if (!view) throw new Error(`the session's account '${user.accountId}' does not exist`);
    sendAccountPage(ctx, keysPage({ view, user, contact: deps.contact, ...extra }), status);
  };

  router.get('/account/api-keys', signedIn, async (ctx) => {
    // Only a revocation that happened is confirmed: the id in the address is checked, not echoed.
    const asked = typeof ctx.query.revoked === 'string' && KEY_ID.test(ctx.query.revoked) ? ctx.query.revoked : undefined;
    const revoked = asked ? await ownKey(deps.store, signedInUser(ctx).accountId, asked) : undefined;
    await showKeys(ctx, 200, revoked && revoked.revokedAt !== null ? { revoked: revoked.keyId } : {});
  });

  // The secret is in this response only (no redirect that would have to carry it); no-store keeps it out of caches.
  router.post('/account/api-keys', accountFormBody, signedIn, requireCsrf, async (ctx) => {
    const user = signedInUser(ctx);
    const account = await deps.store.account(user.accountId);
    if (!account) throw new Error(`the session's account '${user.accountId}' does not exist`);
    const outcome = await createOwnKey(deps.store, deps.hashSecret, account, new Date(now()));
    if (!outcome.ok) return showKeys(ctx, outcome.reason === 'too_many_keys' ? 409 : 403, { refused: outcome.reason });
    ctx.state.log?.info({ key_id: outcome.keyId, account: account.name, user_id: user.userId }, 'key created on the account page');
    await showKeys(ctx, 201, { created: { key: outcome.key, keyId: outcome.keyId } });
  });

  router.get('/account/api-keys/:keyId/revoke', signedIn, async (ctx) => {
    const user = pageUser(ctx);
    const keyId = ctx.params.keyId!;
    const key = KEY_ID.test(keyId) ? await ownKey(deps.store, user.accountId, keyId) : undefined;
    if (!key || key.revokedAt !== null) return sendAccountPage(ctx, keyNotFoundPage(user), 404);
    const webhooks = deps.webhooks ? (await deps.webhooks.subscriptionsCreatedBy(keyId)).length : 0;
    sendAccountPage(ctx, revokePage(keyId, user, webhooks));
  });

  router.post('/account/api-keys/:keyId/revoke', accountFormBody, signedIn, requireCsrf, async (ctx) => {
    const user = signedInUser(ctx);
    const keyId = ctx.params.keyId!;
    const outcome = KEY_ID.test(keyId) ? await revokeOwnKey(deps.store, user.accountId, keyId, new Date(now())) : 'not_found';
    if (outcome === 'not_found') return sendAccountPage(ctx, keyNotFoundPage(pageUser(ctx)), 404);
    if (outcome === 'revoked')
      ctx.state.log?.info({ key_id: keyId, account: user.accountId, user_id: user.userId }, 'key revoked on the account page');
    // The form offers to end the key's webhook subscriptions (checked by default); unticked, they stay, silent.
    const form = ctx.request.body as Record<string, unknown> | undefined;
    if (deps.webhooks && form?.end_webhooks === 'yes')
      await deps.webhooks.deleteSubscriptionsCreatedBy(keyId, new Date(now()).toISOString());
    // Post/redirect/get: a reload of the list does not post again.
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(`/account/api-keys?revoked=${encodeURIComponent(keyId)}`);
    ctx.status = 303;
  });

  if (deps.webhooks) addAccountWebhookPages(router, { webhooks: deps.webhooks, signedIn, pageUser, now });

  return router;
}
