import type { Context } from 'koa';
import type { AccountAuth } from '../../access/account-users.ts';

/**
 * What the account pages' HTTP layer needs: the account rules, the key for form tokens and
 * whether a proxy in front is trusted (docs/access.md, "Sessions and cookies").
 */
export interface AccountHttp {
  auth: AccountAuth;
  /** Keys the form tokens (api/account/csrf.ts); derived from the service's key-hash secret. */
  csrfKey: Buffer;
  /**
   * TRUST_PROXY: the operator says a proxy in front sets X-Forwarded-Proto and X-Forwarded-For.
   * Only then do those headers decide the cookies' Secure flag and the client address.
   */
  trustProxy: boolean;
  /** With trustProxy: how many proxies in front append to X-Forwarded-For (TRUST_PROXY_HOPS, default 1). */
  trustedProxyHops?: number;
}

/** True when the browser reached us over https: the socket itself, or a trusted proxy's word. */
export function isHttps(ctx: Context, trustProxy: boolean): boolean {
  if ((ctx.req.socket as { encrypted?: boolean }).encrypted === true) return true;
  if (!trustProxy) return false;
  const forwarded = ctx.get('x-forwarded-proto').split(',')[0]?.trim().toLowerCase();
  return forwarded === 'https';
}

/** How many proxies in front to trust for X-Forwarded-For: none unless TRUST_PROXY. */
export function trustedHopsOf(http: AccountHttp): number {
  return http.trustProxy ? (http.trustedProxyHops ?? 1) : 0;
}
