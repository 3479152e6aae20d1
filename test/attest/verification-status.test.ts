import { describe, expect, it } from 'vitest';
import { checkSnapshot, pinSnapshot, pinnedSnapshotOf } from '../../attest/snapshot-pin.ts';
import { decideStatus, type VerificationFacts } from '../../attest/verification-status.ts';
import type { VerdictRow } from '../../reads/api-reads-types.ts';

const ROW = {
  market: 'us',
  ticker: 'ACME',
  snapshotDate: '2026-11-21',
  screenedAt: '2026-11-21T02:00:00.000',
  source: 'nightly',
  era: 'current',
  statuses: { shariah_aaoifi: 'compliant', christian_bri: 'non_compliant' },
  ratios: { debt_to_assets: 0.2, market_cap: 1e9, cash_to_assets: null },
  synthetic: true,
  dataSource: 'sample',
} as unknown as VerdictRow;

describe('decideStatus: precedence revoked > unknown_signing_key > invalid_signature > missing > diverged > valid', () => {
  const base: VerificationFacts = { revoked: false, keyTrusted: true, sigValid: true, snapshotCheck: 'match' };
  it.each([
    [{}, 'valid', true],
    [{ snapshotCheck: 'diverged' }, 'valid_snapshot_diverged', true],
    [{ snapshotCheck: 'missing' }, 'valid_snapshot_missing', true],
    [{ sigValid: false }, 'invalid_signature', false],
    [{ sigValid: false, snapshotCheck: 'missing' }, 'invalid_signature', false],
    [{ keyTrusted: false, sigValid: false }, 'unknown_signing_key', false],
    [{ keyTrusted: false, sigValid: false, snapshotCheck: 'diverged' }, 'unknown_signing_key', false],
    [{ revoked: true }, 'revoked', false],
    [{ revoked: true, keyTrusted: false, sigValid: false, snapshotCheck: 'missing' }, 'revoked', false],
    [{ revoked: true, sigValid: false }, 'revoked', false],
  ] as const)('when %o, then %s (valid: %s)', (facts, status, valid) => {
    expect(decideStatus({ ...base, ...facts })).toEqual({ status, valid });
  });
});

describe('checkSnapshot: the pin against the newest snapshot of its day', () => {
  const pin = pinSnapshot(ROW);

  it('when the same snapshot is there with the same values, then match', () => {
    expect(checkSnapshot(pin, { ...ROW })).toBe('match');
  });
  it('when a later snapshot of that day superseded it, then diverged', () => {
    expect(checkSnapshot(pin, { ...ROW, screenedAt: '2026-11-21T14:30:00.000', source: 'refresh' })).toBe('diverged');
  });
  it('when the same snapshot identity now holds other values, then diverged', () => {
    expect(checkSnapshot(pin, { ...ROW, ratios: { ...ROW.ratios, debt_to_assets: 0.21 } })).toBe('diverged');
    expect(checkSnapshot(pin, { ...ROW, statuses: { ...ROW.statuses, christian_bri: 'compliant' } })).toBe('diverged');
  });
  it('when no snapshot of that day is left, or only an earlier one, then missing', () => {
    expect(checkSnapshot(pin, undefined)).toBe('missing');
    expect(checkSnapshot(pin, { ...ROW, screenedAt: '2026-11-21T01:00:00.000' })).toBe('missing');
  });
  it('when the stored pin disagrees with the signed fields, then the signed identity and verdict are what is compared', () => {
    const tamperedPin = { ...pin, screenedAt: '2026-11-21T14:30:00.000', statuses: { ...pin.statuses, shariah_aaoifi: 'non_compliant' } };
    const signed = {
      standard: 'shariah_aaoifi',
      verdict: 'compliant',
      as_of: '2026-11-21T02:00:00.000Z',
      snapshot_ref: { source: 'nightly', day: '2026-11-21' },
    };
    expect(checkSnapshot(pinnedSnapshotOf(signed, tamperedPin), { ...ROW })).toBe('match');
    expect(checkSnapshot(pinnedSnapshotOf({ ...signed, verdict: 'questionable' }, pin), { ...ROW })).toBe('diverged');
  });
});
