import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The `Faithscreen-Signature` header every delivery carries (docs/webhooks.md):
 * `t=<unix seconds>,v1=<hex HMAC-SHA-256 of "<t>.<body>" under the subscription's secret>`.
 * The timestamp is signed with the body, so a captured delivery cannot be replayed later with
 * a fresh time, and a receiver can refuse old ones.
 */
export const SIGNATURE_HEADER = 'Faithscreen-Signature';

/** How old a delivery's timestamp may be before a receiver should refuse it (the docs' advice). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

function hmacHex(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
}

/** The header value for `body` sent at `timestamp` (unix seconds). */
export function signatureHeader(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, body)}`;
}

export type SignatureCheck = { valid: true; timestamp: number } | { valid: false; reason: string };

/**
 * What a receiver runs: parses the header, recomputes the HMAC over the raw body exactly as
 * received, compares in constant time and refuses timestamps outside the tolerance.
 */
export function verifySignature(
  secret: string,
  header: string | undefined,
  body: string,
  options: { nowSeconds?: number; toleranceSeconds?: number } = {},
): SignatureCheck {
  if (!header) return { valid: false, reason: `no ${SIGNATURE_HEADER} header` };
  const parts = new Map<string, string[]>();
  for (const piece of header.split(',')) {
    const [key, ...rest] = piece.trim().split('=');
    if (key && rest.length > 0) parts.set(key, [...(parts.get(key) ?? []), rest.join('=')]);
  }
  const timestamp = Number(parts.get('t')?.[0]);
  if (!Number.isInteger(timestamp)) return { valid: false, reason: 'the header has no t=<unix seconds>' };
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS))
    return { valid: false, reason: `timestamp ${timestamp} is outside the tolerance` };
  const expected = Buffer.from(hmacHex(secret, timestamp, body), 'hex');
  const matches = (parts.get('v1') ?? []).some((candidate) => {
    const given = Buffer.from(candidate, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches ? { valid: true, timestamp } : { valid: false, reason: 'no v1 signature matches the body' };
}
