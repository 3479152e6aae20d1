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
}

/** True when the browser reached us over https: the socket itself, or a trusted proxy's word. */
export function isHttps(ctx: Context, trustProxy: boolean): boolean {
  if ((ctx.req.socket as { encrypted?: boolean }).encrypted === true) return true;
  if (!trustProxy) return false;
  const forwarded = ctx.get('x-forwarded-proto').split(',')[0]?.trim().toLowerCase();
  return forwarded === 'https';
}

/**
 * The client's address for sign-in limits: the socket's peer, or behind a trusted proxy the last
 * X-Forwarded-For entry (the one that proxy appended; earlier entries are the client's to forge).
 */
export function clientIp(ctx: Context, trustProxy: boolean): string {
  const peer = ctx.req.socket.remoteAddress ?? 'unknown';
  if (!trustProxy) return peer;
  const entries = ctx
    .get('x-forwarded-for')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  return entries[entries.length - 1] ?? peer;
}
