import { describe, expect, it } from 'vitest';
import { sloanAccrualRatio } from '../../forensic/sloan.ts';
import { assertInsufficient, assertOk, period, set } from './periods.ts';

const pair = (ni: number, cfo: number, ta = 1100, ta1 = 900) =>
  set(period('2024-12-31', { net_income: ni, operating_cash_flow: cfo, total_assets: ta }), period('2023-12-31', { total_assets: ta1 }));

describe('Sloan accrual ratio', () => {
  it('when NI 120, CFO 80 and assets 1100/900, then (120 − 80) / 1000 = 0.04: low accruals', () => {
    const score = sloanAccrualRatio(pair(120, 80));
    assertOk(score);
    expect(score.value).toBe(0.04);
    expect(score.reading).toBe('low accruals: earnings backed by cash');
    expect(score.components).toEqual({ accruals: 40, average_total_assets: 1000 });
    expect(score.periods).toEqual(['2024-12-31', '2023-12-31']);
  });

  it('when the published example is scored (NI 10M, CFO 8M, assets 50M → 60M), then 2M / 55M = 0.0364', () => {
    // Worked example: investing.com Academy, "Sloan Ratio: Definition" (Alpha Corp): (10,000,000 − 8,000,000) / ((50,000,000 + 60,000,000) / 2).
    const score = sloanAccrualRatio(pair(10_000_000, 8_000_000, 60_000_000, 50_000_000));
    assertOk(score);
    expect(score.components).toEqual({ accruals: 2_000_000, average_total_assets: 55_000_000 });
    expect(score.value).toBe(0.0364);
    expect(score.reading).toBe('low accruals: earnings backed by cash');
  });

  it.each([
    [0.1, 'low accruals: earnings backed by cash'],
    [0.25, 'elevated accruals'],
    [0.2501, 'high accruals: earnings largely made of accruals'],
    [-0.1, 'low accruals: earnings backed by cash'],
    [-0.25, 'elevated negative accruals'],
    [-0.3, 'high negative accruals: cash flow far above earnings'],
  ])('when the ratio is exactly %s, then it reads %s (band edges belong to the band nearer zero)', (target, reading) => {
    const score = sloanAccrualRatio(pair(target * 10_000, 0, 11_000, 9_000));
    expect(score.value).toBe(target);
    expect(score.reading).toBe(reading);
  });

  it('when operating cash flow is missing, then insufficient_data names it', () => {
    const score = sloanAccrualRatio(
      set(period('2024-12-31', { net_income: 1, total_assets: 10 }), period('2023-12-31', { total_assets: 10 })),
    );
    assertInsufficient(score);
    expect(score.missing.map((m) => m.field)).toEqual(['operating_cash_flow']);
  });
});
