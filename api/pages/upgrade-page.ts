import type { AccountRecord } from '../../access/access-store.ts';
import { TIER_DAILY_LIMITS, TIERS, type Tier } from '../../access/tiers.ts';
import { h, type AccountPage, type PageUser } from './account-layout.ts';
import { contactLink } from './account-keys-page.ts';

/** What /account/upgrade shows; `account` only when someone is signed in. */
export interface UpgradePageModel {
  user: PageUser | undefined;
  account: AccountRecord | undefined;
  contact: string | undefined;
}

/** Each tier's terms as docs/access.md, "Tiers", states them; the daily figures come from access/tiers.ts. */
function tierTerms(tier: Tier): { access: string; daily: string; monthly: string; weights: string } {
  switch (tier) {
    case 'free':
      return { access: 'none: no keys', daily: '—', monthly: '—', weights: '—' };
    case 'partner':
      return { access: 'yes', daily: 'per contract', monthly: 'optional, per contract', weights: 'optional, per contract' };
    default:
      return { access: 'yes', daily: TIER_DAILY_LIMITS[tier].toLocaleString('en-US'), monthly: '—', weights: 'defaults' };
  }
}

function tierRow(tier: Tier, current: Tier | undefined): string {
  const terms = tierTerms(tier);
  const mark = tier === current ? ' <strong class="current">(your plan)</strong>' : '';
  return (
    `<tr data-tier="${tier}"${tier === current ? ' aria-current="true"' : ''}><th ` +
    `scope="row">${h(tier)}${mark}</th><td>${h(terms.access)}</td><td ` +
    `class="num">${h(terms.daily)}</td><td>${h(terms.monthly)}</td><td>${h(terms.weights)}</td></tr>`
  );
}

function currentPlan(account: AccountRecord | undefined): string {
  if (!account) return '<p id="current-plan"><a href="/account/sign-in">Sign in</a> to see which plan your account is on.</p>';
  const lapsed =
    account.lapsedAt === null
      ? ''
      : ` Its subscription <strong>lapsed on ${h(account.lapsedAt.slice(0, 10))}</strong>: its keys are refused until it is renewed.`;
  const access = account.tier === 'free' ? ' Free accounts have no API access: API keys start at the Pro tier.' : '';
  return `<p id="current-plan">Account <strong>${h(account.name)}</strong> is on the <strong id="tier">${h(account.tier)}</strong> tier.${access}${lapsed}</p>`;
}

/** /account/upgrade: the tiers and their limits, the account's plan now, and how to change it. */
export function upgradePage(model: UpgradePageModel): AccountPage {
  const body =
    `<h1>Plans and upgrade</h1>
${currentPlan(model.account)}
<h2>Tiers</h2>
<table id="tiers">
<thead><tr><th scope="col">Tier</th><th scope="col">API access</th><th scope="col" class="num">Daily ` +
    `units (rolling 24 h)</th><th scope="col">Monthly units (rolling 30 days)</th><th scope="col">Cost ` +
    `weights</th></tr></thead>
<tbody>${TIERS.map((tier) => tierRow(tier, model.account?.tier)).join('')}</tbody>
</table>
<p class="lead">Limits are per key. The daily counter resets 24 hours after the first call of the day. A ` +
    `single screen costs 1 unit; the API documentation lists every endpoint's cost.</p>
<h2>How to upgrade</h2>
<p id="how-to-upgrade">Plans are changed by the operator of this service: contact ` +
    `${contactLink(model.contact)}, naming your ` +
    `account${model.account ? ` (<strong>${h(model.account.name)}</strong>)` : ''} and the tier you want.</p>`;
  return { title: 'Plans and upgrade', main: body, user: model.user };
}
