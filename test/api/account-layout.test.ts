import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_PAGE_STYLE, accountPageCsp, renderAccountPage } from '../../api/pages/account-layout.ts';
import { signInPage } from '../../api/pages/account-auth-pages.ts';

const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('the account pages layout', () => {
  it('when values hold markup, then they are escaped, never executed', () => {
    const html = renderAccountPage({
      title: '<b>title</b>',
      main: signInPage({ csrfToken: '"><script>x</script>', next: '/account', email: '"><img src=x onerror=alert(1)>' }).main,
      user: { accountId: 'acme<script>', email: 'a@example.com', csrfToken: 't' },
    });
    expect(html).not.toMatch(/<script>|<img|<b>/);
    expect(html).toContain('&lt;b&gt;title&lt;/b&gt;');
    expect(html).toContain('value="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"');
  });

  it('when a page is signed in, then its header has the account links and a sign-out form with the session token', () => {
    const html = renderAccountPage({
      title: 'Account',
      main: '<h1>x</h1>',
      user: { accountId: 'acme', email: 'a@example.com', csrfToken: 'tok' },
    });
    expect(html).toContain('<form method="post" action="/account/sign-out"><input type="hidden" name="_csrf" value="tok">');
    for (const link of ['/account/api-keys', '/account/upgrade', '/account/password']) expect(html).toContain(`href="${link}"`);
    expect(renderAccountPage({ title: 'Sign in', main: '' })).not.toContain('sign-out');
  });

  it('when a page adds an inline script, then the CSP allows exactly that script and the stylesheet by their hashes', () => {
    expect(accountPageCsp()).toBe(
      `default-src 'none'; style-src ${hashOf(ACCOUNT_PAGE_STYLE)}; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
    );
    const script = "document.querySelector('#copy').hidden = false;";
    expect(accountPageCsp(script)).toContain(`script-src ${hashOf(script)};`);
    expect(renderAccountPage({ title: 't', main: '', script })).toContain(`<script>${script}</script>`);
  });
});
