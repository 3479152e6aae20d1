import { describe, expect, it } from 'vitest';
import { benfordTest, firstDigit } from '../../forensic/benford.ts';
import { assertInsufficient, assertOk } from './periods.ts';

const filings = [{ period_end: '2024-12-31', source_ref: 'test:2024', filed_on: '2025-03-01' }];

/** 2^4 … 2^103, written out by their first digits with BigInt (independent of the code under test). */
const powersOfTwo = Array.from({ length: 100 }, (_, k) => Number(2n ** BigInt(k + 4)));

describe("Benford's law first-digit test", () => {
  it('when the figures are 2^4 … 2^103, then counts 31,17,13,9,8,7,6,4,5 give MAD 0.005368: close conformity', () => {
    // Expected shares log10(1 + 1/d): .30103 .17609 .12494 .09691 .07918 .06695 .05799 .05115 .04576
    // |deviations|: .008970 .006091 .005061 .006910 .000819 .003053 .002008 .011153 .004243 → sum .048308 / 9 = .0053675
    const digits = powersOfTwo.map((v) => String(BigInt(v))[0]);
    expect(digits.filter((d) => d === '1')).toHaveLength(31);
    const score = benfordTest({ values: powersOfTwo, filings });
    assertOk(score);
    expect(score.components.digits.map((d) => d.count)).toEqual([31, 17, 13, 9, 8, 7, 6, 4, 5]);
    expect(score.components.mad).toBeCloseTo(0.0053675, 7);
    expect(score.value).toBe(0.005368);
    expect(score.reading).toBe('close conformity');
    expect(score.components.chi_square).toBeCloseTo(0.42179, 4);
  });

  it('when every figure starts with 1, then MAD = (0.69897 + Σ other expected shares) / 9 = 0.155327: nonconformity', () => {
    const score = benfordTest({ values: Array.from({ length: 200 }, (_, i) => 100 + (i % 100)), filings });
    // observed 1 for digit 1 (|1 − .30103| = .69897), 0 elsewhere (Σ = 1 − .30103 = .69897) → 1.39794 / 9
    expect(score.components.mad).toBeCloseTo(1.39794 / 9, 6);
    expect(score.reading).toBe('nonconformity');
  });

  it('when fewer than 100 figures of ten or more are reported, then insufficient_data says how many', () => {
    const score = benfordTest({ values: [...powersOfTwo.slice(0, 60), 1, 2, 3, -5], filings });
    assertInsufficient(score);
    expect(score.missing[0]!.reason).toBe('60 figures of ten or more reported; the test needs at least 100');
  });

  it('reads the first significant digit of negative and large figures and skips those below ten', () => {
    expect([firstDigit(-4_321), firstDigit(9.99), firstDigit(10), firstDigit(7.2e21), firstDigit(Number.NaN)]).toEqual([
      4,
      null,
      1,
      7,
      null,
    ]);
  });
});
