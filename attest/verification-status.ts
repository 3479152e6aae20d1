import type { SnapshotCheck } from './snapshot-pin.ts';

/** The verification statuses (docs/attestations.md), in precedence order: when several apply, the first wins. */
export const VERIFICATION_STATUSES = [
  'revoked',
  'unknown_signing_key',
  'invalid_signature',
  'valid_snapshot_missing',
  'valid_snapshot_diverged',
  'valid',
] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

/** What verification found, each fact established on its own. */
export interface VerificationFacts {
  revoked: boolean;
  /** The signing key named by `key_id` is known here and not distrusted. */
  keyTrusted: boolean;
  /** The HMAC recomputes under that trusted key (always false when the key is not trusted). */
  sigValid: boolean;
  snapshotCheck: SnapshotCheck;
}

/**
 * The status of a certificate. Precedence, most decisive first: an issuer's revocation (dated,
 * with a reason) beats everything; a key no longer trusted makes the signature meaningless, so
 * it beats the signature check; a signature that does not recompute means the stored
 * certificate is not what was issued; only an authentic certificate gets a snapshot verdict
 * (missing, then diverged, then match). `valid` is true exactly for the three valid* statuses:
 * the certificate is authentic and not revoked, whatever has happened to the data since.
 */
export function decideStatus(facts: VerificationFacts): { status: VerificationStatus; valid: boolean } {
  const status: VerificationStatus = facts.revoked
    ? 'revoked'
    : !facts.keyTrusted
      ? 'unknown_signing_key'
      : !facts.sigValid
        ? 'invalid_signature'
        : facts.snapshotCheck === 'missing'
          ? 'valid_snapshot_missing'
          : facts.snapshotCheck === 'diverged'
            ? 'valid_snapshot_diverged'
            : 'valid';
  return { status, valid: status.startsWith('valid') };
}
