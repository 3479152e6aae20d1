import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { chromium, type Browser as Chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountUserStore } from '../../access/account-user-store.ts';
import { AccountAuth } from '../../access/account-users.ts';
import { createAccount } from '../../access/administration.ts';
import type { AccessSetup } from '../../access/open-access.ts';
import { signInKeyFrom } from '../../access/sign-in-limits.ts';
import { csrfKeyFrom } from '../../api/account/csrf.ts';
import { UNSCOPED_KEY_FRAMEWORKS } from '../../common/grants.ts';
import { keyFor, openTestAccess } from '../support/access.ts';
import { freePort } from '../support/http.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { Browser } from './support/account-server.ts';
import { buildLake, createTestApi, type FixtureTickers, type TestApi } from './support/lake-fixture.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response JSON under test
type Json = Record<string, any>;

/** Debian's chromium (`npx faithscreen provision` installs it); CHROMIUM_PATH points elsewhere. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PASSWORD = 'correct horse battery staple';

describe('/account/portfolio in real Chromium over the real API', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let access: AccessSetup;
  let auth: AccountAuth;
  let api: TestApi;
  let server: Server;
  let url: string;
  let t: FixtureTickers;
  let browser: Chromium;
  let users = 0;

  /** A new user of `acme`, signed in through the pages, as a fetch-based browser. */
  async function signedInClient(): Promise<Browser> {
    const email = `user${++users}@acme.test`;
    const invitation = await auth.invite('acme', email);
    const set = await auth.setPasswordWithInvite(invitation.token, PASSWORD);
    if (!set.ok) throw new Error(set.message);
    const client = new Browser(url);
    const form = await (await client.get('/account/sign-in')).text();
    const answer = await client.post('/account/sign-in', { _csrf: Browser.csrfOf(form), next: '/account', email, password: PASSWORD });
    if (answer.status !== 303) throw new Error(`sign-in answered ${answer.status}`);
    return client;
  }

  /** A Chromium context of a new signed-in user of `acme`, at phone width. */
  async function signedIn(options: { javaScriptEnabled?: boolean } = {}): Promise<BrowserContext> {
    const client = await signedInClient();
    const cookie = [...client.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
    return browser.newContext({ viewport: { width: 390, height: 844 }, extraHTTPHeaders: { cookie }, ...options });
  }

  /** `POST /api/portfolio` of the same CSV with a key: what the page must show. */
  async function apiAnswer(csv: string): Promise<Json> {
    const { key } = await keyFor(access, 'pro');
    const response = await fetch(`${url}/api/portfolio`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv', 'X-API-Key': key },
      body: csv,
    });
    expect(response.status).toBe(200);
    return (await response.json()) as Json;
  }

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(
        `Chromium not found at ${CHROMIUM}: run npx faithscreen provision (it installs Debian's chromium) or set CHROMIUM_PATH`,
      );
    temp = await makeTempDir('faithscreen-portfolio-page-');
    t = await buildLake(temp.dir);
    access = await openTestAccess(temp.dir);
    auth = new AccountAuth({
      store: new AccountUserStore(access.store.db),
      accessStore: access.store,
      signInKey: signInKeyFrom(access.hashSecret),
    });
    await auth.prepare();
    await createAccount(access.store, 'acme', 'pro');
    api = await createTestApi(temp.dir, undefined, access.middleware, {
      account: { auth, csrfKey: csrfKeyFrom(access.hashSecret), trustProxy: false },
      accountPages: { store: access.store, hashSecret: access.hashSecret, contact: 'sales@faithscreen.test', meter: access.meter },
    });
    const port = await freePort();
    server = api.app.listen(port, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await api?.reads.close();
    await api?.forensic.close();
    await api?.purification.close();
    await access?.close();
    await temp?.cleanup();
  });

  it('when a signed-in user pastes a broker CSV, then the page shows per framework the split the API answers, as bars, the failing companies and each holding', async () => {
    const [a, b] = t.fresh as [string, string];
    const csv = `Symbol,Description,Market Value\n${a},"ONE, INC","$3,000.00"\n${b},TWO,1000\n${t.fund.ticker},FUND,4000\n`;
    const expected = await apiAnswer(csv);
    const context = await signedIn();
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.goto(`${url}/account/portfolio`);
    expect(await page.isVisible('#file-row')).toBe(true); // the script revealed the file chooser
    await page.fill('#csv', csv);
    await page.click('#portfolio-form button[type="submit"]');
    await page.waitForSelector('#result');
    for (const id of UNSCOPED_KEY_FRAMEWORKS) {
      for (const status of ['compliant', 'non_compliant', 'questionable', 'unknown']) {
        const share = await page.getAttribute(`#portfolio-chart tr[data-framework="${id}"] rect[data-status="${status}"]`, 'data-share');
        expect(Number(share), `${id} ${status}`).toBe(expected.frameworks[id][status]);
      }
    }
    const aaoifi = expected.frameworks.shariah_aaoifi;
    expect(aaoifi.failing_count).toBeGreaterThan(0); // the fund holds companies that fail AAOIFI's debt limit
    expect(await page.textContent('details.failing[data-framework="shariah_aaoifi"] summary')).toContain(
      `${aaoifi.failing_count} not compliant`,
    );
    expect(await page.locator('#holdings tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-ticker')))).toEqual([
      a,
      b,
      t.fund.ticker,
    ]);
    expect(await page.textContent(`#holdings tr[data-ticker="${t.fund.ticker}"]`)).toContain('50.0%fund, looked through');
    expect(await page.textContent('#coverage')).toContain('1 fund(s), 50.0% of the portfolio');
    const bar = (await page.locator('#portfolio-chart tr[data-framework="shariah_aaoifi"] svg').boundingBox())!;
    expect(bar.width).toBeGreaterThan(100); // drawn, and on screen at phone width
    expect(bar.x + bar.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    expect(await page.inputValue('#csv')).toBe(csv); // the pasted text stays for another try
    expect(violations).toEqual([]);
    await context.close();
  });

  it('when a CSV file is chosen, then the script puts it in the form and the result follows; without JavaScript the file chooser stays hidden and pasting works', async () => {
    const csv = `Ticker,Weight\n${t.fresh[2]},60%\n${t.fresh[3]},40%\n`;
    const context = await signedIn();
    const page = await context.newPage();
    await page.goto(`${url}/account/portfolio`);
    await page.setInputFiles('#csv-file', { name: 'positions.csv', mimeType: 'text/csv', buffer: Buffer.from(`\uFEFF${csv}`) });
    await page.waitForFunction("document.getElementById('csv').value.includes('Ticker')");
    await page.click('#portfolio-form button[type="submit"]');
    await page.waitForSelector('#result');
    expect(await page.textContent(`#holdings tr[data-ticker="${t.fresh[2]}"]`)).toContain('60.0%');
    await context.close();

    const plain = await signedIn({ javaScriptEnabled: false });
    const noScript = await plain.newPage();
    await noScript.goto(`${url}/account/portfolio`);
    expect(await noScript.isVisible('#file-row')).toBe(false);
    await noScript.fill('#csv', csv);
    await noScript.click('#portfolio-form button[type="submit"]');
    await noScript.waitForSelector('#result');
    expect(await noScript.textContent(`#holdings tr[data-ticker="${t.fresh[3]}"]`)).toContain('40.0%');
    await plain.close();
  });

  it('when the CSV names unknown tickers, then the page answers 404 naming each of them above the form, which keeps the text', async () => {
    const csv = `Symbol,Quantity\nNOPE1,3\n${t.fresh[0]},1\nNOPE2,4\n`;
    const context = await signedIn();
    const page = await context.newPage();
    await page.goto(`${url}/account/portfolio`);
    await page.fill('#csv', csv);
    const [response] = await Promise.all([
      page.waitForResponse(`${url}/account/portfolio`),
      page.click('#portfolio-form button[type="submit"]'),
    ]);
    expect(response.status()).toBe(404);
    expect(await page.textContent('#form-error')).toContain('2 ticker(s) not listed: us:NOPE1, us:NOPE2');
    expect(await page.inputValue('#csv')).toBe(csv);
    expect(await page.isVisible('#result')).toBe(false);
    await context.close();
  });

  it('when nobody is signed in, then the page sends to sign-in; a post without its CSRF token screens nothing', async () => {
    const anonymous = await fetch(`${url}/account/portfolio`, { redirect: 'manual' });
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe('/account/sign-in?next=%2Faccount%2Fportfolio');
    const client = await signedInClient();
    const form = await (await client.get('/account/portfolio')).text();
    const csv = `Symbol,Shares\n${t.fresh[0]},1\n`;
    const forged = await client.post('/account/portfolio', { csv, market: 'us' });
    expect(forged.status).toBe(403);
    expect(await forged.text()).not.toContain('id="result"');
    const real = await client.post('/account/portfolio', { _csrf: Browser.csrfOf(form), csv, market: 'us' });
    expect(real.status).toBe(200);
    expect(await real.text()).toContain('id="result"');
  });

  it('415 for a post that is not a form, 413 for a form larger than the CSV limit allows', async () => {
    const client = await signedInClient();
    const cookie = [...client.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
    const json = await fetch(`${url}/account/portfolio`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ csv: 'Symbol,Shares' }),
    });
    expect(json.status).toBe(415);
    expect(((await json.json()) as Json).detail).toBe('send the form as application/x-www-form-urlencoded (an HTML form post)');
    const form = await (await client.get('/account/portfolio')).text();
    const big = await client.post('/account/portfolio', {
      _csrf: Browser.csrfOf(form),
      csv: `Symbol,Shares\n${'AAPL,1\n'.repeat(30_000)}`,
    });
    expect(big.status).toBe(413);
  });
});
