import { baseThresholds } from '../../engine/custom-screen/base-thresholds.ts';
import { CUSTOM_SCREEN_BASES, type CustomScreenDefinition } from '../../engine/custom-screen/custom-screen-types.ts';
import { formatPercent } from '../../engine/format.ts';
import type { CustomScreenRecord, CustomScreenVersionRecord } from '../../service-state/custom-screen-store.ts';
import { csrfField, h, messageBox, type AccountPage, type PageUser } from './account-layout.ts';

/** What /account/screens shows. */
export interface ScreensPageModel {
  screens: CustomScreenRecord[];
  user: PageUser;
  /** Today (`YYYY-MM-DD`, UTC): which version is in force. */
  today: string;
  limit: number;
  /** A screen just created or deleted (its slug), checked against the account's screens, never echoed. */
  created?: string;
  deleted?: string;
  /** Why the create form was refused (the API's own detail), with what was typed. */
  error?: { detail: string; form: Record<string, string> };
}

const codes = (items: readonly string[]) => (items.length === 0 ? 'none' : items.map((i) => `<code>${h(i)}</code>`).join(', '));

/** A version's stricter limits as percentages, each beside the base's own limit on the version's effective date. */
function limitsOf(d: CustomScreenDefinition, effectiveFrom: string): string[] {
  const base = baseThresholds(d.base, effectiveFrom);
  return Object.entries(d.thresholds).map(([metric, limit]) => {
    const own = base.get(metric);
    return `${metric} ≤ ${formatPercent(limit)}${own ? ` (base: ${formatPercent(own.threshold)})` : ''}`;
  });
}

/** Which version is in force today: the newest effective on or before it; later ones are scheduled, earlier ones superseded. */
function stateOf(v: CustomScreenVersionRecord, inForce: number | null): string {
  if (v.version === inForce) return 'in force';
  return inForce === null || v.version > inForce ? 'scheduled' : 'superseded';
}

/** Every version of a screen, oldest first, with its effective date, state and rules. */
function versionsTable(screen: CustomScreenRecord, today: string): string {
  const inForce = screen.versions.filter((v) => v.effectiveFrom <= today).at(-1)?.version ?? null;
  const rows = screen.versions.map((v) => {
    const d = v.definition;
    const excluded = [
      `${d.activities.length} activities`,
      `${d.excludedTickers.length} tickers excluded`,
      `${d.allowedTickers.length} allowed`,
    ];
    return `<tr data-version="${v.version}"><td>${v.version}</td><td>${h(v.effectiveFrom)}</td><td>${stateOf(v, inForce)}</td>
<td><code>${h(d.base)}</code></td><td>${codes(limitsOf(d, v.effectiveFrom))}</td><td>${h(excluded.join(', '))}</td></tr>`;
  });
  return `<table class="versions" id="screen-${h(screen.slug)}-versions">
<caption>Versions (a verdict names the one it was computed under)</caption>
<thead><tr><th scope="col">Version</th><th scope="col">Effective from</th><th scope="col">Today</th><th scope="col">Base</th>
<th scope="col">Stricter limits</th><th scope="col">Exclusions</th></tr></thead>
<tbody>${rows.join('\n')}</tbody>
</table>`;
}

