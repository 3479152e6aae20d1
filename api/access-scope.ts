import type { Context, Middleware } from 'koa';
import { FRAMEWORK_IDS, type FrameworkId } from '../engine/index.ts';
import { forbidden } from '../common/app-error.ts';
import type { ApiState, EndpointDeclaration, Grant } from '../common/grants.ts';

/**
 * The seam access control plugs into. Every API route declares its endpoint
 * tag and unit cost before anything else runs; the access-control middleware reads
 * `ctx.state.endpoint`, checks the key and sets `ctx.state.grant`; handlers scope responses
 * through the two functions below, which are the only places that decide what a grant allows.
 */

/** The request's grant, when access control set one. */
export function grantOf(ctx: Context): Grant | undefined {
  return (ctx.state as ApiState).grant;
}

/** Declares the route's endpoint tag and cost; `decide` may look at the parsed request (as_of, batch size). */
export function declareEndpoint(decide: (ctx: Context) => EndpointDeclaration): Middleware {
  return async (ctx, next) => {
    (ctx.state as ApiState).endpoint = decide(ctx);
    await next();
  };
}

/**
 * The frameworks a response may carry. `requested` is the caller's explicit `framework` filter
 * (null = all). With a grant that lists frameworks, an explicit id outside it is a 403 naming
 * the denied ids, and an unfiltered request gets the granted ones. Without a grant every
 * framework is returned, `service_consensus` included; its own grant is access control's call.
 */
export function scopeFrameworks(requested: readonly FrameworkId[] | null, grant: Grant | undefined): FrameworkId[] {
  const allowed = grant?.allowedFrameworks ?? null;
  const wanted = requested ?? FRAMEWORK_IDS;
  if (allowed === null) return [...wanted];
  if (requested !== null) {
    const denied = requested.filter((id) => !allowed.includes(id));
    if (denied.length > 0) {
      throw forbidden(
        `this key is not provisioned for framework(s) ${denied.join(', ')}; it may see: ${allowed.join(', ') || 'none'}`,
        'framework_not_granted',
      );
    }
  }
  return wanted.filter((id) => allowed.includes(id));
}

/** Throws 403 when the grant does not cover `market`. */
export function assertMarketGranted(market: string, grant: Grant | undefined): void {
  const allowed = grant?.allowedMarkets ?? null;
  if (allowed !== null && !allowed.includes(market)) {
    throw forbidden(
      `this key is not provisioned for market '${market}'; it may use: ${allowed.join(', ') || 'none'}`,
      'market_not_granted',
    );
  }
}
