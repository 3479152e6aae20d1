import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Middleware } from 'koa';
import { sendAccountPage } from '../pages/account-layout.ts';

/**
 * Form tokens against cross-site request forgery (docs/access.md, "Forms and CSRF"): every
 * account form carries `_csrf` = HMAC(server key, what the form is bound to). Signed in, the
 * binding is the session id (a synchronizer token that changes when the session rotates);
 * before sign-in, it is the random `fs_form` cookie (a signed double-submit). Nothing extra is
 * stored, and another site can neither read nor compute the token.
 */
export function formToken(csrfKey: Buffer, binding: { session: string } | { form: string }): string {
  const subject = 'session' in binding ? `session:${binding.session}` : `form:${binding.form}`;
  return createHmac('sha256', csrfKey).update(subject, 'utf8').digest('base64url');
}

function sameToken(presented: unknown, expected: string): boolean {
  if (typeof presented !== 'string') return false;
  const a = Buffer.from(presented, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The HMAC key for form tokens, derived from the service's key-hash secret so there is no second secret file. */
export function csrfKeyFrom(hashSecret: Buffer): Buffer {
  return createHmac('sha256', hashSecret).update('faithscreen account form tokens', 'utf8').digest();
}

/**
 * Refuses a form post whose `_csrf` field is missing or is not the token of this request's
 * session (or form cookie) with a 403 page. Runs after the form body is parsed and after
 * `loadAccountSession`/`requireAccountSession` set `ctx.state.csrfToken`.
 */
export const requireCsrf: Middleware = async (ctx, next) => {
  const body = (ctx.request as { body?: Record<string, unknown> }).body ?? {};
  const expected = ctx.state.csrfToken as string | undefined;
  if (expected === undefined || !sameToken(body._csrf, expected)) {
    sendAccountPage(
      ctx,
      {
        title: 'Form expired',
        main:
          `<h1>This form could not be accepted</h1>
<div class="message error" role="alert" id="form-error"><p>The form was missing its security token, or ` +
          `it was sent from another page or an older session. Nothing was changed.</p></div>
<p>Go back, reload the page and send the form again. <a href="/account">Account</a></p>`,
      },
      403,
    );
    return;
  }
  await next();
};
