import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, serveAccountPages, type AccountServer } from './support/account-server.ts';

const PASSWORD = 'correct horse battery staple';

describe('account sign-in over real HTTP', () => {
  let server: AccountServer;

  beforeAll(async () => {
    server = await serveAccountPages();
  }, 120_000);
  afterAll(() => server?.close());

  /** A user of `account` with PASSWORD set through the link flow. */
  async function user(account: string, email: string): Promise<void> {
    const invitation = await server.auth.invite(account, email);
    const set = await server.auth.setPasswordWithInvite(invitation.token, PASSWORD);
    if (!set.ok) throw new Error(set.message);
  }

  it('when a signed-out browser opens an account page, then it is sent to sign-in and comes back after', async () => {
    await user('acme', 'ann@example.com');
    const browser = new Browser(server.url);
    const gated = await browser.get('/account/password');
    expect(gated.status).toBe(303);
    expect(gated.headers.get('location')).toBe('/account/sign-in?next=%2Faccount%2Fpassword');
    const page = await browser.get('/account/sign-in?next=%2Faccount%2Fpassword');
    expect(page.status).toBe(200);
    const html = await page.text();
    const signedIn = await browser.post('/account/sign-in', {
      _csrf: Browser.csrfOf(html),
      next: '/account/password',
      email: 'ann@example.com',
      password: PASSWORD,
    });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/account/password');
    const home = await browser.get('/account');
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('id="signed-in-email">ann@example.com');
  });
});
