import { randomBytes } from 'node:crypto';
import canonicalizeModule from 'canonicalize';

// The package is `module.exports = serialize` but its typings declare an ES default export, which
// NodeNext reads as the module object; at run time the default import is the function itself.
const canonicalize = canonicalizeModule as unknown as (input: unknown) => string | undefined;

/** The one payload layout this build signs and verifies (spec: `payload_version` 1). */
export const PAYLOAD_VERSION = 1;

/** Fixed prefix of every certificate id; 20 random bytes (160 bits) follow as lower-case hex. */
export const CERT_ID_PREFIX = 'fsc_';
export const CERT_ID_PATTERN = /^fsc_[0-9a-f]{40}$/;

/** The only issuer this build knows: a certificate minted with an API key. */
export const ISSUER_TYPE = 'api_key';

/** The verdicts a certificate may carry (`insufficient_data` is never attested). */
export type AttestableVerdict = 'compliant' | 'non_compliant' | 'questionable';

/**
 * The signed part of a certificate, field for field. Everything here goes through RFC 8785
 * (JSON Canonicalization Scheme) and HMAC-SHA-256; nothing else does. `sig` cannot sign itself,
 * and `verify_url`/`cert_url` are derived from `cert_id` and the service's base URL, so a move
 * to another address does not invalidate certificates.
 */
export interface SignedFields {
  cert_id: string;
  payload_version: number;
  ticker: string;
  market: string;
  standard: string;
  verdict: AttestableVerdict;
  /** 0..100 (the framework's score), or null for frameworks without one. */
  score: number | null;
  /** In the listing currency; 0 when the standard has no purification rule, null when an input was missing. */
  purification_per_share: number | null;
  /** ISO 8601 UTC: when the certified verdict was screened (the snapshot's `screened_at`). */
  as_of: string;
  /** ISO 8601 UTC: when the certificate was minted. */
  minted_at: string;
  snapshot_ref: { source: string; day: string };
  key_id: string;
  company_name: string;
  issuer_type: string;
}

/** The signed field names, in the order docs/attestations.md lists them (documentation and tests use this list). */
export const SIGNED_FIELDS = [
  'cert_id',
  'payload_version',
  'ticker',
  'market',
  'standard',
  'verdict',
  'score',
  'purification_per_share',
  'as_of',
  'minted_at',
  'snapshot_ref',
  'key_id',
  'company_name',
  'issuer_type',
] as const satisfies ReadonlyArray<keyof SignedFields>;

/** The public certificate: the signed fields, the signature and the two links. */
export interface Certificate extends SignedFields {
  sig: string;
  verify_url: string;
  cert_url: string;
}

/** A new unguessable certificate id. */
export function newCertId(): string {
  return `${CERT_ID_PREFIX}${randomBytes(20).toString('hex')}`;
}

/**
 * The exact bytes that are signed: the signed fields only (any other property is dropped),
 * serialised with RFC 8785, UTF-8 encoded.
 */
export function canonicalPayload(fields: SignedFields): Buffer {
  const picked = Object.fromEntries(SIGNED_FIELDS.map((name) => [name, fields[name]]));
  const text = canonicalize(picked);
  if (text === undefined) throw new Error('certificate payload could not be canonicalised');
  return Buffer.from(text, 'utf8');
}

/** The public certificate with its links under `baseUrl` (no trailing slash). */
export function publicCertificate(fields: SignedFields, sig: string, baseUrl: string): Certificate {
  const picked = Object.fromEntries(SIGNED_FIELDS.map((name) => [name, fields[name]])) as unknown as SignedFields;
  const id = encodeURIComponent(fields.cert_id);
  return { ...picked, sig, verify_url: `${baseUrl}/api/attest/verify/${id}`, cert_url: `${baseUrl}/attest/${id}` };
}
