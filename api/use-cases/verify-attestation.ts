import { publicCertificate, type Certificate } from '../../attest/certificate.ts';
import { signatureMatches } from '../../attest/signing.ts';
import { checkSnapshot, pinnedSnapshotOf, type SnapshotCheck } from '../../attest/snapshot-pin.ts';
import { decideStatus, type VerificationStatus } from '../../attest/verification-status.ts';
import type { AttestContext } from '../attest-context.ts';
import { notFound } from '../../common/app-error.ts';
import { findMarket } from '../../common/markets.ts';

/** The verification result (docs/attestations.md). */
export interface VerificationResult {
  cert_id: string;
  status: VerificationStatus;
  valid: boolean;
  sig_valid: boolean;
  snapshot_check: SnapshotCheck;
  revoked: boolean;
  revoked_at: string | null;
  revocation_note: string | null;
  checked_at: string;
  /** ISO 4217 code of the certificate's amounts (`purification_per_share`): the listing's currency; not signed. */
  currency: string | null;
  attestation: Certificate;
}

/** The listing's currency (the universe's listing, else its market's), in which a certificate states its amounts. */
function listingCurrency(attest: AttestContext, market: string, ticker: string): string | null {
  return attest.screen.reads.listing(market, ticker)?.currency || findMarket(market)?.currency || null;
}

/**
 * Verifies a stored certificate now: its signing key's trust and any revocation (read from
 * service.db on every call, so the CLI's changes count at once), the HMAC recomputed over the
 * stored fields, and the pinned snapshot against the newest one of that day in the API's
 * in-memory index (no Parquet read). 404 for an unknown id.
 */
export async function verifyAttestation(attest: AttestContext, certId: string): Promise<VerificationResult> {
  return (await checkCertificate(attest, certId)).result;
}

/** The verification result, plus whether the pinned snapshot came from synthetic sample data (the page says so). */
export async function checkCertificate(attest: AttestContext, certId: string): Promise<{ result: VerificationResult; synthetic: boolean }> {
  const stored = await attest.certificates.find(certId);
  if (!stored) {
    throw notFound(
      `no certificate '${certId}': check the id (certificate ids are fsc_ followed by 40 hex digits, as in the certificate's verify_url)`,
      'certificate_not_found',
    );
  }
  const { fields } = stored;
  const secret = attest.keys.trustedSecret(fields.key_id, stored.keyStatus);
  if (secret === undefined && (stored.keyStatus === 'active' || stored.keyStatus === 'retired')) {
    // Its certificates now read unknown_signing_key: the operator must restore DATA_DIR/secrets from backup.
    attest.logger?.error({ key_id: fields.key_id }, 'the secret file of a trusted signing key is missing');
  }
  const sigValid = secret !== undefined && signatureMatches(fields, stored.sig, secret);
  const newest = await attest.screen.reads.newestOnDay(fields.market, fields.ticker, fields.snapshot_ref.day);
  const snapshotCheck = checkSnapshot(pinnedSnapshotOf(fields, stored.pin), newest);
  const { status, valid } = decideStatus({
    revoked: stored.revocation !== null,
    keyTrusted: secret !== undefined,
    sigValid,
    snapshotCheck,
  });
  const result: VerificationResult = {
    cert_id: fields.cert_id,
    status,
    valid,
    sig_valid: sigValid,
    snapshot_check: snapshotCheck,
    revoked: stored.revocation !== null,
    revoked_at: stored.revocation?.revoked_at ?? null,
    revocation_note: stored.revocation?.note ?? null,
    checked_at: attest.now().toISOString(),
    currency: listingCurrency(attest, fields.market, fields.ticker),
    attestation: publicCertificate(fields, stored.sig, attest.baseUrl),
  };
  return { result, synthetic: stored.pin.synthetic };
}
