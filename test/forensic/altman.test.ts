import { describe, expect, it } from 'vitest';
import { altmanVariantFor, altmanZScore } from '../../forensic/altman.ts';
import { assertInsufficient, assertOk, period, set } from './periods.ts';

const manufacturer = { sic: '3560' };
const software = { sic: '7372' };

describe('Altman Z-Score', () => {
  it('when the published example X1=0.2, X2=0, X3=0.2, X4=0.1, X5=2.0 is scored, then Z = 2.96 in the grey zone', () => {
    // Worked example (assignmentexpert.com, finance question 122120): Z = 1.2(0.2) + 1.4(0) + 3.3(0.2) + 0.6(0.1) + 1.0(2.0) = 2.96.
    // Figures: TA 1000, CA 500 − CL 300 = 200, RE 0, EBIT 200, MVE = 10 × 10 shares = 100 over TL 1000, sales 2000.
    const p = period(
      '2024-12-31',
      {
        total_assets: 1000,
        current_assets: 500,
        current_liabilities: 300,
        retained_earnings: 0,
        ebit: 200,
        total_liabilities: 1000,
        shares_outstanding: 10,
        total_revenue: 2000,
      },
      10,
    );
    const score = altmanZScore(manufacturer, set(p));
    assertOk(score);
    expect(score.components.variant).toBe('original');
    expect(score.value).toBe(2.96);
    expect(score.reading).toBe('grey zone');
    expect(score.components.x4_equity_to_liabilities).toBe(0.1);
    expect(score.inputs.find((i) => i.field === 'market_value_of_equity')).toMatchObject({ value: 100, period_end: '2024-12-31' });
  });

  it('when Z is exactly 2.99 in decimals, then it is grey, not safe (safe is strictly above 2.99)', () => {
    // 1.2(0.1) + 1.4(0.2) + 3.3(0.3) + 0.6(0.5) + 1.0(1.3) = 0.12 + 0.28 + 0.99 + 0.30 + 1.30 = 2.99
    const p = period(
      '2024-12-31',
      {
        total_assets: 1000,
        current_assets: 400,
        current_liabilities: 300,
        retained_earnings: 200,
        ebit: 300,
        total_liabilities: 500,
        shares_outstanding: 25,
        total_revenue: 1300,
      },
      10,
    );
    const score = altmanZScore(manufacturer, set(p));
    expect(score.value).toBe(2.99);
    expect(score.reading).toBe('grey zone');
  });

  it('when Z is exactly 1.81, then it is grey, not distress (distress is strictly below 1.81)', () => {
    // 1.2(0.1) + 1.4(0.1) + 3.3(0.1) + 0.6(0.2) + 1.0(1.1) = 0.12 + 0.14 + 0.33 + 0.12 + 1.10 = 1.81
    const p = period(
      '2024-12-31',
      {
        total_assets: 1000,
        current_assets: 400,
        current_liabilities: 300,
        retained_earnings: 100,
        ebit: 100,
        total_liabilities: 500,
        shares_outstanding: 10,
        total_revenue: 1100,
      },
      10,
    );
    const score = altmanZScore(manufacturer, set(p));
    expect(score.value).toBe(1.81);
    expect(score.reading).toBe('grey zone');
  });

  it("when a non-manufacturer is scored, then Z'' is used without X5: 6.56(0.1) + 3.26(0.2) + 6.72(0.15) + 1.05(1.0) = 3.366, safe", () => {
    const p = period('2024-12-31', {
      total_assets: 1000,
      current_assets: 400,
      current_liabilities: 300,
      retained_earnings: 200,
      ebit: 150,
      total_liabilities: 500,
      total_equity: 500,
      total_revenue: null,
    });
    const score = altmanZScore(software, set(p));
    assertOk(score);
    expect(score.components.variant).toBe('non_manufacturing');
    expect(score.value).toBe(3.366);
    expect(score.reading).toBe('safe zone');
    expect(score.inputs.map((i) => i.field)).not.toContain('total_revenue');
  });

  it("when a manufacturer has no price, then Z' (book equity) is used: 0.717(0.1) + 0.847(0.2) + 3.107(0.1) + 0.42(0.5) + 0.998(1.0) = 1.7598, grey", () => {
    const p = period('2024-12-31', {
      total_assets: 1000,
      current_assets: 400,
      current_liabilities: 300,
      retained_earnings: 200,
      ebit: 100,
      total_liabilities: 600,
      total_equity: 300,
      total_revenue: 1000,
      shares_outstanding: 10,
    });
    expect(altmanVariantFor(manufacturer, set(p))).toBe('private');
    const score = altmanZScore(manufacturer, set(p));
    expect(score.value).toBe(1.7598);
    expect(score.reading).toBe('grey zone');
    expect(score.thresholds.map((t) => t.value)).toEqual([1.23, 2.9, 2.9]);
  });

  it('when the company is a bank (SIC 6021), then the score is not_applicable with the reason', () => {
    const score = altmanZScore({ sic: '6021' }, set(period('2024-12-31', { total_assets: 1000 })));
    expect(score.status).toBe('not_applicable');
    expect(score.status === 'not_applicable' && score.reason).toContain('6000–6799');
  });

  it('when retained earnings are missing, then insufficient_data names the field and period', () => {
    const p = period('2024-12-31', {
      total_assets: 1000,
      current_assets: 400,
      current_liabilities: 300,
      ebit: 150,
      total_liabilities: 500,
      total_equity: 500,
    });
    const score = altmanZScore(software, set(p));
    assertInsufficient(score);
    expect(score.missing).toEqual([
      { field: 'retained_earnings', period: 'current', period_end: '2024-12-31', reason: 'not reported in the filing' },
    ]);
  });
});
