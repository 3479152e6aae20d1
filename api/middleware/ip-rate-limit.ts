import type { Context, Middleware } from 'koa';
import { addressKey } from '../client-address.ts';
import { tooManyRequests } from '../../common/app-error.ts';

export interface IpRateLimitOptions {
  /** Requests allowed per address in any window of `windowMs`. */
  limit: number;
  windowMs: number;
  /** What is limited, for the 429 detail ("verification requests"). */
  what: string;
  /** Addresses tracked at once before idle ones are dropped (bounds memory under many clients). */
  maxTrackedIps?: number;
  /** The client's address as limits count it (api/client-address.ts); the socket's peer by default. */
  addressOf?: (ctx: Context) => string;
  now?: () => number;
}

/**
 * A sliding-window limit per client address (`addressOf`: the same address every limit uses,
 * behind trusted proxies the forwarded one, IPv6 per /64). Each address keeps the times of its accepted requests in the last window;
 * a request beyond `limit` gets 429 with a JSON `detail` and `Retry-After`, and is not counted.
 * No X-RateLimit-* headers are sent (spec "Limits").
 */
export function ipRateLimit(options: IpRateLimitOptions): Middleware {
  const now = options.now ?? Date.now;
  const maxTracked = options.maxTrackedIps ?? 100_000;
  const seen = new Map<string, number[]>();

  const forget = (cutoff: number) => {
    for (const [ip, times] of seen) if (times[times.length - 1]! <= cutoff) seen.delete(ip);
    // Still too many busy addresses: drop the least recently seen tenth (Map keeps insertion
    // order), so a flood of new addresses costs one sweep per maxTracked/10 requests, not one each.
    const keep = Math.floor(maxTracked * 0.9);
    for (const ip of seen.keys()) {
      if (seen.size <= keep) break;
      seen.delete(ip);
    }
  };

  const addressOf = options.addressOf ?? ((ctx: Context) => addressKey(ctx.ip)); // Koa's ctx.ip: the peer, as the app trusts no proxy
  return async (ctx, next) => {
    const at = now();
    const cutoff = at - options.windowMs;
    const address = addressOf(ctx);
    const times = seen.get(address) ?? [];
    while (times.length > 0 && times[0]! <= cutoff) times.shift();
    if (times.length >= options.limit) {
      const retryAfter = Math.max(1, Math.ceil((times[0]! + options.windowMs - at) / 1000));
      ctx.set('Retry-After', String(retryAfter));
      throw tooManyRequests(
        `too many ${options.what} from ${address}: the limit is ${options.limit} per ${options.windowMs / 1000} s per IP address; retry in ${retryAfter} s`,
        'rate_limited',
      );
    }
    times.push(at);
    seen.delete(address); // re-inserted last: the map's order is least recently seen first
    seen.set(address, times);
    if (seen.size > maxTracked) forget(cutoff);
    await next();
  };
}
