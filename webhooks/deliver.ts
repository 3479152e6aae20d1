import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { SIGNATURE_HEADER, signatureHeader } from './signature.ts';
import { checkAddress, hostOf, parseTargetUrl, TargetRefused, type TargetPolicy } from './target-policy.ts';

/** What one delivery attempt came to: the receiver's status code, or the error that stopped it. */
export interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** True when the target itself was refused by the policy (retrying cannot help). */
  refused: boolean;
}

/** A receiver must answer within this long; a slow one is an attempt that failed. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/**
 * A DNS lookup that refuses non-public addresses: the connection goes to exactly the addresses
 * checked here, so a host that resolves elsewhere between the check and the connect (DNS
 * rebinding) is still caught.
 */
function guardedLookup(policy: TargetPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true, verbatim: true }, (error, found) => {
      if (error) return callback(error, '', 0);
      const addresses = found as unknown as LookupAddress[];
      try {
        for (const entry of addresses) checkAddress(policy, hostname, entry.address);
      } catch (refusal) {
        return callback(refusal as NodeJS.ErrnoException, '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0]!;
      return callback(null, first.address, first.family);
    });
  };
}

/**
 * POSTs `body` to `url`, signed with `secret` at the current time; any 2xx is success. The
 * target is checked again first (an IP literal directly, a host name at connect time).
 */
export async function deliver(policy: TargetPolicy, url: string, secret: string, body: string, eventId: string): Promise<AttemptOutcome> {
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
  const timestamp = Math.floor(Date.now() / 1000);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<AttemptOutcome>((resolve) => {
    const request = client.request(
      target,
      {
        method: 'POST',
        lookup: guardedLookup(policy),
        timeout: DELIVERY_TIMEOUT_MS,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          'User-Agent': 'faithscreen-webhooks/1',
          'Faithscreen-Event-Id': eventId,
          [SIGNATURE_HEADER]: signatureHeader(secret, timestamp, body),
        },
      },
      (response) => {
        response.resume(); // the receiver's body is not kept: only its status counts
        response.on('end', () => {
          const statusCode = response.statusCode ?? null;
          const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
          resolve({ statusCode, error: ok ? null : `receiver answered ${statusCode}`, durationMs: elapsed(), refused: false });
        });
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`)));
    request.on('error', (error) =>
      resolve({ statusCode: null, error: error.message, durationMs: elapsed(), refused: error instanceof TargetRefused }),
    );
    request.end(body);
  });
}
