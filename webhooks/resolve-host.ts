import { Resolver } from 'node:dns/promises';

/** One address a host name resolved to, as `dns.lookup` would give it. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** How long a webhook host's name may take to resolve, all servers and tries together. */
export const DNS_DEADLINE_MS = 5_000;
/** Per query to one server (c-ares doubles it on the next try). */
const QUERY_TIMEOUT_MS = 1_500;
const TRIES = 2;

/** Raised when a name does not resolve; `code` is c-ares' (ENOTFOUND, ETIMEOUT, …), never an address. */
export class HostUnresolved extends Error {
  override name = 'HostUnresolved';
  constructor(
    readonly host: string,
    readonly code: string,
  ) {
    super(`host ${host} does not resolve (${code})`);
  }
}

const LOOPBACK: ResolvedAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

/**
 * A and AAAA records of `host`, asked of DNS servers directly (c-ares), with a deadline. Not
 * `dns.lookup`: that runs getaddrinfo on libuv's four shared threads, where a name whose server
 * never answers holds a thread for as long as the system resolver likes, and a few such names
 * stall every lookup and file read of the process. The hosts file is not read (a webhook target
 * is a public name), except that `localhost` is loopback, as RFC 6761 reserves it.
 * `servers` replaces the system's DNS servers (tests point it at a local server).
 */
export async function resolveHost(host: string, servers?: readonly string[]): Promise<ResolvedAddress[]> {
  const name = host.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return LOOPBACK;
  const resolver = new Resolver({ timeout: QUERY_TIMEOUT_MS, tries: TRIES });
  if (servers) resolver.setServers([...servers]);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      resolver.cancel();
      reject(new HostUnresolved(host, 'ETIMEOUT'));
    }, DNS_DEADLINE_MS);
  });
  try {
    const [v4, v6] = await Promise.race([Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)]), deadline]);
    const addresses: ResolvedAddress[] = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 as const })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 as const })) : []),
    ];
    if (addresses.length > 0) return addresses;
    const failure = [v4, v6].find((result) => result.status === 'rejected' && errorCode(result.reason) !== 'ENODATA') ?? v4;
    throw new HostUnresolved(host, failure.status === 'rejected' ? errorCode(failure.reason) : 'ENODATA');
  } finally {
    clearTimeout(timer);
  }
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException | undefined)?.code ?? 'lookup failed';
}
