import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { chromium, type Browser as Chromium, type Page } from 'playwright-core';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../access/administration.ts';
import { AccountUserStore } from '../../access/account-user-store.ts';
import { AccountAuth } from '../../access/account-users.ts';
import { openAccess, type AccessSetup } from '../../access/open-access.ts';
import { signInKeyFrom } from '../../access/sign-in-limits.ts';
import { csrfKeyFrom } from '../../api/account/csrf.ts';
import { createApp } from '../../api/app.ts';
import { createMetrics } from '../../api/metrics.ts';
import { unavailableRefresher } from '../../api/refresher.ts';
import { parseConfig } from '../../platform/config.ts';
import { accessOptionsOf } from '../../platform/service-state.ts';
import { CustomScreenStore } from '../../service-state/custom-screen-store.ts';
import { openApiReads, type ApiReads } from '../../reads/api-reads.ts';
import { freePort } from '../support/http.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { Browser } from './support/account-server.ts';

/** Debian's chromium (`npx faithscreen provision` installs it); CHROMIUM_PATH points elsewhere. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PASSWORD = 'correct horse battery staple';

describe('the account page lists, creates and deletes custom screens (real Chromium, real HTTP)', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let access: AccessSetup;
  let auth: AccountAuth;
  let store: CustomScreenStore;
  let reads: ApiReads;
  let server: Server;
  let url: string;
  let browser: Chromium;
  let users = 0;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(
        `Chromium not found at ${CHROMIUM}: run npx faithscreen provision (it installs Debian's chromium) or set CHROMIUM_PATH`,
      );
    temp = await makeTempDir('faithscreen-account-screens-');
    const port = await freePort();
    access = await openAccess({ ...accessOptionsOf(parseConfig({ DATA_DIR: temp.dir, PORT: String(port) })), authCacheMs: 0 });
    auth = new AccountAuth({
      store: new AccountUserStore(access.store.db),
      accessStore: access.store,
      signInKey: signInKeyFrom(access.hashSecret),
    });
    await auth.prepare();
    await createAccount(access.store, 'acme', 'pro');
    await createAccount(access.store, 'globex', 'pro');
    store = new CustomScreenStore(access.store.db);
    reads = await openApiReads({ dataDir: temp.dir, followIntervalMs: 0 });
    const app = createApp({
      logger: pino({ level: 'silent' }),
      metrics: createMetrics(),
      readiness: {},
      screen: { reads, refresher: unavailableRefresher, cache: { freshDays: 1, staleWhileRevalidateDays: 7 } },
      accessControl: access.middleware,
      account: { auth, csrfKey: csrfKeyFrom(access.hashSecret), trustProxy: false },
      accountPages: { store: access.store, hashSecret: access.hashSecret, contact: undefined },
      customScreens: { db: access.store.db },
      baseUrl: 'http://127.0.0.1',
    });
    server = app.listen(port, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await reads?.close();
    await access?.close();
    await temp?.cleanup();
  });

  async function newUser(account: string): Promise<string> {
    const email = `user${++users}@${account}.test`;
    const set = await auth.setPasswordWithInvite((await auth.invite(account, email)).token, PASSWORD);
    if (!set.ok) throw new Error(set.message);
    return email;
  }

  async function signedInPage(account: string, next: string): Promise<Page> {
    const email = await newUser(account);
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${url}${next}`);
    await page.fill('input[name="email"]', email);
    await page.fill('input[name="password"]', PASSWORD);
    await page.click('#sign-in-form button[type="submit"]');
    await page.waitForURL(`${url}${next}`);
    return page;
  }

  async function signedInBrowser(account: string): Promise<Browser> {
    const email = await newUser(account);
    const client = new Browser(url);
    const form = await (await client.get('/account/sign-in')).text();
    const signedIn = await client.post('/account/sign-in', { _csrf: Browser.csrfOf(form), next: '/account', email, password: PASSWORD });
    if (signedIn.status !== 303) throw new Error(`sign-in answered ${signedIn.status}`);
    return client;
  }

  it('when a user creates a screen on the page, then it is listed as version 1 with its rules, and the API sees the same screen', async () => {
    const page = await signedInPage('acme', '/account/screens');
    expect(await page.textContent('#no-screens')).toContain('no custom screens');
    await page.fill('#slug', 'halal-plus');
    await page.selectOption('#base', 'shariah_aaoifi');
    await page.fill('#activities', 'coffee, media_entertainment');
    await page.fill('#tickers', 'us/xom');
    await page.click('#create-screen button[type="submit"]');
    await page.waitForURL(`${url}/account/screens?created=halal-plus`);
    expect(await page.textContent('#created-notice')).toContain('custom:halal-plus');
    const section = await page.textContent('#screen-halal-plus');
    expect(section).toContain('shariah_aaoifi');
    expect(section).toMatch(/1, effective from \d{4}-\d{2}-\d{2}/);
    expect(section).toContain('coffee (at most 0%)');
    expect(section).toContain('us/XOM');
    expect((await store.get('acme', 'halal-plus'))?.versions[0]?.definition.activities.map((a) => a.activity)).toEqual([
      'coffee',
      'media_entertainment',
    ]);
  }, 120_000);

  it('when a screen has several versions, then the page shows the latest rules as percentages beside the base, and every version with its effective date and state', async () => {
    const definition = {
      base: 'shariah_aaoifi' as const,
      description: '',
      activities: [],
      excludedTickers: ['us/XOM'],
      allowedTickers: [],
      thresholds: { debt_to_market_cap_spot: 0.25 },
    };
    const version = (effectiveFrom: string, debt: number) => ({
      effectiveFrom,
      createdAt: new Date().toISOString(),
      createdByKey: null,
      definition: { ...definition, thresholds: { debt_to_market_cap_spot: debt } },
    });
    const nextYear = `${Number(new Date().toISOString().slice(0, 4)) + 1}-01-01`;
    expect(await store.create('acme', 'versioned', 'scr-versioned', version('2020-01-01', 0.25), 20)).toBe('created');
    expect(await store.addVersion('acme', 'versioned', version('2024-07-01', 0.2), 100)).toBe(2);
    expect(await store.addVersion('acme', 'versioned', version(nextYear, 0.15), 100)).toBe(3);

    const page = await signedInPage('acme', '/account/screens');
    const latest = await page.textContent('#screen-versioned table:not(.versions)');
    expect(latest).toContain(`3, effective from ${nextYear}`);
    expect(latest).toContain('debt_to_market_cap_spot ≤ 15.00% (base: 30.00%)');
    const rows = await page.$$eval('#screen-versioned-versions tbody tr', (trs) =>
      trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td: { textContent: string | null }) => td.textContent?.trim() ?? '')),
    );
    expect(rows).toEqual([
      [
        '1',
        '2020-01-01',
        'superseded',
        'shariah_aaoifi',
        'debt_to_market_cap_spot ≤ 25.00% (base: 30.00%)',
        '0 activities, 1 tickers excluded, 0 allowed',
      ],
      [
        '2',
        '2024-07-01',
        'in force',
        'shariah_aaoifi',
        'debt_to_market_cap_spot ≤ 20.00% (base: 30.00%)',
        '0 activities, 1 tickers excluded, 0 allowed',
      ],
      [
        '3',
        nextYear,
        'scheduled',
        'shariah_aaoifi',
        'debt_to_market_cap_spot ≤ 15.00% (base: 30.00%)',
        '0 activities, 1 tickers excluded, 0 allowed',
      ],
    ]);
  }, 120_000);

  it("when the form names an unknown activity, then the page answers 400 with the API's own words and keeps what was typed", async () => {
    const page = await signedInPage('acme', '/account/screens');
    await page.fill('#slug', 'odd-one');
    await page.fill('#activities', 'crypto');
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url() === `${url}/account/screens` && r.request().method() === 'POST'),
      page.click('#create-screen button[type="submit"]'),
    ]);
    expect(response.status()).toBe(400);
    expect(await page.textContent('#form-error')).toContain("unknown activity 'crypto'; valid: alcohol");
    expect(await page.inputValue('#slug')).toBe('odd-one');
    expect(await store.get('acme', 'odd-one')).toBeUndefined();
  }, 120_000);

  it('when Delete is pressed, then the screen is gone and the page says so', async () => {
    const page = await signedInPage('acme', '/account/screens');
    await page.fill('#slug', 'short-lived');
    await page.click('#create-screen button[type="submit"]');
    await page.waitForURL(`${url}/account/screens?created=short-lived`);
    await page.click('#screen-short-lived button[type="submit"]');
    await page.waitForURL(`${url}/account/screens?deleted=short-lived`);
    expect(await page.textContent('#deleted-notice')).toContain('custom:short-lived');
    expect(await page.locator('#screen-short-lived').count()).toBe(0);
    expect(await store.get('acme', 'short-lived')).toBeUndefined();
  }, 120_000);

  it("when a form is posted without its CSRF token or against another account's screen, then nothing changes", async () => {
    const acme = await signedInBrowser('acme');
    const globex = await signedInBrowser('globex');
    const acmeToken = Browser.csrfOf(await (await acme.get('/account/screens')).text());
    const globexToken = Browser.csrfOf(await (await globex.get('/account/screens')).text());
    expect((await acme.post('/account/screens', { slug: 'no-token', base: 'lds_mormon' })).status).toBe(403);
    expect((await acme.post('/account/screens', { _csrf: globexToken, slug: 'wrong-token', base: 'lds_mormon' })).status).toBe(403);
    const foreign = await globex.post('/account/screens/halal-plus/delete', { _csrf: globexToken });
    expect(foreign.status).toBe(404);
    expect(await foreign.text()).toContain('Screen not found');
    expect(await (await globex.get('/account/screens')).text()).not.toContain('halal-plus');
    expect(await store.get('acme', 'halal-plus')).toBeDefined();
    expect(await store.get('acme', 'no-token')).toBeUndefined();
    expect((await acme.post('/account/screens/Not_A_Slug/delete', { _csrf: acmeToken })).status).toBe(404);
  });

  it('when signed out, then /account/screens sends to sign-in', async () => {
    const stranger = new Browser(url);
    const page = await stranger.get('/account/screens');
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/account/sign-in?next=%2Faccount%2Fscreens');
  });
});
