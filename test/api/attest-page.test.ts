import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CertificateStore } from '../../attest/certificate-store.ts';
import { serveAttestApi, type ServedAttestApi } from './support/attest-fixture.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON under test
type Json = Record<string, any>;

/** Debian's chromium (`npx faithscreen provision` installs it); CHROMIUM_PATH points elsewhere. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe('the public certificate page /attest/{cert_id} in a real headless Chromium', () => {
  let api: ServedAttestApi;
  let browser: Browser;
  let certificate: Json;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(
        `Chromium not found at ${CHROMIUM}: run npx faithscreen provision (it installs Debian's chromium) or set CHROMIUM_PATH`,
      );
    api = await serveAttestApi();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    const response = await fetch(`${api.url}/api/attest/us/${api.t.fresh[0]}?standard=shariah_aaoifi`, { method: 'POST' });
    certificate = (await response.json()) as Json;
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  it('when someone opens the page, then it shows the certificate and its live status, is never indexed and loads nothing else', async () => {
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    const response = await page.goto(`${api.url}/attest/${certificate.cert_id}`);

    expect(response!.status()).toBe(200);
    const headers = response!.headers();
    expect(headers['x-robots-tag']).toMatch(/noindex/);
    expect(headers['cache-control']).toBe('no-store');
    expect(headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(await page.getAttribute('meta[name="robots"]', 'content')).toMatch(/noindex/);
    expect(await page.getAttribute('#status', 'data-status')).toBe('valid');
    expect(await page.textContent('#status h2')).toBe('Valid');
    expect(await page.textContent('#cert-id')).toBe(certificate.cert_id);
    expect((await page.textContent('#verdict'))!.toLowerCase()).toBe(certificate.verdict.replace('_', ' '));
    expect(await page.textContent('body')).toContain(certificate.company_name);
    expect(await page.isVisible('#synthetic-notice')).toBe(true);
    // The amount reads with its currency code and a readable precision; the exact figure stays in data-amount.
    expect(await page.getAttribute('#purification', 'data-amount')).toBe(String(certificate.purification_per_share));
    expect((await page.textContent('#purification'))!.replaceAll('\u00a0', ' ')).toMatch(/^USD \d[\d,]*\.\d{2,}$/);
    // No external assets: the document is the only thing fetched, and nothing was blocked by the CSP.
    expect(requested.filter((url) => !url.endsWith('/favicon.ico'))).toEqual([`${api.url}/attest/${certificate.cert_id}`]);
    expect(violations).toEqual([]);
    expect(await page.$$eval('link[rel="stylesheet"], script, img, iframe', (nodes) => nodes.length)).toBe(0);
    await page.close();
  });

  it('when it is printed, then the print stylesheet applies and the PDF is one A4 page', async () => {
    const page = await browser.newPage();
    await page.goto(`${api.url}/attest/${certificate.cert_id}`);
    expect(await page.isVisible('.screen-only')).toBe(true);
    await page.emulateMedia({ media: 'print' });
    expect(await page.isVisible('.screen-only')).toBe(false);
    expect(await page.evaluate("getComputedStyle(document.querySelector('main')).borderTopStyle")).toBe('none');

    const pdf = await page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true });
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const pages = pdf.toString('latin1').match(/\/Type\s*\/Page(?!s)/g) ?? [];
    expect(pages).toHaveLength(1);
    await page.close();
  });

  it('when the certificate is revoked later, then a reload shows the revocation and its note (the status is live)', async () => {
    const page = await browser.newPage();
    const revoked = (await (
      await fetch(`${api.url}/api/attest/us/${api.t.fresh[1]}?standard=christian_bri`, { method: 'POST' })
    ).json()) as Json;
    await page.goto(`${api.url}/attest/${revoked.cert_id}`);
    expect(await page.getAttribute('#status', 'data-status')).toBe('valid');
    await new CertificateStore(api.db).revoke(revoked.cert_id, 'purification inputs were wrong in the source filing');
    await page.reload();
    expect(await page.getAttribute('#status', 'data-status')).toBe('revoked');
    expect(await page.textContent('#status')).toContain('purification inputs were wrong in the source filing');
    await page.close();
  });

  it('when the id is unknown, then an HTML 404 page, also never indexed', async () => {
    const page = await browser.newPage();
    const response = await page.goto(`${api.url}/attest/fsc_${'c'.repeat(40)}`);
    expect(response!.status()).toBe(404);
    expect(response!.headers()['x-robots-tag']).toMatch(/noindex/);
    expect(await page.textContent('h1')).toBe('Certificate not found');
    expect(await page.getAttribute('meta[name="robots"]', 'content')).toMatch(/noindex/);
    await page.close();
  });
});
