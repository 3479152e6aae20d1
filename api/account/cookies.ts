import type { Context } from 'koa';
import { isHttps } from './account-http.ts';

/**
 * The account pages' cookies: HttpOnly, SameSite=Lax, Path=/account, and Secure with the
 * `__Secure-` name prefix when the page was served over https (docs/access.md, "Sessions and
 * cookies"). Written by hand rather than through ctx.cookies, which refuses Secure cookies
 * whenever Koa itself does not trust the proxy.
 */
export const SESSION_COOKIE = 'fs_session';
/** Binds the form token of pages shown before sign-in (api/account/csrf.ts). */
export const FORM_COOKIE = 'fs_form';

const PATH = '/account';

export function cookieName(ctx: Context, trustProxy: boolean, base: string): string {
  return isHttps(ctx, trustProxy) ? `__Secure-${base}` : base;
}

export function readCookie(ctx: Context, trustProxy: boolean, base: string): string | undefined {
  return ctx.cookies.get(cookieName(ctx, trustProxy, base)) ?? undefined;
}

/** Sets a cookie that ends with the browser session (the server decides expiry) or, with maxAgeSeconds 0, deletes it. */
export function writeCookie(ctx: Context, trustProxy: boolean, base: string, value: string, maxAgeSeconds?: number): void {
  const secure = isHttps(ctx, trustProxy);
  const parts = [`${cookieName(ctx, trustProxy, base)}=${value}`, `Path=${PATH}`, 'HttpOnly', 'SameSite=Lax'];
  if (secure) parts.push('Secure');
  if (maxAgeSeconds !== undefined) parts.push(`Max-Age=${maxAgeSeconds}`);
  ctx.append('Set-Cookie', parts.join('; '));
}

export function clearCookie(ctx: Context, trustProxy: boolean, base: string): void {
  writeCookie(ctx, trustProxy, base, '', 0);
}
