import { createHash } from 'node:crypto';
import escapeHtml from 'escape-html';
import type { Context } from 'koa';
import { ACCOUNT_KEYS_STYLE } from './account-keys-style.ts';

/**
 * The shared frame of every /account page (docs/access.md, "Account pages"): the certificate
 * page's look (api/pages/certificate-page.ts), readable on a phone, one inline stylesheet and
 * no external assets. Pages work without JavaScript; a page may add one small inline script
 * (enhancement only), which the Content-Security-Policy then allows by its hash.
 */
export const ACCOUNT_PAGE_STYLE =
  `
:root { color-scheme: light; font-family: Georgia, 'Times New Roman', serif; color: #1b1b1b; line-height: 1.45; }
body { margin: 0; background: #f3f1ec; }
header.site { max-width: 46rem; margin: 1.5rem auto 0; padding: 0 1rem; display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; align-items: baseline; }
header.site .brand { font-weight: bold; font-size: 1.1rem; color: #1b1b1b; text-decoration: none; }
header.site nav { display: flex; flex-wrap: wrap; gap: .25rem 1rem; align-items: baseline; }
header.site form { display: inline; margin: 0; }
main { max-width: 46rem; margin: 1rem auto 2rem; background: #fff; padding: 2rem 2.5rem; border: 1px solid #d9d4c7; box-sizing: border-box; }
h1 { font-size: 1.6rem; margin: 0 0 1rem; }
h2 { font-size: 1.2rem; margin: 1.5rem 0 .5rem; }
a { color: #1d4f91; }
p { margin: .5rem 0; }
.who { color: #444; margin: 0 0 1.25rem; }
form.stacked { display: grid; gap: 1rem; max-width: 26rem; }
label { display: block; font-weight: bold; margin-bottom: .25rem; }
.hint { display: block; font-weight: normal; color: #555; font-size: .9rem; }
input[type=email], input[type=password], input[type=text] { box-sizing: border-box; width: 100%; font: ` +
  `inherit; font-size: 1rem; padding: .55rem .6rem; border: 1px solid #6b6b6b; border-radius: 4px; ` +
  `background: #fff; color: #1b1b1b; }
button { font: inherit; font-size: 1rem; padding: .55rem 1.1rem; border-radius: 4px; border: 1px solid ` +
  `#1d4f91; background: #1d4f91; color: #fff; cursor: pointer; }
button.link { background: none; border: none; padding: 0; color: #1d4f91; text-decoration: underline; font-size: inherit; }
:focus-visible { outline: 3px solid #b35c00; outline-offset: 2px; }
.message { border: 2px solid; border-radius: 6px; padding: .75rem 1rem; margin: 0 0 1.25rem; }
.error { border-color: #a11d1d; background: #fbeeee; }
.info { border-color: #1d6b35; background: #eef7f0; }
table { width: 100%; border-collapse: collapse; margin: 0 0 1.5rem; font-size: .95rem; }
th { text-align: left; color: #444; font-weight: normal; padding: .35rem .5rem .35rem 0; vertical-align: top; }
td { padding: .35rem .5rem .35rem 0; vertical-align: top; }
tr + tr th, tr + tr td { border-top: 1px solid #ece8de; }
code, .mono { font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; font-size: .85rem; word-break: break-all; }
footer { color: #555; font-size: .85rem; max-width: 46rem; margin: 0 auto 2rem; padding: 0 1rem; }
@media (max-width: 40rem) {
  header.site { margin-top: 1rem; }
  main { margin: .75rem 0 1.5rem; padding: 1.25rem 1rem; border-left: none; border-right: none; }
}${ACCOUNT_KEYS_STYLE}`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** Nothing loads from anywhere; only this stylesheet (and the page's own script, if any) applies; forms post only here. */
export function accountPageCsp(script?: string): string {
  const scriptSrc = script === undefined ? '' : ` script-src ${sha256(script)};`;
  return (
    `default-src 'none'; style-src ${sha256(ACCOUNT_PAGE_STYLE)};${scriptSrc} img-src 'self' data:; ` +
    `base-uri 'none'; form-action 'self'; frame-ancestors 'none'`
  );
}

export const h = (value: unknown): string => escapeHtml(String(value));

/** The signed-in user a page shows in its header; absent on the sign-in and set-password pages. */
export interface PageUser {
  accountId: string;
  email: string;
  csrfToken: string;
}

export interface AccountPage {
  title: string;
  /** The page's content inside <main>, already escaped. */
  main: string;
  user?: PageUser | undefined;
  /** Inline JavaScript that only enhances a page that works without it. */
  script?: string | undefined;
}

/** The hidden field every account form carries (api/account/csrf.ts checks it). */
export function csrfField(token: string): string {
  return `<input type="hidden" name="_csrf" value="${h(token)}">`;
}

/** A message box; errors are announced to screen readers at once. */
export function messageBox(kind: 'error' | 'info', text: string, id = kind === 'error' ? 'form-error' : 'form-info'): string {
  const role = kind === 'error' ? ' role="alert"' : ' role="status"';
  return `<div class="message ${kind}" id="${h(id)}"${role}><p>${h(text)}</p></div>`;
}

function siteHeader(user: PageUser | undefined): string {
  if (!user) return `<header class="site"><a class="brand" href="/account">faithscreen</a></header>`;
  return (
    `<header class="site"><a class="brand" href="/account">faithscreen</a>
<nav aria-label="Account"><a href="/account">Account</a><a href="/account/api-keys">API keys</a><a href="/account/webhooks">Webhooks</a><a ` +
    `href="/account/screens">Screens</a><a href="/account/portfolio">Portfolio</a><a ` +
    `href="/account/upgrade">Upgrade</a><a href="/account/password">Password</a>
<form method="post" action="/account/sign-out">${csrfField(user.csrfToken)}<button type="submit" ` +
    `class="link" id="sign-out">Sign out</button></form></nav></header>`
  );
}

export function renderAccountPage(page: AccountPage): string {
  const script = page.script === undefined ? '' : `<script>${page.script}</script>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${h(page.title)} — faithscreen</title>
<style>${ACCOUNT_PAGE_STYLE}</style></head>
<body>${siteHeader(page.user)}
<main>${page.main}</main>
<footer><p>faithscreen account pages. Questions about your account: ask your faithscreen operator.</p></footer>${script}</body></html>`;
}

/** Sends a page with the headers every account page carries: never cached, never framed, never indexed, no referrer. */
export function sendAccountPage(ctx: Context, page: AccountPage, status = 200): void {
  ctx.status = status;
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Content-Security-Policy', accountPageCsp(page.script));
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('X-Robots-Tag', 'noindex, nofollow');
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = renderAccountPage(page);
}
