import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { resolveHost } from './resolve-host.ts';
import { SIGNATURE_HEADER, signatureHeader } from './signature.ts';
import { checkAddress, hostOf, parseTargetUrl, TargetRefused, type TargetPolicy } from './target-policy.ts';
import { networkErrorText } from './network-errors.ts';

/** What one delivery attempt came to: the receiver's status code, or the error that stopped it. */
export interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** True when the target itself was refused by the policy (retrying cannot help). */
  refused: boolean;
}

/**
 * The whole attempt — name lookup, connect, TLS, sending, and the receiver's status line — must
 * be done within this long. A bound on the whole, not on idleness: a receiver that sends one byte
 * every few seconds would otherwise hold the attempt for ever.
 */
export const DELIVERY_DEADLINE_MS = 10_000;

export interface DeliverOptions {
  /** Defaults to DELIVERY_DEADLINE_MS. */
  deadlineMs?: number;
  /** Aborts the attempt at once (the activity was cancelled or timed out). */
  signal?: AbortSignal;
}

/**
 * A name lookup that refuses non-public addresses: the connection goes to exactly the addresses
 * checked here, so a host that resolves elsewhere between the check and the connect (DNS
 * rebinding) is still caught.
 */
function guardedLookup(policy: TargetPolicy): LookupFunction {
  return (hostname, options, callback) => {
    resolveHost(hostname, policy.dnsServers).then(
      (addresses) => {
        try {
          for (const entry of addresses) checkAddress(policy, hostname, entry.address);
        } catch (refusal) {
          return callback(refusal as NodeJS.ErrnoException, '', 0);
        }
        if (options.all) return (callback as unknown as (e: null, a: typeof addresses) => void)(null, addresses);
        const first = addresses[0]!;
        return callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

/**
 * POSTs `body` to `url`, signed with `secret` at the current time; any 2xx is success. The
 * target is checked again first (an IP literal directly, a host name at connect time). The
 * attempt ends at the receiver's status line (its body is not read) or at the deadline.
 */
export async function deliver(
  policy: TargetPolicy,
  url: string,
  secret: string,
  body: string,
  eventId: string,
  options: DeliverOptions = {},
): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let target: URL;
  try {
    target = parseTargetUrl(policy, url);
    const host = hostOf(target);
    if (isIP(host) !== 0) checkAddress(policy, host, host);
  } catch (error) {
    return { statusCode: null, error: (error as Error).message, durationMs: elapsed(), refused: error instanceof TargetRefused };
  }
  const deadlineMs = options.deadlineMs ?? DELIVERY_DEADLINE_MS;
  const timestamp = Math.floor(Date.now() / 1000);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<AttemptOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<AttemptOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({ ...outcome, durationMs: elapsed() });
    };
    const request = client.request(target, {
      method: 'POST',
      lookup: guardedLookup(policy),
      // A connection of its own, closed after the attempt: nothing of a receiver lingers in a pool.
      agent: false,
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(body),
        'User-Agent': 'faithscreen-webhooks/1',
        'Faithscreen-Event-Id': eventId,
        [SIGNATURE_HEADER]: signatureHeader(secret, timestamp, body),
      },
    });
    const timer = setTimeout(() => {
      finish({ statusCode: null, error: `no answer within ${deadlineMs / 1000} s`, refused: false });
      request.destroy();
    }, deadlineMs);
    const onAbort = () => {
      finish({ statusCode: null, error: 'attempt cancelled', refused: false });
      request.destroy();
    };
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    request.on('response', (response) => {
      // Only the status counts: the receiver's body is never read, and the connection is closed.
      const statusCode = response.statusCode ?? null;
      const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
      finish({ statusCode, error: ok ? null : `receiver answered ${statusCode}`, refused: false });
      response.destroy();
    });
    request.on('error', (error) =>
      finish({
        statusCode: null,
        error: error instanceof TargetRefused ? error.message : networkErrorText(error),
        refused: error instanceof TargetRefused,
      }),
    );
    request.end(body);
  });
}
