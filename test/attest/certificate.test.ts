import { describe, expect, it } from 'vitest';
import { SIGNED_FIELDS, canonicalPayload, newCertId, publicCertificate, type SignedFields } from '../../attest/certificate.ts';
import { signCertificate, signatureMatches } from '../../attest/signing.ts';

const FIELDS: SignedFields = {
  cert_id: `fsc_${'1'.repeat(40)}`,
  payload_version: 1,
  ticker: 'ACME',
  market: 'us',
  standard: 'shariah_aaoifi',
  verdict: 'compliant',
  score: 80.1,
  purification_per_share: 0.000012,
  as_of: '2026-11-21T02:00:00.000Z',
  minted_at: '2026-11-21T09:30:00.000Z',
  snapshot_ref: { source: 'nightly', day: '2026-11-21' },
  key_id: 'sk_20261121_0a1b2c3d',
  company_name: 'Ça & Ünïcode <Co>',
  issuer_type: 'api_key',
};
const SECRET = Buffer.alloc(32, 7);

describe('canonical payload (RFC 8785)', () => {
  it('when serialised, then keys are sorted, numbers use ECMAScript form and nothing outside the signed fields is included', () => {
    const text = canonicalPayload({ ...FIELDS, ...({ verify_url: 'x', sig: 'y' } as object) } as SignedFields).toString('utf8');
    expect(text).toBe(
      '{"as_of":"2026-11-21T02:00:00.000Z","cert_id":"fsc_1111111111111111111111111111111111111111","company_name":"Ça & Ünïcode <Co>",' +
        '"issuer_type":"api_key","key_id":"sk_20261121_0a1b2c3d","market":"us","minted_at":"2026-11-21T09:30:00.000Z","payload_version":1,' +
        '"purification_per_share":0.000012,"score":80.1,"snapshot_ref":{"day":"2026-11-21","source":"nightly"},' +
        '"standard":"shariah_aaoifi","ticker":"ACME","verdict":"compliant"}',
    );
  });

  it('when the same fields come in another order, then the bytes are identical', () => {
    const reversed = Object.fromEntries(Object.entries(FIELDS).reverse()) as unknown as SignedFields;
    expect(canonicalPayload(reversed).equals(canonicalPayload(FIELDS))).toBe(true);
  });
});

describe('HMAC-SHA-256 signature', () => {
  const sig = signCertificate(FIELDS, SECRET);

  it('when nothing changed, then the signature matches', () => {
    expect(sig).toMatch(/^[0-9a-f]{64}$/);
    expect(signatureMatches(FIELDS, sig, SECRET)).toBe(true);
  });

  it.each(SIGNED_FIELDS)('when the signed field %s is altered, then the signature no longer matches', (field) => {
    const altered = {
      ...FIELDS,
      [field]: field === 'snapshot_ref' ? { source: 'nightly', day: '2026-11-20' } : typeof FIELDS[field] === 'number' ? 2 : 'altered',
    };
    expect(signatureMatches(altered as SignedFields, sig, SECRET)).toBe(false);
  });

  it('when another secret or a malformed signature is used, then it does not match', () => {
    expect(signatureMatches(FIELDS, sig, Buffer.alloc(32, 8))).toBe(false);
    expect(signatureMatches(FIELDS, sig.slice(0, 63), SECRET)).toBe(false);
    expect(signatureMatches(FIELDS, sig.toUpperCase(), SECRET)).toBe(false);
  });

  it('when the links change (a new base URL), then the signature still matches: they are not signed', () => {
    const a = publicCertificate(FIELDS, sig, 'https://a.example');
    const b = publicCertificate(FIELDS, sig, 'https://b.example');
    expect(a.verify_url).toBe(`https://a.example/api/attest/verify/${FIELDS.cert_id}`);
    expect(b.cert_url).toBe(`https://b.example/attest/${FIELDS.cert_id}`);
    expect(signatureMatches(b, b.sig, SECRET)).toBe(true);
  });
});

describe('certificate ids', () => {
  it('when minted, then each id is the prefix and 160 random bits, never repeated', () => {
    const ids = new Set(Array.from({ length: 1_000 }, newCertId));
    expect(ids.size).toBe(1_000);
    for (const id of ids) expect(id).toMatch(/^fsc_[0-9a-f]{40}$/);
  });
});