function screenSection(screen: CustomScreenRecord, csrfToken: string, today: string): string {
  const current = screen.versions.at(-1)!;
  const d = current.definition;
  const id = `screen-${screen.slug}`;
  const activities = d.activities.map((a) => `${a.activity} (at most ${Number((a.maxRevenueShare * 100).toPrecision(6))}%)`);
  const thresholds = limitsOf(d, current.effectiveFrom);
  return `<section class="key" id="${h(id)}" data-slug="${h(screen.slug)}" aria-labelledby="${h(id)}-title">
<h2 id="${h(id)}-title"><code>custom:${h(screen.slug)}</code></h2>
<table>
<tr><th scope="row">Base</th><td><code>${h(d.base)}</code></td></tr>
<tr><th scope="row">Version</th><td>${current.version}, effective from ${h(current.effectiveFrom)}</td></tr>
<tr><th scope="row">Excluded activities</th><td>${codes(activities)}</td></tr>
<tr><th scope="row">Excluded tickers</th><td>${codes(d.excludedTickers)}</td></tr>
<tr><th scope="row">Allowed tickers</th><td>${codes(d.allowedTickers)}</td></tr>
<tr><th scope="row">Stricter limits</th><td>${codes(thresholds)}</td></tr>
${d.description ? `<tr><th scope="row">Description</th><td>${h(d.description)}</td></tr>` : ''}
</table>
${versionsTable(screen, today)}
<form method="post" action="/account/screens/${h(screen.slug)}/delete">${csrfField(csrfToken)}
<button class="danger" type="submit">Delete custom:${h(screen.slug)}</button></form>
</section>`;
}

function createForm(model: ScreensPageModel): string {
  const typed = model.error?.form ?? {};
  const value = (name: string) => h(typed[name] ?? '');
  const options = CUSTOM_SCREEN_BASES.map((b) => `<option value="${b}"${typed.base === b ? ' selected' : ''}>${b}</option>`).join('');
  return `<h2 id="create-title">Create a screen</h2>
${model.error ? messageBox('error', model.error.detail) : ''}
<form class="stacked" method="post" action="/account/screens" id="create-screen" aria-labelledby="create-title">${csrfField(model.user.csrfToken)}
<div><label for="slug">Name <span class="hint">2 to 40 lower-case letters, digits or hyphens; asked for as framework=custom:name</span></label>
<input type="text" id="slug" name="slug" required value="${value('slug')}"></div>
<div><label for="base">Base framework</label><select id="base" name="base">${options}</select></div>
<div><label for="activities">Excluded activities <span class="hint">comma-separated codes, excluded at any revenue 
(e.g. coffee, media_entertainment)</span></label>
<input type="text" id="activities" name="activities" value="${value('activities')}"></div>
<div><label for="tickers">Excluded tickers <span class="hint">comma-separated market/TICKER (e.g. us/XOM)</span></label>
<input type="text" id="tickers" name="tickers" value="${value('tickers')}"></div>
<p class="hint">Revenue limits, involvements, allowed tickers and stricter thresholds: through <code>/api/screens</code>.</p>
<div><button type="submit">Create screen</button></div>
</form>`;
}

/**
 * /account/screens: the account's custom screens (the latest version's rules, then every version with its effective
 * date and whether it is in force today), a create form and a delete button per screen.
 */
export function screensPage(model: ScreensPageModel): AccountPage {
  const notice = model.created
    ? `<p class="notice good" role="status" id="created-notice">Screen <code>custom:${h(model.created)}</code> is created.</p>`
    : model.deleted
      ? `<p class="notice good" role="status" id="deleted-notice">Screen <code>custom:${h(model.deleted)}</code> is deleted.</p>`
      : '';
  const list =
    model.screens.length === 0
      ? '<p id="no-screens">This account has no custom screens yet.</p>'
      : model.screens.map((s) => screenSection(s, model.user.csrfToken, model.today)).join('\n');
  const main =
    `<h1>Custom screens</h1>
<p class="lead">Screens of account <strong>${h(model.user.accountId)}</strong>: a base framework plus your own exclusions, ` +
    `${model.screens.length} of at most ${model.limit}. Every change through the API is a new version.</p>
${notice}
${list}
${createForm(model)}`;
  return { title: 'Custom screens', main, user: model.user };
}

/** A slug that is not one of this account's screens (or does not exist: the two look the same). */
export function screenNotFoundPage(user: PageUser): AccountPage {
  return {
    title: 'Screen not found',
    main: '<h1>Screen not found</h1><p>This account has no custom screen of that name. <a href="/account/screens">Back to your screens</a>.</p>',
    user,
  };
}
