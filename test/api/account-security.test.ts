import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FAILURE_DELAY_MS } from '../../access/account-users.ts';
import { loadKeyHashSecret } from '../../access/key-hashing.ts';
import { MAX_WAITING_CHECKS, passwordMatches } from '../../access/password-hashing.ts';
import { signInKeyFrom } from '../../access/sign-in-limits.ts';
import { Browser, serveAccountPages, type AccountServer } from './support/account-server.ts';

const PASSWORD = 'correct horse battery staple';
const MINUTE = 60_000;

/** A user with PASSWORD set; returns the email and the session the link's sign-in made (unused by the tests' browsers). */
async function user(server: AccountServer, email: string, account = 'acme'): Promise<string> {
  const invitation = await server.auth.invite(account, email);
  const set = await server.auth.setPasswordWithInvite(invitation.token, PASSWORD);
  if (!set.ok) throw new Error(set.message);
  return email;
}

async function signIn(
  server: AccountServer,
  email: string,
  headers: Record<string, string> = {},
): Promise<{ browser: Browser; response: Response }> {
  const browser = new Browser(server.url, headers);
  const page = await (await browser.get('/account/sign-in')).text();
  const response = await browser.post('/account/sign-in', { _csrf: Browser.csrfOf(page), email, password: PASSWORD });
  return { browser, response };
}

describe('account pages: forms without their token, cookie flags, headers and logs', () => {
  let server: AccountServer;

  beforeAll(async () => {
    server = await serveAccountPages();
  }, 120_000);
  afterAll(() => server?.close());

  it("when any form is posted without its _csrf token, or with another browser's, then 403 and nothing changes", async () => {
    const email = await user(server, 'csrf@example.com');
    const victim = (await signIn(server, email)).browser;
    const sessionBefore = victim.cookies.get('fs_session')!;
    const attacker = (await signIn(server, await user(server, 'attacker@example.com'))).browser;
    const attackerToken = Browser.csrfOf(await (await attacker.get('/account')).text());

    for (const token of [undefined, '', attackerToken]) {
      const form: Record<string, string> = token === undefined ? {} : { _csrf: token };
      const label = token === undefined ? 'no token' : token === '' ? 'empty token' : "the attacker's token";
      const change = await victim.post('/account/password', {
        ...form,
        current: PASSWORD,
        password: 'attacker chosen pass',
        confirm: 'attacker chosen pass',
      });
      expect(change.status, label).toBe(403);
      expect(await change.text()).toContain('missing its security token');
      expect((await victim.post('/account/sign-out', form)).status, label).toBe(403);
    }
    // The password and the session are as they were.
    expect(victim.cookies.get('fs_session')).toBe(sessionBefore);
    expect((await victim.get('/account')).status).toBe(200);
    expect((await signIn(server, email)).response.status).toBe(303);

    // Sign-in itself (login CSRF): the right password without the token signs nobody in.
    const fresh = new Browser(server.url);
    await fresh.get('/account/sign-in');
    const blind = await fresh.post('/account/sign-in', { email, password: PASSWORD });
    expect(blind.status).toBe(403);
    expect(fresh.cookies.has('fs_session')).toBe(false);
    // A token is bound to its browser's form cookie: one browser's token fails in another.
    const other = new Browser(server.url);
    const otherToken = Browser.csrfOf(await (await other.get('/account/sign-in')).text());
    expect((await fresh.post('/account/sign-in', { _csrf: otherToken, email, password: PASSWORD })).status).toBe(403);

    // Set-password: the link stays usable.
    const invitation = await server.auth.invite('acme', 'csrf-link@example.com');
    const noToken = await fresh.post('/account/set-password', { token: invitation.token, password: PASSWORD, confirm: PASSWORD });
    expect(noToken.status).toBe(403);
    expect(await server.auth.inviteEmail(invitation.token)).toBe('csrf-link@example.com');
  });

  it('when a session cookie is set over http, then it is HttpOnly, SameSite=Lax, Path=/account, not Secure; X-Forwarded-Proto from an untrusted peer changes nothing', async () => {
    const email = await user(server, 'cookies@example.com');
    const { response } = await signIn(server, email, { 'x-forwarded-proto': 'https' });
    expect(response.status).toBe(303);
    const cookies = response.headers.getSetCookie();
    const session = cookies.find((c) => c.startsWith('fs_session='))!;
    expect(session).toMatch(/^fs_session=[A-Za-z0-9_-]{43}; Path=\/account; HttpOnly; SameSite=Lax$/);
    expect(cookies.some((c) => c.startsWith('__Secure-') || c.startsWith('__Host-'))).toBe(false);
    // The form cookie has the same flags.
    const form = (await fetch(`${server.url}/account/sign-in`)).headers.getSetCookie()[0]!;
    expect(form).toMatch(/^fs_form=[A-Za-z0-9_-]{43}; Path=\/account; HttpOnly; SameSite=Lax$/);
  });

  it('when a page is served, then it is never cached, framed or indexed, loads nothing else and sends no referrer', async () => {
    const response = await fetch(`${server.url}/account/sign-in`);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-security-policy')).toMatch(
      /^default-src 'none'; style-src 'sha256-[^']+'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'$/,
    );
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-robots-tag')).toMatch(/noindex/);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it('when users set passwords, sign in, change passwords and sign out, then no password, session id, link token or form token is logged', async () => {
    const invitation = await server.auth.invite('globex', 'logs@example.com');
    const browser = new Browser(server.url);
    const link = await (await browser.get(`/account/set-password?token=${invitation.token}`)).text();
    const formToken = Browser.csrfOf(link);
    await browser.post('/account/set-password', { _csrf: formToken, token: invitation.token, password: PASSWORD, confirm: PASSWORD });
    const firstSession = browser.cookies.get('fs_session')!;
    const page = await (await browser.get('/account/password')).text();
    const sessionToken = Browser.csrfOf(page);
    const NEW = 'the new one, also long';
    await browser.post('/account/password', { _csrf: sessionToken, current: PASSWORD, password: NEW, confirm: NEW });
    const secondSession = browser.cookies.get('fs_session')!;
    await browser.post('/account/sign-out', { _csrf: Browser.csrfOf(await (await browser.get('/account')).text()) });
    const wrong = new Browser(server.url);
    await wrong.post('/account/sign-in', {
      _csrf: Browser.csrfOf(await (await wrong.get('/account/sign-in')).text()),
      email: 'logs@example.com',
      password: 'guessed password 1',
    });

    const logs = server.logs();
    expect(logs).toContain('account_password_changed'); // the checks below look at real lines
    expect(logs).toContain('account_sign_in_refused');
    for (const secret of [
      PASSWORD,
      NEW,
      'guessed password 1',
      invitation.token,
      firstSession,
      secondSession,
      formToken,
      sessionToken,
      browser.cookies.get('fs_form')!,
    ]) {
      expect(logs).not.toContain(secret);
    }
  });
});

