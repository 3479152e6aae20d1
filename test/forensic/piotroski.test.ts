import { describe, expect, it } from 'vitest';
import { PIOTROSKI_SIGNALS, piotroskiFScore } from '../../forensic/piotroski.ts';
import type { FigureName } from '../../forensic/types.ts';
import { assertInsufficient, assertOk, period, set } from './periods.ts';

type Figures = Partial<Record<FigureName, number | null>>;

// No published per-company worked example with figures was found; the nine signals follow Piotroski (2000) and are computed by hand.
// Hand case: 2022 assets 1000; 2023 NI 50, CFO 60, LTD 300, CA 400, CL 200, 100 shares, GP 300 on sales 1000, assets 1000.
const y2022 = period('2022-12-31', { total_assets: 1000 });
const y2023 = period('2023-12-31', {
  total_assets: 1000,
  net_income: 50,
  operating_cash_flow: 60,
  long_term_debt: 300,
  current_assets: 400,
  current_liabilities: 200,
  shares_outstanding: 100,
  gross_profit: 300,
  total_revenue: 1000,
});
const strong: Figures = {
  total_assets: 1100,
  net_income: 80,
  operating_cash_flow: 120,
  long_term_debt: 250,
  current_assets: 500,
  current_liabilities: 200,
  shares_outstanding: 100,
  gross_profit: 340,
  total_revenue: 1100,
};

const score = (figures: Figures) => piotroskiFScore(set(period('2024-12-31', figures), y2023, y2022));

describe('Piotroski F-Score', () => {
  it('when every signal improves, then F = 9 (high) with each measure computed by hand', () => {
    const result = score(strong);
    assertOk(result);
    const s = result.components;
    expect(s.roa.measure).toBeCloseTo(0.08, 12); // 80 / 1000 (beginning assets)
    expect(s.cfo.measure).toBeCloseTo(0.12, 12); // 120 / 1000
    expect(s.delta_roa.measure).toBeCloseTo(0.03, 12); // 0.08 − 50/1000
    expect(s.accrual.measure).toBeCloseTo(0.04, 12); // 0.12 − 0.08
    expect(s.delta_lever.measure).toBeCloseTo(250 / 1050 - 0.3, 12); // LTD / average assets: 0.238095 − 300/1000
    expect(s.delta_liquid.measure).toBeCloseTo(0.5, 12); // 500/200 − 400/200
    expect(s.eq_offer.measure).toBe(0); // 100 − 100 shares: no issue
    expect(s.delta_margin.measure).toBeCloseTo(340 / 1100 - 0.3, 12);
    expect(s.delta_turn.measure).toBeCloseTo(0.1, 12); // 1100/1000 − 1000/1000
    expect(PIOTROSKI_SIGNALS.map((n) => s[n].score)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1]);
    expect(result.value).toBe(9);
    expect(result.reading).toBe('high: strong fundamentals');
    expect(result.periods).toEqual(['2024-12-31', '2023-12-31', '2022-12-31']);
  });

  it('when every signal worsens, then F = 0 (low)', () => {
    const result = score({
      total_assets: 1100,
      net_income: -20,
      operating_cash_flow: -30,
      long_term_debt: 400,
      current_assets: 300,
      current_liabilities: 200,
      shares_outstanding: 120,
      gross_profit: 250,
      total_revenue: 900,
    });
    expect(result.value).toBe(0);
    expect(result.reading).toBe('low: weak fundamentals');
  });

  it('when shares, leverage, liquidity and margin worsen, then F = 5 (middle)', () => {
    const result = score({ ...strong, shares_outstanding: 110, long_term_debt: 350, current_assets: 400, gross_profit: 300 });
    // 350/1050 = 0.3333 > 0.3 (lever up), 400/200 = 2.0 unchanged (not improved), 300/1100 < 0.3 (margin down), 110 > 100 shares
    expect(result.value).toBe(5);
    expect(result.reading).toBe('middle');
  });

  it('when leverage is unchanged (no long-term debt either year), then ΔLEVER scores 0: it must fall', () => {
    const noDebt = { ...y2023, figures: { ...y2023.figures, long_term_debt: 0 } };
    const result = piotroskiFScore(set(period('2024-12-31', { ...strong, long_term_debt: 0 }), noDebt, y2022));
    assertOk(result);
    expect(result.components.delta_lever).toMatchObject({ score: 0, measure: 0 });
  });

  it('when the period two years back is missing, then insufficient_data names it and the computable signals are still shown', () => {
    const result = piotroskiFScore(set(period('2024-12-31', strong), y2023, null));
    assertInsufficient(result);
    expect(result.missing).toEqual([
      { field: 'period', period: 'prior2', period_end: null, reason: 'no two-years-earlier period in the filings' },
    ]);
    expect(result.components.roa?.score).toBe(1);
    expect(result.components.delta_roa?.score).toBeNull();
  });
});
