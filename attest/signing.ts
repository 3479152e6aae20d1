import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalPayload, type SignedFields } from './certificate.ts';

/** HMAC-SHA-256 of the canonical payload, as lower-case hex (64 characters). */
export function signCertificate(fields: SignedFields, secret: Buffer): string {
  return createHmac('sha256', secret).update(canonicalPayload(fields)).digest('hex');
}

/** True when `sig` is the HMAC of these fields under `secret` (constant-time comparison). */
export function signatureMatches(fields: SignedFields, sig: string, secret: Buffer): boolean {
  const expected = Buffer.from(signCertificate(fields, secret), 'hex');
  const given = /^[0-9a-f]{64}$/.test(sig) ? Buffer.from(sig, 'hex') : Buffer.alloc(0);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