describe('account pages behind a trusted proxy (TRUST_PROXY=true)', () => {
  let server: AccountServer;

  beforeAll(async () => {
    server = await serveAccountPages({ trustProxy: true });
  }, 120_000);
  afterAll(() => server?.close());

  it('when the proxy says https, then the session and form cookies take the __Host- prefix (Secure, Path=/) and the session works', async () => {
    const email = await user(server, 'proxied@example.com');
    const https = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.1' };
    const form = (await fetch(`${server.url}/account/sign-in`, { headers: https })).headers.getSetCookie()[0]!;
    expect(form).toMatch(/^__Host-fs_form=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Secure$/);
    const { browser, response } = await signIn(server, email, https);
    expect(response.status).toBe(303);
    const session = response.headers.getSetCookie().find((c) => c.startsWith('__Host-fs_session='))!;
    expect(session).toMatch(/^__Host-fs_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Secure$/);
    expect((await browser.get('/account')).status).toBe(200);
  });

  it('when a sibling subdomain plants a form cookie without the __Host- prefix, then the server does not read it and sets its own', async () => {
    const https = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.2' };
    const planter = new Browser(server.url, https);
    planter.cookies.set('__Secure-fs_form', 'P'.repeat(43));
    const page = await (await planter.get('/account/sign-in')).text();
    // The server ignored the planted cookie and set its own __Host- one.
    expect(planter.cookies.get('__Host-fs_form')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(planter.cookies.get('__Host-fs_form')).not.toBe('P'.repeat(43));
    expect(page).toContain('name="_csrf"');
  });
});

describe('sign-in limits over HTTP (3 failures per email from one address, 6 per address, per 15 minutes)', () => {
  let server: AccountServer;
  let checks = 0;

  beforeAll(async () => {
    server = await serveAccountPages({
      trustProxy: true,
      auth: {
        limits: { perEmailAndAddress: { failures: 3, windowMs: 15 * MINUTE }, perAddress: { failures: 6, windowMs: 15 * MINUTE } },
        passwordMatches: async (password, stored) => {
          checks += 1;
          return passwordMatches(password, stored);
        },
      },
    });
  }, 120_000);
  afterAll(() => server?.close());

  async function attempt(email: string, password: string, ip: string): Promise<Response> {
    const browser = new Browser(server.url, { 'x-forwarded-for': ip });
    const page = await (await browser.get('/account/sign-in')).text();
    return browser.post('/account/sign-in', { _csrf: Browser.csrfOf(page), email, password });
  }

  it('when one email fails 3 times from one address, then 429 there with Retry-After, even with the right password, with the same words for an unknown email', async () => {
    const email = await user(server, 'limited@example.com');
    for (let i = 0; i < 3; i += 1) expect((await attempt(email, `wrong password ${i}`, '203.0.113.1')).status).toBe(401);
    const refused = await attempt(email, PASSWORD, '203.0.113.1');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(800);
    const html = await refused.text();
    expect(html).toContain('Too many failed sign-ins from this address or for this email. Try again in 15 minutes.');

    for (let i = 0; i < 3; i += 1) await attempt('ghost@example.com', `wrong password ${i}`, '203.0.113.10');
    const ghost = await attempt('ghost@example.com', PASSWORD, '203.0.113.10');
    expect(ghost.status).toBe(429);
    expect((await ghost.text()).replace('ghost@example.com', 'EMAIL').replace(/name="_csrf" value="[^"]+"/, '')).toBe(
      html.replace(email, 'EMAIL').replace(/name="_csrf" value="[^"]+"/, ''),
    );
  });

  it("when a stranger fails 3 times for a user's email from elsewhere, then the user still signs in from their own address", async () => {
    const email = await user(server, 'targeted@example.com');
    for (let i = 0; i < 3; i += 1) expect((await attempt(email, `lockout try ${i}`, '198.51.100.99')).status).toBe(401);
    expect((await attempt(email, PASSWORD, '198.51.100.99')).status).toBe(429);
    expect((await attempt(email, PASSWORD, '192.0.2.200')).status).toBe(303);
  });

  it('when 20 sign-ins with one form token arrive at once from one address, then no more passwords are checked than the limit allows', async () => {
    const email = await user(server, 'raced@example.com');
    const browser = new Browser(server.url, { 'x-forwarded-for': '203.0.113.77' });
    const csrf = Browser.csrfOf(await (await browser.get('/account/sign-in')).text());
    checks = 0;
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        browser.post('/account/sign-in', { _csrf: csrf, email, password: `guess ${i}` }).then((r) => r.status),
      ),
    );
    const checkedAtOnce = checks;
    expect(checkedAtOnce).toBeLessThanOrEqual(3);
    expect(statuses.filter((s) => s === 401)).toHaveLength(checkedAtOnce);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20 - checkedAtOnce);
    // Sequentially, the rest of the allowance and no more.
    const later = [];
    for (let i = 0; i < 4; i += 1)
      later.push((await browser.post('/account/sign-in', { _csrf: csrf, email, password: `later ${i}` })).status);
    expect(later.filter((s) => s === 401)).toHaveLength(3 - checkedAtOnce);
    expect(checks).toBe(3);
  });

  it('when a signed-in user gets the current password wrong 3 times, then the change-password form answers 429 too', async () => {
    const email = await user(server, 'changer@example.com');
    const { browser } = await signIn(server, email, { 'x-forwarded-for': '203.0.113.80' });
    const csrf = Browser.csrfOf(await (await browser.get('/account/password')).text());
    const NEW = 'a brand new passphrase';
    for (let i = 0; i < 3; i += 1)
      expect((await browser.post('/account/password', { _csrf: csrf, current: `not it ${i}`, password: NEW, confirm: NEW })).status).toBe(
        401,
      );
    const refused = await browser.post('/account/password', { _csrf: csrf, current: PASSWORD, password: NEW, confirm: NEW });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(800);
    expect(await refused.text()).toMatch(/too many wrong passwords; try again in \d+ s/);
  });

  it('when one address fails 6 times over many emails, then it gets 429; another address still signs in', async () => {
    const email = await user(server, 'neighbour@example.com');
    for (let i = 0; i < 6; i += 1) expect((await attempt(`guess${i}@example.com`, 'some guess or other', '192.0.2.66')).status).toBe(401);
    expect((await attempt(email, PASSWORD, '192.0.2.66')).status).toBe(429);
    expect((await attempt(email, PASSWORD, '192.0.2.67')).status).toBe(303);
  });

  it('when a sign-in fails, then the service state keeps no plain SHA-256 of the email, only an HMAC under the server secret', async () => {
    const email = 'hashed-subject@example.com';
    await attempt(email, 'not the password', '203.0.113.90');
    const subjects = (await server.db.all<{ subject: string }>('SELECT subject FROM sign_in_failures')).map((row) => row.subject);
    expect(subjects.length).toBeGreaterThan(0);
    const sha = createHash('sha256').update(email).digest('hex');
    for (const subject of subjects) {
      expect(subject).not.toContain(sha);
      expect(subject).not.toContain(email);
    }
    const keyed = createHmac('sha256', signInKeyFrom(loadKeyHashSecret(server.dataDir)))
      .update(`${email}\n203.0.113.90`)
      .digest('hex');
    expect(subjects).toContain(`pair:${keyed}`);
  });
});

