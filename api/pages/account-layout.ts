import { createHash } from 'node:crypto';
import escapeHtml from 'escape-html';

/** Escapes a value for HTML text and attributes. */
export const h = (value: unknown): string => escapeHtml(String(value));

/**
 * The account pages' one stylesheet, inline (no external assets), in the certificate page's
 * look; readable on a phone (one column under 40rem), visible focus, text contrast ≥ 4.5:1.
 */
const STYLE = `
:root { color-scheme: light; font-family: Georgia, 'Times New Roman', serif; color: #1b1b1b; }
body { margin: 0; background: #f3f1ec; }
header.site { max-width: 52rem; margin: 1rem auto 0; padding: 0 1rem; display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; align-items: center; }
header.site .brand { font-weight: bold; margin-right: auto; }
header.site a { color: #1d4f91; }
main { max-width: 52rem; margin: 1rem auto 2rem; background: #fff; padding: 2rem 2.5rem; border: 1px solid #d9d4c7; box-sizing: border-box; }
h1 { font-size: 1.6rem; margin: 0 0 .5rem; }
h2 { font-size: 1.2rem; margin: 0 0 .5rem; }
a { color: #1d4f91; }
a:focus-visible, button:focus-visible, input:focus-visible, summary:focus-visible { outline: 3px solid #1d4f91; outline-offset: 2px; }
.lead { color: #444; margin: 0 0 1.5rem; }
.notice { border-left: 4px solid #8a6100; padding: .6rem .9rem; background: #fdf6e3; margin: 0 0 1.5rem; }
.good { border-left-color: #1d6b35; background: #eef7f0; }
.bad { border-left-color: #a11d1d; background: #fbeeee; }
.key { border: 1px solid #d9d4c7; border-radius: 6px; padding: 1rem 1.25rem; margin: 0 0 1.25rem; }
.key.revoked { background: #f7f6f2; }
table { width: 100%; border-collapse: collapse; margin: 0 0 1rem; font-size: .95rem; }
th { text-align: left; color: #444; font-weight: normal; padding: .35rem .5rem .35rem 0; vertical-align: top; }
td { padding: .35rem .5rem .35rem 0; vertical-align: top; }
tr + tr th, tr + tr td { border-top: 1px solid #ece8de; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
code, .mono { font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; font-size: .85rem; word-break: break-all; }
button, .button { font: inherit; font-size: 1rem; padding: .5rem 1rem; border-radius: 4px; border: 1px solid #1d4f91; background: #1d4f91; color: #fff; cursor: pointer; text-decoration: none; display: inline-block; }
button.secondary, .button.secondary { background: #fff; color: #1d4f91; }
button.danger { background: #a11d1d; border-color: #a11d1d; }
form.inline { display: inline; }
.secret { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: .5rem 0; }
.secret input { flex: 1 1 20rem; min-width: 0; font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; font-size: .9rem; padding: .5rem; border: 1px solid #8c8778; }
meter { width: 10rem; height: 1rem; vertical-align: middle; }
.usage-chart { margin: .5rem 0 0; }
.usage-chart svg { display: block; max-width: 100%; height: 3.2rem; }
.usage-chart rect { fill: #1d4f91; }
.usage-chart .axis { stroke: #8c8778; stroke-width: 1; }
.usage-chart figcaption { font-size: .85rem; color: #444; margin: .3rem 0; }
.usage-chart table.days { width: auto; font-size: .85rem; }
footer { color: #555; font-size: .85rem; margin-top: 2rem; }
@media (max-width: 40rem) {
  main { padding: 1.25rem 1rem; border-left: none; border-right: none; }
  th, td { display: block; padding: .2rem 0; }
  tr + tr th, tr + tr td { border-top: none; }
  tr + tr th { border-top: 1px solid #ece8de; padding-top: .5rem; }
  .usage-chart table.days th, .usage-chart table.days td { display: table-cell; }
}`;

/**
 * The copy button of a new key's secret: progressive enhancement. Without script the button
 * stays hidden and the secret sits selected in a read-only field; with it, one click copies.
 */
const COPY_SCRIPT = `
for (const button of document.querySelectorAll('button[data-copy]')) {
  const field = document.getElementById(button.dataset.copy);
  button.hidden = false;
  button.addEventListener('click', async () => {
    try { await navigator.clipboard.writeText(field.value); button.textContent = 'Copied'; }
    catch { field.select(); button.textContent = 'Press Ctrl+C to copy'; }
  });
}`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * Content-Security-Policy of the account pages: nothing loads; only this stylesheet and the
 * copy script run; forms post only to this origin.
 */
export const ACCOUNT_PAGE_CSP = `default-src 'none'; style-src ${sha256(STYLE)}; script-src ${sha256(COPY_SCRIPT)}; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`;

/** The form field that carries the session's CSRF token. */
export const CSRF_FIELD = '_csrf';

/** Who is signed in, when someone is: the header names them and offers sign-out. */
export interface SignedIn {
  email: string;
  account: string;
  csrfToken: string;
}

export const csrfInput = (token: string): string => `<input type="hidden" name="${CSRF_FIELD}" value="${h(token)}">`;

/** A whole account page: header with navigation, the body in <main>, the inline stylesheet (and the copy script when asked). */
export function accountDocument(
  title: string,
  body: string,
  signedIn: SignedIn | undefined,
  options: { copyScript?: boolean } = {},
): string {
  const nav = signedIn
    ? `<nav aria-label="Account"><a href="/account/api-keys">API keys</a> · <a href="/account/upgrade">Plans and upgrade</a></nav>
<span>${h(signedIn.email)} · account <strong>${h(signedIn.account)}</strong></span>
<form class="inline" method="post" action="/account/sign-out">${csrfInput(signedIn.csrfToken)}<button class="secondary" type="submit">Sign out</button></form>`
    : `<nav aria-label="Account"><a href="/account/sign-in">Sign in</a> · <a href="/account/upgrade">Plans and upgrade</a></nav>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${h(title)} — faithscreen</title>
<style>${STYLE}</style></head>
<body><header class="site"><span class="brand">faithscreen</span>${nav}</header>
<main>${body}</main>${options.copyScript ? `<script>${COPY_SCRIPT}</script>` : ''}</body></html>`;
}

/** An instant as people read it: `2026-11-21 10:00 UTC`. */
export function when(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
