import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { SUBSCRIPTION_ID_PATTERN } from '../../webhooks/events.ts';
import { liveScopeOf } from '../../webhooks/subscription-grant.ts';
import type { WebhookStore } from '../../webhooks/webhook-store.ts';
import { accountFormBody, signedInUser } from '../account/account-session.ts';
import { requireCsrf } from '../account/csrf.ts';
import { sendAccountPage, type PageUser } from '../pages/account-layout.ts';
import { webhookNotFoundPage, webhooksPage } from '../pages/account-webhooks-page.ts';

/**
 * /account/webhooks: the signed-in account's live subscriptions, each with why it delivers
 * nothing if it does not, and a delete form (CSRF-checked, like every account form). Another
 * account's subscription is a 404, like an unknown one.
 */
export function addAccountWebhookPages(
  router: Router,
  deps: { webhooks: WebhookStore; signedIn: Middleware; pageUser: (ctx: Context) => PageUser; now: () => number },
): void {
  const { webhooks, signedIn, pageUser, now } = deps;

  router.get('/account/webhooks', signedIn, async (ctx) => {
    const user = pageUser(ctx);
    const rows = [];
    for (const subscription of await webhooks.listSubscriptions(user.accountId))
      rows.push({ subscription, hold: liveScopeOf(subscription, await webhooks.creatorKeyGrant(subscription.subscriptionId)).hold });
    // Only a deletion that happened is confirmed: the id in the address is checked, not echoed.
    const asked = typeof ctx.query.deleted === 'string' && SUBSCRIPTION_ID_PATTERN.test(ctx.query.deleted) ? ctx.query.deleted : undefined;
    const gone = asked ? await webhooks.subscription(asked) : undefined;
    const deleted = gone && gone.account === user.accountId && gone.deletedAt !== null ? gone.subscriptionId : undefined;
    sendAccountPage(ctx, webhooksPage({ rows, user, ...(deleted ? { deleted } : {}) }));
  });

  router.post('/account/webhooks/:id/delete', accountFormBody, signedIn, requireCsrf, async (ctx) => {
    const user = signedInUser(ctx);
    const id = ctx.params.id!;
    const deleted =
      SUBSCRIPTION_ID_PATTERN.test(id) && (await webhooks.deleteSubscription(user.accountId, id, new Date(now()).toISOString()));
    if (!deleted) return sendAccountPage(ctx, webhookNotFoundPage(pageUser(ctx)), 404);
    ctx.state.log?.info({ subscription_id: id, account: user.accountId, user_id: user.userId }, 'webhook deleted on the account page');
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(`/account/webhooks?deleted=${encodeURIComponent(id)}`);
    ctx.status = 303;
  });
}
