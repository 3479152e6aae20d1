import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { chromium, type Browser as Chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, lapseAccount } from '../../access/administration.ts';
import { AccountUserStore } from '../../access/account-user-store.ts';
import { signInKeyFrom } from '../../access/sign-in-limits.ts';
import { AccountAuth } from '../../access/account-users.ts';
import { openAccess, type AccessSetup } from '../../access/open-access.ts';
import { csrfKeyFrom } from '../../api/account/csrf.ts';
import { createLogger } from '../../platform/logger.ts';
import { parseConfig } from '../../platform/config.ts';
import { accessOptionsOf } from '../../platform/service-state.ts';
import { freePort } from '../support/http.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { Browser } from './support/account-server.ts';
import { buildLake, createTestApi, type TestApi } from './support/lake-fixture.ts';

const run = promisify(execFile);
const BIN = new URL('../../bin/faithscreen.js', import.meta.url).pathname;
/** Debian's chromium (`npx faithscreen provision` installs it); CHROMIUM_PATH points elsewhere. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PASSWORD = 'correct horse battery staple';
const SECRET_KEY = /fs_live_[0-9A-Za-z]{55}/g;

describe('the account pages /account/api-keys and /account/upgrade in real Chromium over the real API', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let access: AccessSetup;
  let auth: AccountAuth;
  let api: TestApi;
  let server: Server;
  let url: string;
  let ticker: string;
  let browser: Chromium;
  let logText = '';
  /** Every key secret a page showed, to check that none is ever shown again nor logged. */
  const secretsShown: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(
        `Chromium not found at ${CHROMIUM}: run npx faithscreen provision (it installs Debian's chromium) or set CHROMIUM_PATH`,
      );
    temp = await makeTempDir('faithscreen-account-pages-');
    ticker = (await buildLake(temp.dir)).fresh[0]!;
    const port = await freePort();
    const config = parseConfig({ DATA_DIR: temp.dir, PORT: String(port) });
    access = await openAccess({ ...accessOptionsOf(config), authCacheMs: 0 });
    auth = new AccountAuth({
      store: new AccountUserStore(access.store.db),
      accessStore: access.store,
      signInKey: signInKeyFrom(access.hashSecret),
    });
    await auth.prepare();
    await createAccount(access.store, 'acme', 'pro');
    await createAccount(access.store, 'globex', 'pro');
    await createAccount(access.store, 'freebie', 'free');
    const sink = new PassThrough();
    sink.on('data', (chunk: Buffer) => (logText += chunk.toString('utf8')));
    api = await createTestApi(temp.dir, undefined, access.middleware, {
      logger: createLogger('debug', sink),
      account: { auth, csrfKey: csrfKeyFrom(access.hashSecret), trustProxy: false },
      accountPages: { store: access.store, hashSecret: access.hashSecret, contact: 'sales@faithscreen.test' },
    });
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
    await access?.close();
    await temp?.cleanup();
  });

  /** A user of `account` with PASSWORD, signed in through the pages, as a fetch-based browser. */
  async function signedInBrowser(account: string, email: string): Promise<Browser> {
    const invitation = await auth.invite(account, email);
    const set = await auth.setPasswordWithInvite(invitation.token, PASSWORD);
    if (!set.ok) throw new Error(set.message);
    const client = new Browser(url);
    const form = await (await client.get('/account/sign-in')).text();
    const signedIn = await client.post('/account/sign-in', { _csrf: Browser.csrfOf(form), next: '/account', email, password: PASSWORD });
    if (signedIn.status !== 303) throw new Error(`sign-in answered ${signedIn.status}`);
    return client;
  }

  const screen = (key: string) => fetch(`${url}/api/screen/us/${ticker}`, { headers: { 'X-API-Key': key } });

  /** The usage a page shows, after this process's spare units and history are written (as the API does each second). */
  async function reloadWithUsage(page: Page): Promise<void> {
    await access.meter.returnSpare();
    await page.reload();
  }

  it(
    'when a user invited by the CLI sets a password and signs in, then they create a key that works, watch its usage go up, revoke it and the API refuses it',
    { timeout: 120_000 },
    async () => {
      // The operator invites with the CLI, on the same DATA_DIR, and sends the link.
      const invited = await run(process.execPath, [BIN, 'users', 'invite', '--account', 'acme', '--email', 'ana@acme.test', '--json'], {
        env: { ...process.env, DATA_DIR: temp.dir, PUBLIC_BASE_URL: url, LOG_LEVEL: 'silent' },
      });
      const link = (JSON.parse(invited.stdout) as { link: string }).link;
      // The token is in the fragment: browsers never send it, so no log on the way keeps it.
      expect(link.startsWith(`${url}/account/set-password#token=`)).toBe(true);

      const context = await browser.newContext({ viewport: { width: 390, height: 844 } }); // a phone
      const page = await context.newPage();
      const violations: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      await page.goto(link);
      expect(page.url()).toBe(`${url}/account/set-password`); // the page took the token and dropped the fragment
      await page.fill('input[name="password"]', PASSWORD);
      await page.fill('input[name="confirm"]', PASSWORD);
      await page.click('#set-password-form button[type="submit"]');
      await page.waitForURL(`${url}/account?welcome=1`);
      // Sign out and in again, as a returning user would.
      await page.click('#sign-out');
      await page.goto(`${url}/account/api-keys`);
      await page.waitForURL(/\/account\/sign-in\?next=%2Faccount%2Fapi-keys/);
      await page.fill('input[name="email"]', 'ana@acme.test');
      await page.fill('input[name="password"]', PASSWORD);
      await page.click('#sign-in-form button[type="submit"]');
      await page.waitForURL(`${url}/account/api-keys`);
      expect(await page.textContent('#no-keys')).toContain('no keys yet');
      expect(await page.textContent('#window-rule')).toContain('resets 24 hours after that first call of the day');

      // Create: the key is shown once, with a copy button that script reveals.
      await page.click('#create-key button[type="submit"]');
      const key = await page.inputValue('#new-key-value');
      expect(key).toMatch(/^fs_live_[0-9A-Za-z]{55}$/);
      secretsShown.push(key);
      expect(await page.isVisible('button[data-copy="new-key-value"]')).toBe(true);
      const created = await page.locator('#new-key').screenshot();
      expect(created.subarray(1, 4).toString('latin1')).toBe('PNG');
      expect(await page.textContent('#new-key')).toContain('shown only this once');
      const keyId = (await page.getAttribute('section.key', 'data-key-id'))!;
      expect(key.slice('fs_live_'.length, 'fs_live_'.length + 12)).toBe(keyId.slice('key_'.length));

      // Fresh: never used.
      await page.goto(`${url}/account/api-keys`);
      expect(await page.content()).not.toContain(key);
      expect(await page.textContent(`#${keyId} .last-used`)).toBe('never');
      const before = await page.locator(`#chart-${keyId} svg`).screenshot();

      // The key works on the API, and the page shows its use.
      const answered = await screen(key);
      expect(answered.status).toBe(200);
      await reloadWithUsage(page);
      expect(await page.getAttribute(`#${keyId} [data-window="daily"]`, 'data-used')).toBe('1');
      expect(await page.textContent(`#${keyId} [data-window="daily"]`)).toBe('1 of 1,000 units used');
      expect(await page.getAttribute(`#chart-${keyId}`, 'data-total')).toBe('1');
      expect(await page.textContent(`#${keyId} .last-used`)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
      const after = await page.locator(`#chart-${keyId} svg`).screenshot();
      expect(after.equals(before)).toBe(false); // the bar is drawn
      await screen(key);
      await reloadWithUsage(page);
      expect(await page.getAttribute(`#${keyId} [data-window="daily"]`, 'data-used')).toBe('2');
      expect(await page.content()).not.toContain(key);
      // The essential content is on screen at phone width: the key, its usage and its chart.
      for (const selector of [`#${keyId}-title`, `#${keyId} meter`, `#chart-${keyId} svg`]) {
        const box = (await page.locator(selector).first().boundingBox())!;
        expect(box.width, selector).toBeGreaterThan(0);
        expect(box.x + box.width, selector).toBeLessThanOrEqual(390);
      }
      // No sideways scrolling on the phone.
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      const full = await page.screenshot({ fullPage: true });
      expect(full.length).toBeGreaterThan(5_000);

      // Revoke, with a confirmation step.
      await page.click(`#${keyId} a[href$="/revoke"]`);
      await page.waitForURL(`${url}/account/api-keys/${keyId}/revoke`);
      expect(await page.textContent('h1')).toContain(keyId);
      expect(await screen(key).then((r) => r.status)).toBe(200); // nothing happens before confirming
      await page.click('#confirm-revoke button[type="submit"]');
      await page.waitForURL(`${url}/account/api-keys?revoked=${keyId}`);
      expect(await page.getAttribute(`#${keyId}`, 'data-status')).toBe('revoked');
      expect(await page.textContent('#revoked-notice')).toContain(keyId);
      const refused = await screen(key);
      expect(refused.status).toBe(401);
      expect(violations).toEqual([]);
      await context.close();
    },
  );

  it('when JavaScript is off, then a new key is still shown, selectable, and the copy button stays hidden', async () => {
    const client = await signedInBrowser('globex', 'jo@globex.test');
    const cookie = [...client.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
    const context = await browser.newContext({ javaScriptEnabled: false, extraHTTPHeaders: { cookie } });
    const page = await context.newPage();
    await page.goto(`${url}/account/api-keys`);
    await page.click('#create-key button[type="submit"]');
    const key = await page.inputValue('#new-key-value');
    expect(key).toMatch(/^fs_live_[0-9A-Za-z]{55}$/);
    secretsShown.push(key);
    expect(await page.isVisible('#new-key-value')).toBe(true);
    expect(await page.isVisible('button[data-copy="new-key-value"]')).toBe(false);
    expect(await page.getAttribute('label[for="new-key-value"]', 'for')).toBe('new-key-value');
    await context.close();
    // Its one use of the page is spent: revoke it so the cap test below starts from none.
    await access.store.revokeKey(`key_${key.slice(8, 20)}`, new Date());
  });

  it('when the upgrade page is opened signed in, then it shows the tiers, the account plan and the contact', async () => {
    const client = await signedInBrowser('acme', 'ben@acme.test');
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      extraHTTPHeaders: { cookie: [...client.cookies].map(([n, v]) => `${n}=${v}`).join('; ') },
    });
    const page = await context.newPage();
    const response = await page.goto(`${url}/account/upgrade`);
    expect(response!.status()).toBe(200);
    expect(await page.textContent('#current-plan')).toContain('acme is on the pro tier');
    expect(await page.getAttribute('tr[aria-current="true"]', 'data-tier')).toBe('pro');
    expect(await page.textContent('tr[data-tier="team"]')).toContain('10,000');
    expect(await page.getAttribute('#how-to-upgrade a', 'href')).toBe('mailto:sales@faithscreen.test');
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390); // the tier table fits a phone
    await context.close();
  });

  it("when a session of another account asks for this account's key, then it never sees nor revokes it", async () => {
    const acme = await signedInBrowser('acme', 'cat@acme.test');
    const form = await (await acme.get('/account/api-keys')).text();
    const created = await (await acme.post('/account/api-keys', { _csrf: Browser.csrfOf(form) })).text();
    const keyId = /id="new-key-title">Key <code>(key_[0-9A-Za-z]{12})<\/code>/.exec(created)![1]!;
    secretsShown.push(created.match(SECRET_KEY)![0]);

    const globex = await signedInBrowser('globex', 'dan@globex.test');
    const theirList = await (await globex.get('/account/api-keys')).text();
    expect(theirList).not.toContain(keyId);
    const confirm = await globex.get(`/account/api-keys/${keyId}/revoke`);
    expect(confirm.status).toBe(404);
    expect(await confirm.text()).toContain('Key not found');
    const revoke = await globex.post(`/account/api-keys/${keyId}/revoke`, { _csrf: Browser.csrfOf(theirList) });
    expect(revoke.status).toBe(404);
    expect((await access.store.key(keyId))!.revokedAt).toBeNull();
    // And the page of an unknown id looks the same.
    expect((await globex.get('/account/api-keys/key_000000000000/revoke')).status).toBe(404);
  });

  it('when a form is posted without its CSRF token, or with another session’s, then nothing is created or revoked', async () => {
    const acme = await signedInBrowser('acme', 'eve@acme.test');
    const other = await signedInBrowser('globex', 'fay@globex.test');
    const otherToken = Browser.csrfOf(await (await other.get('/account/api-keys')).text());
    const keysBefore = (await access.store.keys('acme')).length;
    expect((await acme.post('/account/api-keys', {})).status).toBe(403);
    expect((await acme.post('/account/api-keys', { _csrf: otherToken })).status).toBe(403);
    expect((await access.store.keys('acme')).length).toBe(keysBefore);

    const live = (await access.store.keys('acme')).find((k) => k.revokedAt === null)!;
    const refused = await acme.post(`/account/api-keys/${live.keyId}/revoke`, {});
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('Nothing was changed');
    expect((await access.store.key(live.keyId))!.revokedAt).toBeNull();
  });

  it('when signed out, then the key pages send to sign-in and a form post changes nothing', async () => {
    const stranger = new Browser(url);
    const page = await stranger.get('/account/api-keys');
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/account/sign-in?next=%2Faccount%2Fapi-keys');
    const keysBefore = (await access.store.keys()).length;
    expect((await stranger.post('/account/api-keys', { _csrf: 'x' })).status).toBe(303);
    expect((await access.store.keys()).length).toBe(keysBefore);
  });

  it('when a free account opens its keys, then it reads that API access starts at Pro and cannot create one', async () => {
    const free = await signedInBrowser('freebie', 'gus@freebie.test');
    const html = await (await free.get('/account/api-keys')).text();
    expect(html).toContain('API access starts at Pro');
    expect(html).not.toContain('id="create-key"');
    const refused = await free.post('/account/api-keys', { _csrf: Browser.csrfOf(html) });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('API access starts at the Pro tier');
    expect(await access.store.keys('freebie')).toEqual([]);
  });

  it('when a lapsed or partner account posts the create form, then 403 says why and no key is made', async () => {
    await createAccount(access.store, 'lapsing', 'team');
    await createAccount(access.store, 'partnerco', 'partner');
    const lapsed = await signedInBrowser('lapsing', 'kim@lapsing.test');
    await lapseAccount(access.store, 'lapsing');
    const partner = await signedInBrowser('partnerco', 'lou@partnerco.test');
    for (const [client, words] of [
      [lapsed, 'has lapsed'],
      [partner, 'administrators set'],
    ] as const) {
      const list = await (await client.get('/account/api-keys')).text();
      expect(list).not.toContain('id="create-key"');
      const refused = await client.post('/account/api-keys', { _csrf: Browser.csrfOf(list) });
      expect(refused.status).toBe(403);
      expect(await refused.text()).toContain(words);
    }
    expect(await access.store.keys('lapsing')).toEqual([]);
    expect(await access.store.keys('partnerco')).toEqual([]);
  });

  it('when an account already holds the most keys it may create, then one more is refused with 409 saying why', async () => {
    const client = await signedInBrowser('globex', 'hal@globex.test');
    const token = Browser.csrfOf(await (await client.get('/account/api-keys')).text());
    const statuses: number[] = [];
    let last = '';
    for (let i = 0; i < 6; i++) {
      const response = await client.post('/account/api-keys', { _csrf: token });
      statuses.push(response.status);
      last = await response.text();
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 409]);
    expect(last).toContain('already has 5 active keys');
    expect(last).not.toContain('id="new-key"');
  });

  it('never shows a secret again after creation, and never logs one', async () => {
    const acme = await signedInBrowser('acme', 'ivy@acme.test');
    const list = await (await acme.get('/account/api-keys')).text();
    expect(secretsShown.length).toBeGreaterThanOrEqual(2);
    expect(list.match(SECRET_KEY)).toBeNull();
    for (const secret of secretsShown) expect(logText).not.toContain(secret);
    expect(logText).not.toContain(PASSWORD);
    expect(logText).toContain('key created on the account page');
  });
});
