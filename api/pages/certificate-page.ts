import { createHash } from 'node:crypto';
import escapeHtml from 'escape-html';
import { STATUS_MEANINGS } from '../../attest/status-meanings.ts';
import { FRAMEWORKS } from '../../engine/index.ts';
import { formatMoney } from '../../common/money.ts';
import type { VerificationResult } from '../use-cases/verify-attestation.ts';

/** The page's one stylesheet, inline (no external assets); the print rules make it a one-page A4 document. */
const STYLE = `
:root { color-scheme: light; font-family: Georgia, 'Times New Roman', serif; color: #1b1b1b; }
body { margin: 0; background: #f3f1ec; }
main { max-width: 46rem; margin: 2rem auto; background: #fff; padding: 2.5rem 3rem; border: 1px solid #d9d4c7; }
h1 { font-size: 1.6rem; margin: 0 0 .25rem; }
.issuer { color: #555; margin: 0 0 1.5rem; font-size: .95rem; }
.status { border: 2px solid; border-radius: 6px; padding: .9rem 1.1rem; margin: 0 0 1.5rem; }
.status h2 { margin: 0 0 .3rem; font-size: 1.2rem; }
.status p { margin: .2rem 0; }
.good { border-color: #1d6b35; background: #eef7f0; }
.caution { border-color: #8a6100; background: #fdf6e3; }
.bad { border-color: #a11d1d; background: #fbeeee; }
table { width: 100%; border-collapse: collapse; margin: 0 0 1.5rem; font-size: .95rem; }
th { text-align: left; width: 34%; color: #444; font-weight: normal; padding: .35rem .5rem .35rem 0; vertical-align: top; }
td { padding: .35rem 0; }
tr + tr th, tr + tr td { border-top: 1px solid #ece8de; }
.verdict { font-weight: bold; text-transform: uppercase; letter-spacing: .03em; }
code, .mono { font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; font-size: .8rem; word-break: break-all; }
.notice { border-left: 4px solid #8a6100; padding: .5rem .8rem; background: #fdf6e3; margin: 0 0 1.5rem; }
footer { color: #555; font-size: .85rem; }
.screen-only { margin-top: 1rem; }
@media print {
  @page { size: A4; margin: 16mm; }
  body { background: #fff; }
  main { margin: 0; padding: 0; border: none; max-width: none; }
  .screen-only { display: none; }
  .status, .notice { break-inside: avoid; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  a { color: inherit; text-decoration: none; }
}`;

/** Content-Security-Policy of the page: nothing may load, only this exact inline stylesheet applies. */
export const CERTIFICATE_PAGE_CSP =
  `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; ` +
  `base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

const h = (value: unknown) => escapeHtml(String(value));

function labelOf(standard: string): string {
  return FRAMEWORKS.find((f) => f.id === standard)?.label ?? standard;
}

function row(name: string, value: string): string {
  return `<tr><th scope="row">${h(name)}</th><td>${value}</td></tr>`;
}

/** An amount as a person reads it (currency code, sensible precision); the exact figure stays in `data-amount`. */
function amount(id: string, value: number | null, currency: string | null): string {
  if (value === null) return `<span id="${id}">not computable (an input was missing)</span>`;
  return `<span id="${id}" data-amount="${h(value)}" data-currency="${h(currency ?? '')}">${h(formatMoney(value, currency))}</span>`;
}

function document(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${h(title)}</title>
<style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

/** The certificate's public, print-friendly page with its live verification status. */
export function renderCertificatePage(result: VerificationResult, synthetic: boolean): string {
  const a = result.attestation;
  const meaning = STATUS_MEANINGS[result.status];
  const revocation = result.revoked ? `<p><strong>Revoked on ${h(result.revoked_at)}:</strong> ${h(result.revocation_note)}</p>` : '';
  const notice = synthetic
    ? `<p class="notice" id="synthetic-notice"><strong>Synthetic sample data.</strong> This certificate was minted from faithscreen's ` +
      `generated sample universe, not from any real company's filings. Do not use it for investment or religious decisions.</p>`
    : '';
  const body = `
<h1>Compliance attestation</h1>
<p class="issuer">Issued by faithscreen · certificate <span class="mono" id="cert-id">${h(a.cert_id)}</span></p>
<section class="status ${meaning.tone}" id="status" data-status="${h(result.status)}">
<h2>${h(meaning.headline)}</h2>
<p>${h(meaning.meaning)}</p>
<p>${h(meaning.action)}</p>
${revocation}
<p>Checked ${h(result.checked_at)} · signature ${result.sig_valid ? 'authentic' : 'not authenticated'} · screening ${h(result.snapshot_check)}</p>
</section>
${notice}
<table>
${row('Company', h(a.company_name))}
${row('Security', `${h(a.ticker)} · market ${h(a.market)}`)}
${row('Standard', `${h(labelOf(a.standard))} <span class="mono">(${h(a.standard)})</span>`)}
${row('Verdict', `<span class="verdict" id="verdict">${h(a.verdict.replace('_', ' '))}</span>`)}
${row('Score', a.score === null ? 'none (an exclusion screen, or too few decisive inputs to score)' : h(a.score))}
${row('Purification per share', amount('purification', a.purification_per_share, result.currency))}
${row('Verdict as of', h(a.as_of))}
${row('Screening', `${h(a.snapshot_ref.day)} (${h(a.snapshot_ref.source)})`)}
${row('Minted', h(a.minted_at))}
${row('Signing key', `<span class="mono">${h(a.key_id)}</span>`)}
${row('Signature (HMAC-SHA-256)', `<span class="mono">${h(a.sig)}</span>`)}
</table>
<footer>
<p>Verify this certificate at any time: <span class="mono">${h(a.verify_url)}</span>. The status above was computed when this page was served;
a printed copy shows the status on the date printed.</p>
<p class="screen-only">Print this page (Ctrl+P) for a one-page record.</p>
</footer>`;
  return document(`Attestation ${a.cert_id} — ${a.ticker} ${a.standard}`, body);
}

/** The page for an id with no certificate. */
export function renderUnknownCertificatePage(certId: string): string {
  return document(
    'Certificate not found',
    `<h1>Certificate not found</h1><p>No certificate has the id <span class="mono">${h(certId)}</span>. Check the address you were given.</p>`,
  );
}
