import { describe, expect, it } from 'vitest';
import { beneishMScore } from '../../forensic/beneish.ts';
import { assertInsufficient, assertOk, period, set } from './periods.ts';

/**
 * Published worked example: Wahlen, Baginski & Bradshaw, "Financial Reporting, Financial
 * Statement Analysis and Valuation", problem 6.23 "Applying and Interpreting the Earnings
 * Manipulation Model" (figures in $ thousands, years 1998–2000). Gross profit = sales − COGS.
 * Expected values computed by hand (exact fractions, then rounded) from these inputs.
 */
const y2000 = period('2000-12-31', {
  accounts_receivable: 10_396,
  current_assets: 30_381,
  ppe_net: 11_743,
  total_assets: 65_503,
  current_liabilities: 28_406,
  long_term_debt: 8_550,
  total_revenue: 100_789,
  gross_profit: 100_789 - 94_517,
  sga_expense: 3_184,
  net_income: 979,
  operating_cash_flow: 4_779,
  depreciation: 485,
});
const y1999 = period('1999-12-31', {
  accounts_receivable: 3_030,
  current_assets: 7_255,
  ppe_net: 10_681,
  total_assets: 33_381,
  current_liabilities: 6_759,
  long_term_debt: 7_151,
  total_revenue: 40_112,
  gross_profit: 40_112 - 34_761,
  sga_expense: 3_045,
  net_income: 1_024,
  operating_cash_flow: 1_228,
  depreciation: 565,
});
const y1998 = period('1998-12-31', {
  accounts_receivable: 2_060,
  current_assets: 5_933,
  ppe_net: 10_657,
  total_assets: 29_350,
  current_liabilities: 6_107,
  long_term_debt: 7_357,
  total_revenue: 31_260,
  gross_profit: 31_260 - 26_381,
  sga_expense: 2_473,
  net_income: 703,
  operating_cash_flow: 1_640,
  depreciation: 563,
});

describe('Beneish M-Score', () => {
  it('when 2000 is compared with 1999 (textbook case), then all eight indices and M = −0.5390 read likely manipulator', () => {
    const score = beneishMScore(set(y2000, y1999));
    assertOk(score);
    // DSRI = (10396/100789)/(3030/40112); GMI = (5351/40112)/(6272/100789); AQI = [1−(30381+11743)/65503]/[1−(7255+10681)/33381]
    // SGI = 100789/40112; DEPI = [565/(565+10681)]/[485/(485+11743)]; SGAI = (3184/100789)/(3045/40112)
    // LVGI = [(28406+8550)/65503]/[(6759+7151)/33381]; TATA = (979−4779)/65503
    const c = score.components;
    expect(c.dsri).toBeCloseTo(1.365478, 6);
    expect(c.gmi).toBeCloseTo(2.143718, 6);
    expect(c.aqi).toBeCloseTo(0.771394, 6);
    expect(c.sgi).toBeCloseTo(2.512689, 6);
    expect(c.depi).toBeCloseTo(1.266672, 6);
    expect(c.sgai).toBeCloseTo(0.416147, 6);
    expect(c.lvgi).toBeCloseTo(1.353929, 6);
    expect(c.tata).toBeCloseTo(-0.058013, 6);
    expect(score.value).toBe(-0.539);
    expect(score.reading).toBe('likely manipulator');
    expect(score.periods).toEqual(['2000-12-31', '1999-12-31']);
    expect(score.inputs.find((i) => i.field === 'accounts_receivable' && i.period === 'prior')).toMatchObject({
      value: 3_030,
      source_ref: 'test:1999-12-31',
      period_end: '1999-12-31',
    });
    expect(score.thresholds).toEqual([
      { operator: '>', value: -1.78, reading: 'likely manipulator' },
      { operator: '<=', value: -1.78, reading: 'unlikely manipulator' },
    ]);
    expect(score.notes.join(' ')).toContain('1999 definition');
  });

  it('when 1999 is compared with 1998 (same case), then M = −1.9689 reads unlikely manipulator', () => {
    const score = beneishMScore(set(y1999, y1998));
    assertOk(score);
    expect(score.value).toBe(-1.9689);
    expect(score.reading).toBe('unlikely manipulator');
  });

  it('when both years report long-term securities, then AQI counts them with current assets and PP&E', () => {
    const withSec = (p: typeof y2000, sec: number) => ({ ...p, figures: { ...p.figures, long_term_investments: sec } });
    const score = beneishMScore(set(withSec(y2000, 5_000), withSec(y1999, 2_000)));
    assertOk(score);
    // AQI = [1 − (30381+11743+5000)/65503] / [1 − (7255+10681+2000)/33381]
    expect(score.components.aqi).toBeCloseTo((1 - 47_124 / 65_503) / (1 - 19_936 / 33_381), 12);
    expect(score.notes.join(' ')).toContain('long-term securities');
  });

  it('when M is exactly the cut-off −1.78, then it reads unlikely manipulator (the flag is strictly above)', () => {
    // All indices 1 except TATA: M = −4.84 + 0.92 + 0.528 + 0.404 + 0.892 + 0.115 − 0.172 − 0.327 + 4.679·TATA = −2.48 + 4.679·TATA.
    // TATA = 0.7/4.679 gives M = −1.78; with TA = 4679, NI − CFO = 700.
    const base = {
      accounts_receivable: 100,
      total_revenue: 1000,
      gross_profit: 400,
      current_assets: 1000,
      ppe_net: 1000,
      total_assets: 4679,
      depreciation: 100,
      sga_expense: 100,
      current_liabilities: 500,
      long_term_debt: 500,
    };
    const score = beneishMScore(
      set(
        period('2024-12-31', { ...base, net_income: 900, operating_cash_flow: 200 }),
        period('2023-12-31', { ...base, net_income: 0, operating_cash_flow: 0 }),
      ),
    );
    expect(score.value).toBe(-1.78);
    expect(score.reading).toBe('unlikely manipulator');
  });

  it('when SG&A and the prior period are missing, then insufficient_data names each field and period', () => {
    const noSga = { ...y2000, figures: { ...y2000.figures, sga_expense: null } };
    const score = beneishMScore(set(noSga, null));
    assertInsufficient(score);
    expect(score.missing).toContainEqual({
      field: 'sga_expense',
      period: 'current',
      period_end: '2000-12-31',
      reason: 'not reported in the filing',
    });
    expect(score.missing).toContainEqual({
      field: 'period',
      period: 'prior',
      period_end: null,
      reason: 'no year-earlier period in the filings',
    });
    expect(score.value).toBeNull();
  });
});
