import type { AccountKeys, CreateRefusal, KeyUsage } from '../../access/account-keys.ts';
import { SELF_SERVICE_LIVE_KEYS } from '../../access/account-keys.ts';
import { KEY_PREFIX } from '../../access/api-key-format.ts';
import type { WindowReport } from '../../access/quota-windows.ts';
import { csrfField, h, type AccountPage, type PageUser } from './account-layout.ts';
import { renderUsageChart } from './usage-chart.ts';

/** What /account/api-keys shows: the account's keys, and what the last action did. */
export interface KeysPageModel {
  view: AccountKeys;
  user: PageUser;
  /** Where customers ask for more (the operator's contact), when configured. */
  contact: string | undefined;
  /** A key just created: its secret is in this one response and never again. */
  created?: { key: string; keyId: string };
  /** A key just revoked. */
  revoked?: string;
  /** Why the key asked for was not created. */
  refused?: CreateRefusal;
}

/** The window rule in words (docs/access.md, "Quotas and windows"). */
const WINDOW_RULE =
  'Each key has a daily counter. It starts at the first call made while no counter is running and resets ' +
  '24 hours after that first call of the day, not at midnight. Partner keys with a 30-day quota have a ' +
  'second counter that works the same way over 30 days. A request is refused (429) when either counter ' +
  'cannot cover its cost; a refused or failed request costs nothing.';

const WINDOW_LABEL: Record<WindowReport['window'], string> = { daily: 'Daily (24 hours)', monthly: '30-day quota' };

const units = (n: number) => n.toLocaleString('en-US');

/** An instant as people read it: `2026-11-21 10:00 UTC`. */
const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/**
 * The copy button of a new key: progressive enhancement. Without script the button stays
 * hidden and the key sits in a read-only field to select; with it, one click copies.
 */
export const COPY_KEY_SCRIPT = `
for (const button of document.querySelectorAll('button[data-copy]')) {
  const field = document.getElementById(button.dataset.copy);
  button.hidden = false;
  button.addEventListener('click', async () => {
    try { await navigator.clipboard.writeText(field.value); button.textContent = 'Copied'; }
    catch { field.select(); button.textContent = 'Press Ctrl+C to copy'; }
  });
}`;

