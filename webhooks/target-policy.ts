import { BlockList, isIP } from 'node:net';
import { HostUnresolved, resolveHost } from './resolve-host.ts';

/**
 * Where a webhook may be delivered (docs/webhooks.md, "Delivery targets"): so the service cannot be
 * turned against hosts on its own network, a target must be https and every address its host
 * resolves to must be public. Operators running locally (and the tests) may allow plain http and
 * private addresses. The check runs when a subscription is created and again, on the very
 * addresses the connection then uses, at every delivery (a host may resolve elsewhere later).
 */
export interface TargetPolicy {
  /** WEBHOOK_ALLOW_HTTP: accept http:// targets (default false: https only). */
  allowHttp: boolean;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: accept loopback, private, link-local and other non-public addresses. */
  allowPrivate: boolean;
  /** DNS servers to ask instead of the system's (tests point this at a local server). */
  dnsServers?: readonly string[];
}

export const STRICT_POLICY: TargetPolicy = { allowHttp: false, allowPrivate: false };

/** Raised when a target is refused; the message says what was wrong and what is accepted. */
export class TargetRefused extends Error {
  override name = 'TargetRefused';
  constructor(
    message: string,
    /** `invalid_url`: not a usable URL at all; `not_allowed`: a URL the policy refuses. */
    readonly kind: 'invalid_url' | 'not_allowed',
  ) {
    super(message);
  }
}

export const MAX_URL_LENGTH = 2048;

// Addresses that are not on the public internet (IANA special-purpose registries). One list per
// family: a BlockList matches IPv4 addresses against IPv6 rules for ::ffff:0:0/96 too.
const NON_PUBLIC_V4 = new BlockList();
const NON_PUBLIC_V6 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NON_PUBLIC_V4.addSubnet(network, prefix, 'ipv4');
// Whole ranges that embed or tunnel an IPv4 address (IPv4-compatible, IPv4-mapped, 6to4, Teredo):
// refused outright, since the IPv4 address inside may be internal and no real host needs them.
for (const [network, prefix] of [
  ['::', 96],
  ['::1', 128],
  ['::ffff:0:0', 96],
  ['2001::', 32],
  ['2002::', 16],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  NON_PUBLIC_V6.addSubnet(network, prefix, 'ipv6');

/** True when `address` (an IP literal) is on the public internet. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return family === 4 ? !NON_PUBLIC_V4.check(address, 'ipv4') : !NON_PUBLIC_V6.check(address, 'ipv6');
}

/**
 * Refuses a resolved address the policy does not allow. The message names the address only when
 * the URL itself did (an IP literal): what an internal name resolves to is not the caller's to learn.
 */
export function checkAddress(policy: TargetPolicy, host: string, address: string): void {
  if (policy.allowPrivate || isPublicAddress(address)) return;
  const what = host === address ? `address ${address} is` : `host ${host} resolves to an address that is`;
  throw new TargetRefused(
    `webhook URL ${what} not a public address (loopback, private, link-local and reserved ranges are refused)`,
    'not_allowed',
  );
}

/** The URL's form: absolute, https (or http when allowed), no credentials, not too long. */
export function parseTargetUrl(policy: TargetPolicy, text: string): URL {
  if (text.length > MAX_URL_LENGTH) throw new TargetRefused(`url: longer than ${MAX_URL_LENGTH} characters`, 'invalid_url');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TargetRefused(`url: '${text}' is not an absolute URL; send e.g. https://hooks.example.com/faithscreen`, 'invalid_url');
  }
  const schemes = policy.allowHttp ? 'https or http' : 'https';
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new TargetRefused(`url: scheme '${url.protocol.replace(':', '')}' is not accepted; use ${schemes}`, 'invalid_url');
  if (url.protocol === 'http:' && !policy.allowHttp)
    throw new TargetRefused('url: plain http is not accepted; webhook targets must use https', 'not_allowed');
  if (url.username !== '' || url.password !== '')
    throw new TargetRefused('url: credentials in the URL are not accepted; authenticate deliveries by their signature', 'invalid_url');
  if (url.hash !== '') throw new TargetRefused('url: a fragment (#…) is not sent over HTTP; remove it', 'invalid_url');
  return url;
}

/** The URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** Resolves the host and checks every address it has; refuses hosts that do not resolve. */
export async function checkTarget(policy: TargetPolicy, text: string): Promise<URL> {
  const url = parseTargetUrl(policy, text);
  const host = hostOf(url);
  let addresses: string[];
  try {
    addresses = isIP(host) !== 0 ? [host] : (await resolveHost(host, policy.dnsServers)).map((entry) => entry.address);
  } catch (error) {
    const code = error instanceof HostUnresolved ? error.code : 'lookup failed';
    throw new TargetRefused(`url: host ${host} does not resolve (${code})`, 'not_allowed');
  }
  for (const address of addresses) checkAddress(policy, host, address);
  return url;
}
