import type { SignedFields } from '../../attest/certificate.ts';
import type { SnapshotPin } from '../../attest/snapshot-pin.ts';

/** The snapshot a test certificate pins: a nightly screen of 2026-11-21 from the synthetic sample. */
export const TEST_PIN: SnapshotPin = {
  day: '2026-11-21',
  screenedAt: '2026-11-21T02:00:00.000',
  source: 'nightly',
  dataSource: 'sample',
  synthetic: true,
  statuses: {},
  ratios: {},
};

/** The signed fields of a test certificate for ACME (christian_bri, compliant) before a key signs it; `digit` makes its id. */
export function unsignedCertificate(digit: string, fields: Partial<Omit<SignedFields, 'key_id'>> = {}): Omit<SignedFields, 'key_id'> {
  return {
    cert_id: `fsc_${digit.repeat(40)}`,
    payload_version: 1,
    ticker: 'ACME',
    market: 'us',
    standard: 'christian_bri',
    verdict: 'compliant',
    score: null,
    purification_per_share: 0,
    as_of: '2026-11-21T02:00:00.000Z',
    minted_at: '2026-11-21T09:00:00.000Z',
    snapshot_ref: { source: 'nightly', day: '2026-11-21' },
    company_name: 'Acme',
    issuer_type: 'api_key',
    ...fields,
  };
}
