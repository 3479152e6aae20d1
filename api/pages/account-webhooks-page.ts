import type { SubscriptionRecord } from '../../webhooks/webhook-store.ts';
import { csrfField, h, type AccountPage, type PageUser } from './account-layout.ts';

/** One live subscription as the account page shows it, with why it delivers nothing, if it does not. */
export interface WebhookRow {
  subscription: SubscriptionRecord;
  /** Why nothing is delivered to it now (its key revoked, its grant narrowed), or null. */
  hold: string | null;
}

/** What /account/webhooks shows. */
export interface WebhooksPageModel {
  rows: WebhookRow[];
  user: PageUser;
  /** A subscription just deleted. */
  deleted?: string;
}

function follows(subscription: SubscriptionRecord): string {
  if (subscription.market !== null) return `all of market <code>${h(subscription.market)}</code>`;
  return (subscription.tickers ?? []).map((entry) => `<code>${h(entry)}</code>`).join(', ');
}

function row({ subscription, hold }: WebhookRow, csrfToken: string): string {
  const id = subscription.subscriptionId;
  const status = hold === null ? '<strong>Delivering</strong>' : `<strong>Delivers nothing</strong>: ${h(hold)}`;
  const state = hold === null ? 'live' : 'silent';
  return (
    `<section class="key${hold === null ? '' : ' revoked'}" id="${h(id)}" data-subscription-id="${h(id)}" data-status="${state}" ` +
    `aria-labelledby="${h(id)}-title">
<h2 id="${h(id)}-title"><code>${h(id)}</code></h2>
<table>
<tr><th scope="row">URL</th><td><code>${h(subscription.url)}</code></td></tr>
<tr><th scope="row">Follows</th><td>${follows(subscription)}</td></tr>
<tr><th scope="row">Frameworks</th><td>${subscription.frameworks.map((f) => `<code>${h(f)}</code>`).join(', ')}</td></tr>
<tr><th scope="row">Created</th><td>${h(subscription.createdAt.slice(0, 16).replace('T', ' '))} UTC ` +
    `by key <code>${h(subscription.createdByKeyId)}</code></td></tr>
<tr><th scope="row">Status</th><td>${status}</td></tr>
</table>
<form method="post" action="/account/webhooks/${h(id)}/delete">${csrfField(csrfToken)}
<button class="danger" type="submit">Delete ${h(id)}</button></form>
</section>`
  );
}

/** /account/webhooks: the account's live subscriptions, each with a delete button. */
export function webhooksPage(model: WebhooksPageModel): AccountPage {
  const notice = model.deleted
    ? `<p class="notice good" role="status" id="deleted-notice">Subscription <code>${h(model.deleted)}</code> is deleted; nothing more is sent to it.</p>`
    : '';
  const list =
    model.rows.length === 0
      ? '<p id="no-webhooks">This account has no webhook subscriptions. Create them with <code>POST /api/webhooks</code>.</p>'
      : model.rows.map((r) => row(r, model.user.csrfToken)).join('\n');
  const main =
    `<h1>Webhooks</h1>
<p class="lead">Status-change subscriptions of account <strong>${h(model.user.accountId)}</strong>. Each delivers ` +
    `only what the key that created it may still see; a subscription whose key was revoked delivers nothing.</p>
${notice}
${list}`;
  return { title: 'Webhooks', main, user: model.user };
}

/** A subscription id that is not one of this account's live subscriptions (or does not exist: the two look the same). */
export function webhookNotFoundPage(user: PageUser): AccountPage {
  return {
    title: 'Webhook not found',
    main: '<h1>Webhook not found</h1><p>This account has no live subscription with that id. <a href="/account/webhooks">Back to your webhooks</a>.</p>',
    user,
  };
}
