import { describe, expect, it } from 'vitest';
import { VERIFICATION_STATUSES } from '../../attest/verification-status.ts';
import { CERTIFICATE_PAGE_CSP, renderCertificatePage } from '../../api/pages/certificate-page.ts';
import type { VerificationResult } from '../../api/use-cases/verify-attestation.ts';

const RESULT: VerificationResult = {
  cert_id: `fsc_${'3'.repeat(40)}`,
  status: 'valid',
  valid: true,
  sig_valid: true,
  snapshot_check: 'match',
  revoked: false,
  revoked_at: null,
  revocation_note: null,
  checked_at: '2026-11-21T10:00:00.000Z',
  currency: 'USD',
  attestation: {
    cert_id: `fsc_${'3'.repeat(40)}`,
    payload_version: 1,
    ticker: 'ACME',
    market: 'us',
    standard: 'shariah_ftse',
    verdict: 'non_compliant',
    score: 12,
    purification_per_share: null,
    as_of: '2026-11-21T02:00:00.000Z',
    minted_at: '2026-11-21T09:00:00.000Z',
    snapshot_ref: { source: 'nightly', day: '2026-11-21' },
    key_id: 'sk_20261121_0a1b2c3d',
    sig: 'a'.repeat(64),
    company_name: 'Evil <script>alert(1)</script> & Co',
    issuer_type: 'api_key',
    verify_url: 'https://x.test/api/attest/verify/fsc_3',
    cert_url: 'https://x.test/attest/fsc_3',
  },
};

describe('renderCertificatePage', () => {
  it('when a value holds markup, then it is escaped, never executed', () => {
    const html = renderCertificatePage(RESULT, false);
    expect(html).toContain('Evil &lt;script&gt;alert(1)&lt;/script&gt; &amp; Co');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('synthetic-notice');
  });

  it.each(VERIFICATION_STATUSES)('when the status is %s, then the page names it and says what to do', (status) => {
    const html = renderCertificatePage({ ...RESULT, status }, true);
    expect(html).toContain(`data-status="${status}"`);
    expect(html).toContain('noindex');
  });

  it('when revoked, then the page shows the date and the note', () => {
    const html = renderCertificatePage(
      { ...RESULT, status: 'revoked', valid: false, revoked: true, revoked_at: '2026-11-22T08:00:00.000Z', revocation_note: 'bad data' },
      true,
    );
    expect(html).toContain('Revoked on 2026-11-22T08:00:00.000Z:</strong> bad data');
  });

  it('when the certificate states an amount, then the page shows it with its currency code and a readable precision, the exact figure kept', () => {
    const html = renderCertificatePage(
      { ...RESULT, attestation: { ...RESULT.attestation, purification_per_share: 0.07124257966959159 } },
      true,
    ).replaceAll('\u00a0', ' ');
    expect(html).toContain('<span id="purification" data-amount="0.07124257966959159" data-currency="USD">USD 0.0712</span>');
    expect(html).not.toContain('listing currency');
    const yen = renderCertificatePage(
      { ...RESULT, currency: 'JPY', attestation: { ...RESULT.attestation, purification_per_share: 12.5 } },
      true,
    ).replaceAll('\u00a0', ' ');
    expect(yen).toContain('>JPY 13</span>');
  });

  it('when the amount could not be computed or its currency is unknown, then the page says so instead of guessing', () => {
    expect(renderCertificatePage(RESULT, true)).toContain('<span id="purification">not computable (an input was missing)</span>');
    const unknown = renderCertificatePage(
      { ...RESULT, currency: null, attestation: { ...RESULT.attestation, purification_per_share: 0.5 } },
      true,
    );
    expect(unknown).toContain('>0.5 (currency unknown)</span>');
  });

  it('when served, then the CSP allows only the inline stylesheet by its hash', () => {
    expect(CERTIFICATE_PAGE_CSP).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'/);
  });
});
