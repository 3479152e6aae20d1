import type { Context } from 'koa';
import { isHttps } from './account-http.ts';

/**
 * The account pages' cookies: HttpOnly and SameSite=Lax (docs/access.md, "Sessions and
 * cookies"). Over http they are scoped to Path=/account; over https they take the `__Host-`
 * name prefix, which browsers accept only with Secure, Path=/ and no Domain, so a sibling
 * subdomain can neither set nor overwrite them (a planted form cookie would let its planter
 * forge the form token). Written by hand rather than through ctx.cookies, which refuses Secure
 * cookies whenever Koa itself does not trust the proxy.
 */
export const SESSION_COOKIE = 'fs_session';
/** Binds the form token of pages shown before sign-in (api/account/csrf.ts). */
export const FORM_COOKIE = 'fs_form';

const PATH = '/account';

export function cookieName(ctx: Context, trustProxy: boolean, base: string): string {
  return isHttps(ctx, trustProxy) ? `__Host-${base}` : base;
}

export function readCookie(ctx: Context, trustProxy: boolean, base: string): string | undefined {
  return ctx.cookies.get(cookieName(ctx, trustProxy, base)) ?? undefined;
}

/** Sets a cookie that ends with the browser session (the server decides expiry) or, with maxAgeSeconds 0, deletes it. */
export function writeCookie(ctx: Context, trustProxy: boolean, base: string, value: string, maxAgeSeconds?: number): void {
  const secure = isHttps(ctx, trustProxy);
  const parts = [`${cookieName(ctx, trustProxy, base)}=${value}`, `Path=${secure ? '/' : PATH}`, 'HttpOnly', 'SameSite=Lax'];
  if (secure) parts.push('Secure');
  if (maxAgeSeconds !== undefined) parts.push(`Max-Age=${maxAgeSeconds}`);
  ctx.append('Set-Cookie', parts.join('; '));
}

export function clearCookie(ctx: Context, trustProxy: boolean, base: string): void {
  writeCookie(ctx, trustProxy, base, '', 0);
}