describe('sign-in under load: the password-check queue is bounded (real scrypt)', () => {
  let server: AccountServer;

  beforeAll(async () => {
    server = await serveAccountPages({ trustProxy: true });
  }, 120_000);
  afterAll(() => server?.close());

  it('when more sign-ins from distinct addresses arrive than the queue holds, then the excess gets 503 with Retry-After at once and counts nothing', async () => {
    const email = await user(server, 'queued@example.com');
    const total = MAX_WAITING_CHECKS + 2 + 4; // two checks run, MAX_WAITING_CHECKS wait, the rest are turned away
    const browsers = await Promise.all(
      Array.from({ length: total }, async (_, i) => {
        const browser = new Browser(server.url, { 'x-forwarded-for': `198.18.0.${i + 1}` });
        return { browser, csrf: Browser.csrfOf(await (await browser.get('/account/sign-in')).text()) };
      }),
    );
    const answers = await Promise.all(
      browsers.map(({ browser, csrf }) => browser.post('/account/sign-in', { _csrf: csrf, email, password: 'a wrong password here' })),
    );
    const busy = answers.filter((r) => r.status === 503);
    expect(busy.length).toBeGreaterThanOrEqual(4);
    expect(answers.filter((r) => r.status === 401)).toHaveLength(total - busy.length);
    for (const response of busy) {
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await response.text()).toContain('Sign-in is very busy right now; nothing was checked.');
    }
    const counted = await server.db.get<{ n: number | string }>(
      "SELECT count(*) AS n FROM sign_in_failures WHERE subject LIKE 'ip:198.18.0.%'",
    );
    expect(Number(counted?.n)).toBe(total - busy.length);
  }, 120_000);

  it('when a second sign-in from one address arrives while its first is being checked, then 429 at once; the first completes', async () => {
    const email = await user(server, 'twice@example.com');
    const browser = new Browser(server.url, { 'x-forwarded-for': '198.18.1.1' });
    const csrf = Browser.csrfOf(await (await browser.get('/account/sign-in')).text());
    const first = browser.post('/account/sign-in', { _csrf: csrf, email, password: PASSWORD });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = await browser.post('/account/sign-in', { _csrf: csrf, email, password: PASSWORD });
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBe('1');
    expect(await second.text()).toContain('Another sign-in from this address is still being checked.');
    expect((await first).status).toBe(303);
  });

  it('when a sign-in fails, then it is answered after the failure delay and keeps its address busy: a second one meanwhile gets 429 unread', async () => {
    const email = await user(server, 'slowfail@example.com');
    const browser = new Browser(server.url, { 'x-forwarded-for': '198.18.1.2' });
    const csrf = Browser.csrfOf(await (await browser.get('/account/sign-in')).text());
    const started = performance.now();
    const wrong = browser.post('/account/sign-in', { _csrf: csrf, email, password: 'not the password at all' });
    // Well past the password check (tens of ms at the tests' scrypt cost), inside the delay.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const meanwhile = await browser.post('/account/sign-in', { _csrf: csrf, email, password: PASSWORD });
    expect(meanwhile.status).toBe(429);
    expect(await meanwhile.text()).toContain('Another sign-in from this address is still being checked.');
    expect((await wrong).status).toBe(401);
    expect(performance.now() - started).toBeGreaterThanOrEqual(DEFAULT_FAILURE_DELAY_MS);
    expect((await browser.post('/account/sign-in', { _csrf: csrf, email, password: PASSWORD })).status).toBe(303);
  });
});
