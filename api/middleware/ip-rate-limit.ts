import type { Middleware } from 'koa';
import { tooManyRequests } from '../../common/app-error.ts';

export interface IpRateLimitOptions {
  /** Requests allowed per address in any window of `windowMs`. */
  limit: number;
  windowMs: number;
  /** What is limited, for the 429 detail ("verification requests"). */
  what: string;
  /** Addresses tracked at once before idle ones are dropped (bounds memory under many clients). */
  maxTrackedIps?: number;
  now?: () => number;
}

/**
 * A sliding-window limit per client address (`ctx.ip`: the socket's peer, since the app does not
 * trust proxy headers). Each address keeps the times of its accepted requests in the last window;
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

  return async (ctx, next) => {
    const at = now();
    const cutoff = at - options.windowMs;
    const times = seen.get(ctx.ip) ?? [];
    while (times.length > 0 && times[0]! <= cutoff) times.shift();
    if (times.length >= options.limit) {
      const retryAfter = Math.max(1, Math.ceil((times[0]! + options.windowMs - at) / 1000));
      ctx.set('Retry-After', String(retryAfter));
      throw tooManyRequests(
        `too many ${options.what} from ${ctx.ip}: the limit is ${options.limit} per ${options.windowMs / 1000} s per IP address; retry in ${retryAfter} s`,
        'rate_limited',
      );
    }
    times.push(at);
    seen.delete(ctx.ip); // re-inserted last: the map's order is least recently seen first
    seen.set(ctx.ip, times);
    if (seen.size > maxTracked) forget(cutoff);
    await next();
  };
}
