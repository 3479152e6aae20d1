import { isIPv4, isIPv6 } from 'node:net';
import type { Context } from 'koa';

/**
 * The client's address as every limit counts it (sign-in, verification): the socket's peer, or,
 * behind `trustedHops` proxies the operator runs (TRUST_PROXY, TRUST_PROXY_HOPS), the
 * X-Forwarded-For entry the outermost of them appended; entries before it are the client's to
 * forge. An IPv6 client counts per /64, the block one subscriber usually holds, so rotating
 * through it gains nothing; an IPv4-mapped IPv6 address counts as its IPv4 address.
 */
export function clientAddress(ctx: Context, trustedHops: number): string {
  return addressKey(forwardedClient(ctx, trustedHops) ?? ctx.req.socket.remoteAddress ?? 'unknown');
}

function forwardedClient(ctx: Context, trustedHops: number): string | undefined {
  if (trustedHops <= 0) return undefined;
  const entries = ctx
    .get('x-forwarded-for')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) return undefined;
  // Fewer entries than proxies: the nearest is the best that is known.
  return entries[Math.max(0, entries.length - trustedHops)];
}

/** What a limit counts an address as: IPv4 as it is, IPv6 by its /64 (`2001:db8:1:2::/64`). */
export function addressKey(address: string): string {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return mapped[1]!;
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return bare.slice(0, 64); // not an address (a forged header): counted as written, bounded
  return `${ipv6Groups(bare).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, lower-case hex without leading zeros. */
function ipv6Groups(address: string): string[] {
  let text = address.toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...(tail === undefined ? [] : zeros), ...right].map((group) => parseInt(group, 16).toString(16));
}
