import { z } from 'zod';
import { CERT_ID_PATTERN, SIGNED_FIELDS } from '../../attest/certificate.ts';
import { VERIFICATION_STATUSES } from '../../attest/verification-status.ts';
import { FRAMEWORK_IDS } from '../../engine/index.ts';

/** Request and response schemas of the attestation endpoints (registered by id for /openapi.json). */

export const attestQuerySchema = z.object({
  standard: z
    .string()
    .optional()
    .meta({ description: `required: the framework id to attest, one of ${FRAMEWORK_IDS.join(', ')}`, example: 'shariah_aaoifi' }),
});

export const certIdPathSchema = z.object({
  cert_id: z
    .string()
    .regex(CERT_ID_PATTERN)
    .meta({ description: 'certificate id: fsc_ followed by 40 lower-case hex digits', example: `fsc_${'0'.repeat(40)}` }),
});

export const attestationSchema = z
  .object({
    cert_id: z.string().regex(CERT_ID_PATTERN).meta({ description: 'fsc_ + 160 random bits as hex' }),
    payload_version: z.literal(1),
    ticker: z.string(),
    market: z.string(),
    standard: z.enum(FRAMEWORK_IDS),
    verdict: z.enum(['compliant', 'non_compliant', 'questionable']),
    score: z.number().nullable().meta({ description: "the framework's 0..100 score; null for frameworks without one" }),
    purification_per_share: z.number().nullable().meta({
      description: 'in the listing currency; 0 when the standard has no purification rule; null only when the rule lacked an input',
    }),
    as_of: z.string().meta({ description: 'ISO 8601 UTC: when the certified verdict was screened (the snapshot’s screened_at)' }),
    minted_at: z.string().meta({ description: 'ISO 8601 UTC' }),
    snapshot_ref: z
      .object({ source: z.string(), day: z.string() })
      .meta({ description: 'the pinned snapshot: its source (nightly, refresh, backfill, …) and day' }),
    key_id: z.string().meta({ description: 'the signing key' }),
    sig: z.string().meta({ description: 'HMAC-SHA-256, lower-case hex' }),
    company_name: z.string(),
    issuer_type: z.literal('api_key'),
    verify_url: z.string(),
    cert_url: z.string(),
  })
  .meta({
    id: 'Attestation',
    description:
      `A signed certificate. Signed (RFC 8785 canonical JSON of exactly these fields, HMAC-SHA-256 with the key named by ` +
      `key_id): ${SIGNED_FIELDS.join(', ')}. Not signed: sig, verify_url, cert_url. See docs/attestations.md.`,
  });

export const verificationResultSchema = z
  .object({
    cert_id: z.string(),
    status: z.enum(VERIFICATION_STATUSES).meta({ description: `precedence when several apply: ${VERIFICATION_STATUSES.join(' > ')}` }),
    valid: z
      .boolean()
      .meta({ description: 'true for valid, valid_snapshot_diverged and valid_snapshot_missing: authentic and not revoked' }),
    sig_valid: z
      .boolean()
      .meta({ description: 'the HMAC recomputes under a trusted signing key (false when the key is distrusted or unknown)' }),
    snapshot_check: z.enum(['match', 'diverged', 'missing']),
    revoked: z.boolean(),
    revoked_at: z.string().nullable(),
    revocation_note: z.string().nullable(),
    checked_at: z.string(),
    currency: z.string().nullable().meta({
      description: "ISO 4217 code of the certificate's amounts (purification_per_share): the listing's currency; not signed",
      example: 'USD',
    }),
    attestation: attestationSchema,
  })
  .meta({ id: 'VerificationResult' });
