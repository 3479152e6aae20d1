import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, serveAccountPages, type AccountServer } from './support/account-server.ts';

const PASSWORD = 'correct horse battery staple';

describe('account sign-in, set-password, password change and sign-out over real HTTP', () => {
  let server: AccountServer;
  let users = 0;

  beforeAll(async () => {
    server = await serveAccountPages();
  }, 120_000);
  afterAll(() => server?.close());

  /** A new user of `account` with PASSWORD set through the link flow; returns the email. */
  async function user(account = 'acme'): Promise<string> {
    const email = `user${++users}@example.com`;
    const invitation = await server.auth.invite(account, email);
    const set = await server.auth.setPasswordWithInvite(invitation.token, PASSWORD);
    if (!set.ok) throw new Error(set.message);
    return email;
  }

  async function signedIn(email: string, password = PASSWORD): Promise<Browser> {
    const browser = new Browser(server.url);
    const page = await (await browser.get('/account/sign-in')).text();
    const response = await browser.post('/account/sign-in', { _csrf: Browser.csrfOf(page), email, password });
    if (response.status !== 303) throw new Error(`sign-in answered ${response.status}`);
    return browser;
  }

  it('when a signed-out browser opens an account page, then it is sent to sign-in and comes back after', async () => {
    const email = await user();
    const browser = new Browser(server.url);
    const gated = await browser.get('/account/password');
    expect(gated.status).toBe(303);
    expect(gated.headers.get('location')).toBe('/account/sign-in?next=%2Faccount%2Fpassword');
    const page = await browser.get('/account/sign-in?next=%2Faccount%2Fpassword');
    expect(page.status).toBe(200);
    const signedInResponse = await browser.post('/account/sign-in', {
      _csrf: Browser.csrfOf(await page.text()),
      next: '/account/password',
      email,
      password: PASSWORD,
    });
    expect(signedInResponse.status).toBe(303);
    expect(signedInResponse.headers.get('location')).toBe('/account/password');
    const home = await browser.get('/account');
    expect(home.status).toBe(200);
    const html = await home.text();
    expect(html).toContain(`id="signed-in-email">${email}`);
    expect(html).toContain('id="signed-in-account">acme');
    // Signed in, the sign-in page sends the browser on.
    expect((await browser.get('/account/sign-in')).headers.get('location')).toBe('/account');
  });

  it('when next points off the account pages or off the site, then sign-in lands on /account instead', async () => {
    const email = await user();
    for (const next of ['https://evil.test/phish', '//evil.test', '/api/screen/us/AAPL', '/account/../admin']) {
      const browser = new Browser(server.url);
      const page = await (await browser.get('/account/sign-in')).text();
      const response = await browser.post('/account/sign-in', { _csrf: Browser.csrfOf(page), next, email, password: PASSWORD });
      expect(response.headers.get('location'), next).toBe('/account');
    }
  });

  it('when an invited user opens the link and sets a password, then they are signed in; the link then answers 410', async () => {
    const invitation = await server.auth.invite('globex', 'new.user@example.com');
    const browser = new Browser(server.url);
    const link = `/account/set-password?token=${invitation.token}`;
    const page = await browser.get(link);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('id="invite-email">new.user@example.com');
    const csrf = Browser.csrfOf(html);

    const mismatch = await browser.post('/account/set-password', {
      _csrf: csrf,
      token: invitation.token,
      password: PASSWORD,
      confirm: `${PASSWORD}!`,
    });
    expect(mismatch.status).toBe(422);
    expect(await mismatch.text()).toContain('The two passwords are not the same');
    const weak = await browser.post('/account/set-password', { _csrf: csrf, token: invitation.token, password: 'short', confirm: 'short' });
    expect(weak.status).toBe(422);
    expect(await weak.text()).toContain('at least 12 characters');

    const set = await browser.post('/account/set-password', {
      _csrf: csrf,
      token: invitation.token,
      password: PASSWORD,
      confirm: PASSWORD,
    });
    expect(set.status).toBe(303);
    expect(set.headers.get('location')).toBe('/account?welcome=1');
    const home = await browser.get('/account?welcome=1');
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('Your password is set and you are signed in.');

    const reopened = await new Browser(server.url).get(link);
    expect(reopened.status).toBe(410);
    expect(await reopened.text()).toContain('expired or was already used');
    // Someone else with the link (and a valid form token of their own) cannot use it again.
    const thief = new Browser(server.url);
    const thiefForm = Browser.csrfOf(await (await thief.get('/account/sign-in')).text());
    const reused = await thief.post('/account/set-password', {
      _csrf: thiefForm,
      token: invitation.token,
      password: 'another long password',
      confirm: 'another long password',
    });
    expect(reused.status).toBe(410);
    expect((await signedIn('new.user@example.com')).cookies.has('fs_session')).toBe(true);
  });

  it('when a link carries its token in the fragment, then the page asks for no token in the URL and the form posts it', async () => {
    const invitation = await server.auth.invite('acme', 'fragment@example.com');
    const browser = new Browser(server.url);
    // What a browser requests for /account/set-password#token=…: the fragment never leaves it.
    const page = await browser.get('/account/set-password');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'sha256-[^']+';/);
    const html = await page.text();
    expect(html).toContain('<input id="field-token" name="token" type="text"');
    expect(html).toContain("history.replaceState(null,'',location.pathname)");
    expect(html).not.toContain(invitation.token);
    const set = await browser.post('/account/set-password', {
      _csrf: Browser.csrfOf(html),
      token: invitation.token,
      password: PASSWORD,
      confirm: PASSWORD,
    });
    expect(set.status).toBe(303);
    expect(set.headers.get('location')).toBe('/account?welcome=1');
    expect(server.logs()).not.toContain(invitation.token);
  });

  it('when the link has expired or is not a link at all, then 410 with the same page', async () => {
    const invitation = await server.auth.invite('acme', 'late@example.com', 1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const browser = new Browser(server.url);
    const expired = await browser.get(`/account/set-password?token=${invitation.token}`);
    expect(expired.status).toBe(410);
    const expiredHtml = await expired.text();
    expect(expiredHtml).toContain('This link is not valid');
    const page = await (await browser.get('/account/sign-in')).text();
    const posted = await browser.post('/account/set-password', {
      _csrf: Browser.csrfOf(page),
      token: invitation.token,
      password: PASSWORD,
      confirm: PASSWORD,
    });
    expect(posted.status).toBe(410);
    for (const token of ['', 'abc', 'A'.repeat(43)]) expect((await browser.get(`/account/set-password?token=${token}`)).status).toBe(410);
  });

  it('when the password is wrong or the email unknown, then the same 401 page and no session', async () => {
    const email = await user();
    const attempt = async (address: string) => {
      const browser = new Browser(server.url);
      const page = await (await browser.get('/account/sign-in')).text();
      const response = await browser.post('/account/sign-in', {
        _csrf: Browser.csrfOf(page),
        email: address,
        password: 'not the password, sorry',
      });
      const html = await response.text();
      return {
        status: response.status,
        html: html.replace(/name="_csrf" value="[^"]+"/, '').replace(address, 'EMAIL'),
        session: browser.cookies.has('fs_session'),
      };
    };
    const wrong = await attempt(email);
    const unknown = await attempt('nobody-here@example.com');
    expect(wrong.status).toBe(401);
    expect(wrong.html).toContain('That email and password do not match an account.');
    expect(unknown).toEqual(wrong);
    expect(wrong.session).toBe(false);
  });

  it('when a field is missing, then 400 naming it; when the post is not a form, then 415', async () => {
    const browser = new Browser(server.url);
    const page = await (await browser.get('/account/sign-in')).text();
    const missing = await browser.post('/account/sign-in', { _csrf: Browser.csrfOf(page), email: 'a@example.com' });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain('Enter both your email and your password.');
    const json = await fetch(`${server.url}/account/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(415);
    expect(((await json.json()) as { detail: string }).detail).toMatch(/application\/x-www-form-urlencoded/);
  });

  it('when a form is larger than 16 kB, then 413; when a signed-out browser posts an account form, then it is sent to sign-in', async () => {
    const browser = new Browser(server.url);
    const page = await (await browser.get('/account/sign-in')).text();
    const large = await browser.post('/account/sign-in', {
      _csrf: Browser.csrfOf(page),
      email: 'a@example.com',
      password: 'x'.repeat(20_000),
    });
    expect(large.status).toBe(413);
    expect(((await large.json()) as { detail: string }).detail).toBe('form too large: the limit is 16 kB');
    const posted = await browser.post('/account/password', {
      _csrf: Browser.csrfOf(page),
      current: PASSWORD,
      password: 'x'.repeat(20),
      confirm: 'x'.repeat(20),
    });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe('/account/sign-in?next=%2Faccount');
  });

  it('when a browser signs in, then it gets a new session id and any session it presented ends (rotation)', async () => {
    const email = await user();
    const browser = await signedIn(email);
    const before = browser.cookies.get('fs_session')!;
    const page = await (await browser.get('/account/password')).text();
    expect(page).toContain('Change your password');
    // Signing in again from the same browser, with the form token of its current session.
    const again = await browser.post('/account/sign-in', { _csrf: Browser.csrfOf(page), email, password: PASSWORD });
    expect(again.status).toBe(303);
    const after = browser.cookies.get('fs_session')!;
    expect(after).not.toBe(before);
    expect(await server.auth.resolve(before)).toBeNull();
    expect(await server.auth.resolve(after)).toMatchObject({ email });
  });

  it('when a user changes the password, then the current one is checked, the session rotates and other sessions end', async () => {
    const email = await user();
    const browser = await signedIn(email);
    const other = await signedIn(email);
    const before = browser.cookies.get('fs_session')!;
    const page = await (await browser.get('/account/password')).text();
    const csrf = Browser.csrfOf(page);
    const NEW = 'a completely new passphrase';

    const wrong = await browser.post('/account/password', { _csrf: csrf, current: 'nope nope nope', password: NEW, confirm: NEW });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('the current password is not right');
    const mismatch = await browser.post('/account/password', {
      _csrf: csrf,
      current: PASSWORD,
      password: NEW,
      confirm: 'something else entirely',
    });
    expect(mismatch.status).toBe(422);
    const weak = await browser.post('/account/password', { _csrf: csrf, current: PASSWORD, password: 'tiny', confirm: 'tiny' });
    expect(weak.status).toBe(422);

    const changed = await browser.post('/account/password', { _csrf: csrf, current: PASSWORD, password: NEW, confirm: NEW });
    expect(changed.status).toBe(303);
    expect(changed.headers.get('location')).toBe('/account/password?changed=1');
    expect(browser.cookies.get('fs_session')).not.toBe(before);
    expect(await (await browser.get('/account/password?changed=1')).text()).toContain('Your password was changed.');
    expect((await other.get('/account')).status).toBe(303);
    expect((await signedIn(email, NEW)).cookies.has('fs_session')).toBe(true);
  });

  it('when a user signs out, then the cookie is cleared and the old session id opens nothing', async () => {
    const email = await user();
    const browser = await signedIn(email);
    const sessionId = browser.cookies.get('fs_session')!;
    const page = await (await browser.get('/account')).text();
    const out = await browser.post('/account/sign-out', { _csrf: Browser.csrfOf(page) });
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/account/sign-in?signed_out=1');
    expect(out.headers.getSetCookie().join('\n')).toMatch(/fs_session=; Path=\/account; HttpOnly; SameSite=Lax; Max-Age=0/);
    expect(await (await browser.get('/account/sign-in?signed_out=1')).text()).toContain('You are signed out.');
    const replay = new Browser(server.url);
    replay.cookies.set('fs_session', sessionId);
    expect((await replay.get('/account')).status).toBe(303);
    // Signing out again, already signed out, just lands on the sign-in page.
    expect((await replay.post('/account/sign-out', {})).headers.get('location')).toBe('/account/sign-in?signed_out=1');
  });
});
