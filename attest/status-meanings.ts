import type { VerificationStatus } from './verification-status.ts';

/** Each verification status in plain words: what it means and what the reader should do (the page shows these; docs/attestations.md says the same). */
export const STATUS_MEANINGS: Record<
  VerificationStatus,
  { headline: string; meaning: string; action: string; tone: 'good' | 'caution' | 'bad' }
> = {
  valid: {
    headline: 'Valid',
    meaning: 'The signature is authentic and the screening it refers to still holds exactly the certified values.',
    action:
      'You may rely on this certificate for the verdict as of the date shown. A verdict is not permanent: mint a new certificate for a later date.',
    tone: 'good',
  },
  valid_snapshot_diverged: {
    headline: 'Authentic, but the screening was superseded',
    meaning:
      'The signature is authentic, but the screening of that day was replaced later (for example a same-day re-screen after new ' +
      'filings), so its values may differ from the certified ones.',
    action:
      'The certificate truthfully records what the service said when it was minted. Ask the holder for a certificate minted from ' +
      'the current screening before relying on it.',
    tone: 'caution',
  },
  valid_snapshot_missing: {
    headline: 'Authentic, but the screening is no longer held',
    meaning:
      'The signature is authentic, but the screening it refers to is no longer in the service’s history, so it cannot be cross-checked.',
    action: 'Treat it as a record of what was said at minting only. Ask the holder for a freshly minted certificate.',
    tone: 'caution',
  },
  invalid_signature: {
    headline: 'Invalid: the signature does not match',
    meaning: 'The stored certificate no longer matches the signature issued with it: it has been altered since minting.',
    action: 'Do not rely on it. Report it to the issuer; ask the holder for a new certificate.',
    tone: 'bad',
  },
  unknown_signing_key: {
    headline: 'Not trusted: unknown signing key',
    meaning:
      'The certificate names a signing key this service no longer trusts (withdrawn after a suspected compromise), so its signature proves nothing.',
    action: 'Do not rely on it. Ask the holder to mint a new certificate, which will be signed with a trusted key.',
    tone: 'bad',
  },
  revoked: {
    headline: 'Revoked',
    meaning:
      'The issuer withdrew this certificate on the date shown, for the reason in the note (for example bad source data found after ' +
      'issuance). Certificates are never deleted.',
    action: 'Do not rely on it. Read the note; ask the holder for a new certificate if one can be issued.',
    tone: 'bad',
  },
};
