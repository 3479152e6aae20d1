import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testServiceEnv } from '../support/service-state.ts';
import { serveAccountPages, type AccountServer } from './support/account-server.ts';

/** Debian's chromium (`npx faithscreen provision` installs it); CHROMIUM_PATH points elsewhere. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const BIN = new URL('../../bin/faithscreen.js', import.meta.url).pathname;
const PASSWORD = 'correct horse battery staple';
const run = promisify(execFile);

describe('account sign-in in a real headless Chromium, with JavaScript off', () => {
  let server: AccountServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const requested: string[] = [];
  const violations: string[] = [];

  /** `faithscreen users invite` on the server's service state; returns the link it printed. */
  async function inviteByCli(email: string): Promise<string> {
    const env = { ...process.env, ...(await testServiceEnv(server.dataDir)), PUBLIC_BASE_URL: server.url, LOG_LEVEL: 'silent' };
    const { stdout } = await run(process.execPath, [BIN, 'users', 'invite', '--account', 'acme', '--email', email], { env });
    const link = stdout.split('\n')[0]!;
    // The token rides in the fragment, which the browser never sends (no log on the way keeps it).
    expect(link).toMatch(new RegExp(`^${server.url}/account/set-password#token=[A-Za-z0-9_-]{43}$`));
    expect(stdout).toContain(`Send this link to ${email} yourself`);
    return link;
  }

  /** A fresh browser profile (no cookies): a phone-sized window with JavaScript off, as the pages must work without it. */
  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 740 }, deviceScaleFactor: 1 });
    contexts.push(context);
    const page = await context.newPage();
    page.on('request', (request) => requested.push(request.url()));
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    return page;
  }

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(
        `Chromium not found at ${CHROMIUM}: run npx faithscreen provision (it installs Debian's chromium) or set CHROMIUM_PATH`,
      );
    server = await serveAccountPages();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('when a user invited by the CLI sets a password, signs out and signs in again, then each page says where they are', async () => {
    const link = await inviteByCli('ada@example.com');
    const page = await newPage();

    const opened = await page.goto(link);
    expect(opened!.status()).toBe(200);
    expect(opened!.url()).toBe(`${server.url}/account/set-password`); // what the server was asked: no token
    // Without JavaScript the page asks for the link's code, the part after #token=.
    const code = link.split('#token=')[1]!;
    await page.getByLabel('Link code', { exact: false }).fill(code);
    await page.getByLabel('New password', { exact: false }).first().fill(PASSWORD);
    await page.getByLabel('New password again').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.waitForURL(`${server.url}/account?welcome=1`);
    expect(await page.textContent('#signed-in-email')).toBe('ada@example.com');
    expect(await page.textContent('#signed-in-account')).toBe('acme');
    expect(await page.textContent('#form-info')).toContain('Your password is set and you are signed in.');

    const [session] = (await page.context().cookies()).filter((c) => c.name === 'fs_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false, path: '/account' });
    expect(session!.expires).toBe(-1); // a browser-session cookie; the server ends the session itself

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${server.url}/account/sign-in?signed_out=1`);
    expect(await page.textContent('#form-info')).toContain('You are signed out.');
    expect((await page.context().cookies()).some((c) => c.name === 'fs_session')).toBe(false);

    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/account`);
    expect(await page.textContent('#signed-in-email')).toBe('ada@example.com');

    // The used link is refused in the browser too.
    await page.goto(link);
    await page.getByLabel('Link code', { exact: false }).fill(code);
    await page.getByLabel('New password', { exact: false }).first().fill(PASSWORD);
    await page.getByLabel('New password again').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.waitForLoadState();
    expect(await page.textContent('h1')).toBe('This link is not valid');

    // Nothing but the pages themselves was fetched, and the CSP blocked nothing.
    expect(requested.filter((url) => !url.startsWith(`${server.url}/account`) && !url.endsWith('/favicon.ico'))).toEqual([]);
    expect(violations).toEqual([]);
    await page.close();
  });

  it('when the password is wrong, then the error is announced, tied to the fields, and the email is kept', async () => {
    await inviteByCli('bea@example.com');
    const page = await newPage();
    await page.goto(`${server.url}/account/sign-in`);
    await page.getByLabel('Email').fill('bea@example.com');
    await page.getByLabel('Password').fill('not the right password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForLoadState();
    expect(await page.getAttribute('#form-error', 'role')).toBe('alert');
    expect(await page.textContent('#form-error')).toContain('That email and password do not match an account.');
    expect(await page.getAttribute('#field-password', 'aria-invalid')).toBe('true');
    expect(await page.getAttribute('#field-password', 'aria-describedby')).toContain('form-error');
    expect(await page.inputValue('#field-email')).toBe('bea@example.com');
    await page.close();
  });

  it('when read on a phone, then nothing scrolls sideways, every field has a label and focus is visible', async () => {
    const page = await newPage();
    for (const path of ['/account/sign-in', '/account/set-password', '/account/set-password?token=nope']) {
      await page.goto(`${server.url}${path}`);
      expect(await page.evaluate('document.documentElement.scrollWidth'), path).toBeLessThanOrEqual(375);
    }
    await page.goto(`${server.url}/account/sign-in`);
    const fields = await page.$$eval('input:not([type=hidden])', (inputs) => inputs.map((input) => input.id));
    const labelled = await page.$$eval('label[for]', (labels) => labels.map((label) => label.getAttribute('for')));
    const unlabelled = fields.filter((id) => !labelled.includes(id));
    expect(fields.length).toBe(2);
    expect(unlabelled).toEqual([]);
    // Keyboard users reach the email field and see where they are.
    for (let presses = 0; presses < 5 && (await page.evaluate('document.activeElement.id')) !== 'field-email'; presses += 1)
      await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.id')).toBe('field-email');
    expect(await page.evaluate('getComputedStyle(document.activeElement).outlineStyle')).toBe('solid');
    // Body text is large enough to read without zooming.
    expect(await page.evaluate("parseFloat(getComputedStyle(document.querySelector('#field-email')).fontSize)")).toBeGreaterThanOrEqual(16);
    await page.close();
  });
});
