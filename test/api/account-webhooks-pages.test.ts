import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { chromium, type Browser as Chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createKey, revokeKey } from '../../access/administration.ts';
import { AccountUserStore } from '../../access/account-user-store.ts';
import { AccountAuth } from '../../access/account-users.ts';
import { openAccess, type AccessSetup } from '../../access/open-access.ts';
import { signInKeyFrom } from '../../access/sign-in-limits.ts';
import { csrfKeyFrom } from '../../api/account/csrf.ts';
import { parseConfig } from '../../platform/config.ts';
import { accessOptionsOf } from '../../platform/service-state.ts';
import { newSubscriptionId } from '../../webhooks/events.ts';
import { sealSecret } from '../../webhooks/secret-box.ts';
import { WebhookStore } from '../../webhooks/webhook-store.ts';
import { freePort } from '../support/http.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { Browser } from './support/account-server.ts';
import { createTestApi, type TestApi } from './support/lake-fixture.ts';

/** Debian's chromium (`npx faithscreen provision` installs it); CHROMIUM_PATH points elsewhere. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PASSWORD = 'correct horse battery staple';

describe('the account pages list and delete webhooks, and revoking a key offers to end its subscriptions (real Chromium, real HTTP)', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let access: AccessSetup;
  let auth: AccountAuth;
  let webhooks: WebhookStore;
  let api: TestApi;
  let server: Server;
  let url: string;
  let browser: Chromium;
  let users = 0;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(
        `Chromium not found at ${CHROMIUM}: run npx faithscreen provision (it installs Debian's chromium) or set CHROMIUM_PATH`,
      );
    temp = await makeTempDir('faithscreen-account-webhooks-');
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
    webhooks = new WebhookStore(access.store.db);
    api = await createTestApi(temp.dir, undefined, access.middleware, {
      account: { auth, csrfKey: csrfKeyFrom(access.hashSecret), trustProxy: false },
      accountPages: { store: access.store, hashSecret: access.hashSecret, contact: undefined, webhooks },
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

  const newKey = async (account: string) => (await createKey(access.store, access.hashSecret, { account })).key_id;

  async function subscribe(account: string, keyId: string, url: string): Promise<string> {
    const subscriptionId = newSubscriptionId();
    await webhooks.createSubscription(
      {
        subscriptionId,
        account,
        createdByKeyId: keyId,
        url,
        market: null,
        tickers: ['us/AAPL'],
        frameworks: ['shariah_aaoifi'],
        events: ['status.changed'],
        secretSealed: sealSecret(randomBytes(32), subscriptionId, 'whsec_never_shown'),
        createdAt: new Date().toISOString(),
        deletedAt: null,
      },
      25,
    );
    return subscriptionId;
  }

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

  it("when a user opens /account/webhooks, then every live subscription shows, a revoked key's as delivering nothing, and Delete removes one", async () => {
    const live = await subscribe('acme', await newKey('acme'), 'https://hooks.acme.example/live');
    const revokedKey = await newKey('acme');
    const silent = await subscribe('acme', revokedKey, 'https://hooks.acme.example/silent');
    await revokeKey(access.store, revokedKey);
    const theirs = await subscribe('globex', await newKey('globex'), 'https://globex.example/hook');

    const page = await signedInPage('acme', '/account/webhooks');
    expect(await page.getAttribute(`#${live}`, 'data-status')).toBe('live');
    expect(await page.textContent(`#${live}`)).toContain('https://hooks.acme.example/live');
    expect(await page.getAttribute(`#${silent}`, 'data-status')).toBe('silent');
    expect(await page.textContent(`#${silent}`)).toMatch(
      new RegExp(`Delivers nothing: the key ${revokedKey} that created the subscription was revoked`),
    );
    expect(await page.locator(`#${theirs}`).count()).toBe(0);
    expect(await page.content()).not.toContain('whsec_');

    await page.click(`#${silent} button[type="submit"]`);
    await page.waitForURL(`${url}/account/webhooks?deleted=${silent}`);
    expect(await page.textContent('#deleted-notice')).toContain(silent);
    expect(await page.locator(`#${silent}`).count()).toBe(0);
    expect((await webhooks.subscription(silent))?.deletedAt).not.toBeNull();
    expect((await webhooks.subscription(live))?.deletedAt).toBeNull();
  }, 120_000);

  it('when a key with subscriptions is revoked on its page, then the form offers to delete them, ticked; unticked, they stay', async () => {
    const ending = await newKey('acme');
    const ended = await subscribe('acme', ending, 'https://hooks.acme.example/ended');
    const keeping = await newKey('acme');
    const kept = await subscribe('acme', keeping, 'https://hooks.acme.example/kept');

    const page = await signedInPage('acme', `/account/api-keys/${ending}/revoke`);
    expect(await page.isChecked('input[name="end_webhooks"]')).toBe(true);
    expect(await page.textContent('#confirm-revoke')).toContain('Also delete the 1 webhook subscription this key created');
    await page.click('#confirm-revoke button[type="submit"]');
    await page.waitForURL(`${url}/account/api-keys?revoked=${ending}`);
    expect((await access.store.key(ending))?.revokedAt).not.toBeNull();
    expect((await webhooks.subscription(ended))?.deletedAt).not.toBeNull();

    await page.goto(`${url}/account/api-keys/${keeping}/revoke`);
    await page.uncheck('input[name="end_webhooks"]');
    await page.click('#confirm-revoke button[type="submit"]');
    await page.waitForURL(`${url}/account/api-keys?revoked=${keeping}`);
    expect((await access.store.key(keeping))?.revokedAt).not.toBeNull();
    expect((await webhooks.subscription(kept))?.deletedAt).toBeNull();
  }, 120_000);

  it("when a delete is posted without the form's CSRF token, for another account's subscription or an unknown id, then nothing is deleted", async () => {
    const target = await subscribe('acme', await newKey('acme'), 'https://hooks.acme.example/target');
    const acme = await signedInBrowser('acme');
    const globex = await signedInBrowser('globex');
    const acmeToken = Browser.csrfOf(await (await acme.get('/account/webhooks')).text());
    const globexToken = Browser.csrfOf(await (await globex.get('/account/webhooks')).text());

    expect((await acme.post(`/account/webhooks/${target}/delete`, {})).status).toBe(403);
    expect((await acme.post(`/account/webhooks/${target}/delete`, { _csrf: globexToken })).status).toBe(403);
    const foreign = await globex.post(`/account/webhooks/${target}/delete`, { _csrf: globexToken });
    expect(foreign.status).toBe(404);
    expect(await foreign.text()).toContain('Webhook not found');
    expect((await acme.post('/account/webhooks/whs_000000000000000000000000/delete', { _csrf: acmeToken })).status).toBe(404);
    expect((await acme.post('/account/webhooks/not-an-id/delete', { _csrf: acmeToken })).status).toBe(404);
    expect((await webhooks.subscription(target))?.deletedAt).toBeNull();

    const deleted = await acme.post(`/account/webhooks/${target}/delete`, { _csrf: acmeToken });
    expect(deleted.status).toBe(303);
    expect(deleted.headers.get('location')).toBe(`/account/webhooks?deleted=${target}`);
    expect((await webhooks.subscription(target))?.deletedAt).not.toBeNull();
    expect((await acme.post(`/account/webhooks/${target}/delete`, { _csrf: acmeToken })).status).toBe(404);
  });

  it('when signed out, then /account/webhooks sends to sign-in and a delete changes nothing', async () => {
    const target = await subscribe('acme', await newKey('acme'), 'https://hooks.acme.example/signed-out');
    const stranger = new Browser(url);
    const page = await stranger.get('/account/webhooks');
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/account/sign-in?next=%2Faccount%2Fwebhooks');
    expect((await stranger.post(`/account/webhooks/${target}/delete`, { _csrf: 'x' })).status).toBe(303);
    expect((await webhooks.subscription(target))?.deletedAt).toBeNull();
  });
});