/** The operator's contact as a link when it is an address or a URL. */
export function contactLink(contact: string | undefined): string {
  if (contact === undefined) return 'the operator of this faithscreen service';
  if (/^https?:\/\//.test(contact)) return `<a href="${h(contact)}">${h(contact)}</a>`;
  if (/^[^@\s]+@[^@\s]+$/.test(contact)) return `<a href="mailto:${h(contact)}">${h(contact)}</a>`;
  return h(contact);
}

function refusalText(reason: CreateRefusal, contact: string | undefined): string {
  switch (reason) {
    case 'free_tier':
      return 'API access starts at the Pro tier, so free accounts cannot create keys. <a href="/account/upgrade">See the plans</a>.';
    case 'lapsed':
      return 'This account\'s subscription has lapsed, so no key can be created until it is renewed. <a href="/account/upgrade">Renew or upgrade</a>.';
    case 'partner_terms':
      return `Partner keys carry your contract's limits and scopes, which administrators set; to get a new key, contact ${contactLink(contact)}.`;
    case 'too_many_keys':
      return (
        `This account already has ${SELF_SERVICE_LIVE_KEYS} active keys, the most it can create ` +
        `itself. Revoke one you no longer use, or contact ${contactLink(contact)}.`
      );
  }
}

function scopeValue(values: string[] | null, all: string): string {
  if (values === null) return all;
  if (values.length === 0) return 'none';
  return values.map((v) => `<code>${h(v)}</code>`).join(', ');
}

function windowRow(w: WindowReport, keyId: string): string {
  return (
    `<tr><th scope="row">${h(WINDOW_LABEL[w.window])}</th><td>
<meter min="0" max="${w.limit}" value="${Math.min(w.used, w.limit)}" ` +
    `aria-label="${h(WINDOW_LABEL[w.window])} usage of ${h(keyId)}">${units(w.used)} of ` +
    `${units(w.limit)}</meter>
<span data-window="${w.window}" data-used="${w.used}">${units(w.used)} of ${units(w.limit)} units ` +
    `used</span>, ${units(w.remaining)} left; resets ` +
    `${h(when(w.resets_at))}${w.used === 0 ? ' (or 24 hours after the next call, if none is running)' : ''}
</td></tr>`
  );
}

function keySection(usage: KeyUsage, partner: boolean): string {
  const { key } = usage;
  const revoked = key.revokedAt !== null;
  const prefix = `${KEY_PREFIX}${key.keyId.slice('key_'.length)}…`;
  const scopeNote = partner ? ' <span class="lead">(set by your administrator; read-only)</span>' : '';
  const status = revoked ? `<strong>Revoked</strong> on ${h(when(key.revokedAt!))}; it is refused everywhere` : '<strong>Active</strong>';
  const usageRows = revoked ? '' : usage.windows.map((w) => windowRow(w, key.keyId)).join('');
  const revoke = revoked
    ? ''
    : `<p><a class="button secondary" href="/account/api-keys/${h(key.keyId)}/revoke">Revoke ${h(key.keyId)}…</a></p>`;
  return (
    `<section class="key${revoked ? ' revoked' : ''}" id="${h(key.keyId)}" ` +
    `data-key-id="${h(key.keyId)}" data-status="${revoked ? 'revoked' : 'active'}" ` +
    `aria-labelledby="${h(key.keyId)}-title">
<h2 id="${h(key.keyId)}-title"><code>${h(key.keyId)}</code></h2>
<table>
<tr><th scope="row">Key starts with</th><td><code>${h(prefix)}</code></td></tr>
<tr><th scope="row">Status</th><td>${status}</td></tr>
<tr><th scope="row">Created</th><td>${h(when(key.createdAt))}</td></tr>
<tr><th scope="row">Last used</th><td class="last-used">${usage.lastUsedAt ? h(when(usage.lastUsedAt)) : 'never'}</td></tr>
<tr><th scope="row">Markets${scopeNote}</th><td>${scopeValue(key.allowedMarkets, 'all markets')}</td></tr>
<tr><th scope="row">Endpoints${scopeNote}</th><td>` +
    `${scopeValue(key.allowedEndpoints, partner ? 'all endpoints except minting attestations' : 'all endpoints')}</td></tr>
<tr><th scope="row">Frameworks${scopeNote}</th><td>` +
    `${scopeValue(key.allowedFrameworks, 'the nine faith frameworks (the service consensus needs its own grant)')}</td></tr>
${usageRows}
</table>
${renderUsageChart(`chart-${key.keyId}`, usage.days)}
${revoke}
</section>`
  );
}

/** What the account's own pages spent (a portfolio screened while signed in): the account's allowance, with no key. */
function pagesSection(pages: AccountKeys['pages']): string {
  if (pages.lastUsedAt === null) return '';
  return (
    `<section class="key" id="account-pages" aria-labelledby="account-pages-title">
<h2 id="account-pages-title">Account pages</h2>
<p class="lead">Portfolios screened on <a href="/account/portfolio">the portfolio page</a> spend the account's ` +
    `allowance as the API would; no key is involved.</p>
<table><tr><th scope="row">Last used</th><td class="last-used">${h(when(pages.lastUsedAt))}</td></tr></table>
${renderUsageChart('chart-account-pages', pages.days)}
</section>`
  );
}

function createSection(model: KeysPageModel): string {
  const { account } = model.view;
  if (account.tier === 'free')
    return (
      `<section class="notice" id="free-tier"><h2>API access starts at Pro</h2><p>This account is ` +
      `on the free tier, which has no API access. <a href="/account/upgrade">See the plans and how to ` +
      `upgrade</a>.</p></section>`
    );
  if (account.lapsedAt !== null)
    return (
      `<section class="notice bad" id="lapsed"><h2>Subscription lapsed</h2><p>This account's ` +
      `subscription lapsed on ${h(account.lapsedAt.slice(0, 10))}; its keys are refused (403) until it is ` +
      `renewed. <a href="/account/upgrade">Renew or upgrade</a>.</p></section>`
    );
  if (account.tier === 'partner')
    return (
      `<section class="notice" id="partner-keys"><p>Partner keys carry your contract's limits and ` +
      `scopes, which administrators set. To get a new key or change a key's terms, contact ` +
      `${contactLink(model.contact)}. You can revoke a key here at any time.</p></section>`
    );
  return (
    `<form method="post" action="/account/api-keys" id="create-key">${csrfField(model.user.csrfToken)}
<button type="submit">Create a new key</button> <span class="lead">with the ${h(account.tier)} tier's ` +
    `limits and access to all markets and endpoints; the key is shown once.</span>
</form>`
  );
}

function createdSection(created: { key: string; keyId: string }): string {
  return `<section class="notice good" id="new-key" role="status" aria-labelledby="new-key-title">
<h2 id="new-key-title">Key <code>${h(created.keyId)}</code> created</h2>
<p><strong>Copy it now: it is shown only this once</strong> and cannot be recovered. Send it in the <code>X-API-Key</code> header.</p>
<div class="secret"><label for="new-key-value">Your new key</label>
<input id="new-key-value" type="text" readonly autofocus spellcheck="false" autocomplete="off" value="${h(created.key)}">
<button type="button" data-copy="new-key-value" hidden>Copy</button></div>
</section>`;
}

/** /account/api-keys. */
export function keysPage(model: KeysPageModel): AccountPage {
  const { account, keys } = model.view;
  const partner = account.tier === 'partner';
  const messages = [
    model.created ? createdSection(model.created) : '',
    model.revoked
      ? `<p class="notice good" role="status" id="revoked-notice">Key <code>${h(model.revoked)}</code> ` +
        `is revoked; requests with it are refused from now on.</p>`
      : '',
    model.refused ? `<p class="notice bad" role="alert" id="refused">${refusalText(model.refused, model.contact)}</p>` : '',
  ].join('');
  const list =
    keys.length === 0 ? '<p id="no-keys">This account has no keys yet.</p>' : keys.map((usage) => keySection(usage, partner)).join('\n');
  const body =
    `<h1>API keys</h1>
<p class="lead">Account <strong>${h(account.name)}</strong> · <span id="tier">${h(account.tier)}</span> tier</p>
${messages}
${createSection(model)}
<section aria-labelledby="rule-title"><h2 id="rule-title">When the counters reset</h2><p id="window-rule">${WINDOW_RULE}</p>
<p class="lead">Figures are in units (a single screen costs 1; see the API documentation for each ` +
    `endpoint's cost). Usage may show up to 50 units more for about a second while a running API holds them ` +
    `in reserve. The chart shows units spent per UTC day.</p></section>
<h2>Keys</h2>
${list}
${pagesSection(model.view.pages)}`;
  return { title: 'API keys', main: body, user: model.user, script: model.created ? COPY_KEY_SCRIPT : undefined };
}

/** The confirmation step before a key is revoked. */
export function revokePage(keyId: string, user: PageUser, webhooks = 0): AccountPage {
  const endWebhooks =
    webhooks === 0
      ? ''
      : `<p><label><input type="checkbox" name="end_webhooks" value="yes" checked> Also delete the ${webhooks} webhook ` +
        `subscription${webhooks === 1 ? '' : 's'} this key created (<a href="/account/webhooks">see them</a>). Kept, they deliver nothing ` +
        `while their key is revoked.</label></p>`;
  const body =
    `<h1>Revoke <code>${h(keyId)}</code>?</h1>
<p>Every program that uses this key is refused (401) from the moment you confirm. This cannot be undone: ` +
    `to go on using the API, create a new key and deploy it first.</p>
<form method="post" action="/account/api-keys/${h(keyId)}/revoke" id="confirm-revoke">${csrfField(user.csrfToken)}
${endWebhooks}
<button class="danger" type="submit">Yes, revoke ${h(keyId)}</button> <a href="/account/api-keys">Cancel</a>
</form>`;
  return { title: `Revoke ${keyId}`, main: body, user };
}

/** A key id that is not one of this account's keys (or does not exist: the two look the same). */
export function keyNotFoundPage(user: PageUser): AccountPage {
  return {
    title: 'Key not found',
    main: '<h1>Key not found</h1><p>This account has no key with that id. <a href="/account/api-keys">Back to your keys</a>.</p>',
    user,
  };
}
