import { describe, expect, it } from 'vitest';
import { benfordSampleOf, buildForensicReport, choosePeriods } from '../../forensic/report.ts';
import { period } from './periods.ts';

describe('forensic report', () => {
  it('when filings are quarterly, then the scores compare the latest period end with the same date one and two years earlier', () => {
    const quarters = [
      '2022-12-31',
      '2023-03-31',
      '2023-06-30',
      '2023-09-30',
      '2023-12-31',
      '2024-03-31',
      '2024-06-30',
      '2024-09-30',
      '2024-12-31',
      '2025-03-31',
    ];
    const chosen = choosePeriods(quarters.map((q) => period(q, { total_assets: 1 })));
    expect([chosen.current?.periodEnd, chosen.prior?.periodEnd, chosen.prior2?.periodEnd]).toEqual([
      '2025-03-31',
      '2024-03-31',
      '2023-03-31',
    ]);
  });

  it('when no period sits within 20 days of a year earlier, then the prior period is missing', () => {
    const chosen = choosePeriods([period('2024-12-31', {}), period('2023-11-30', {})]);
    expect(chosen.prior).toBeNull();
    expect(chosen.prior2).toBeNull();
  });

  it('when a company has no filings, then every score is insufficient_data and so is the health score', () => {
    const report = buildForensicReport({ sic: '3560' }, []);
    expect(Object.values(report.scores).map((s) => s.status)).toEqual([
      'insufficient_data',
      'insufficient_data',
      'insufficient_data',
      'insufficient_data',
      'insufficient_data',
    ]);
    expect(report.health.status).toBe('insufficient_data');
  });

  it('feeds the Benford test every reported figure of every period, newest filing first', () => {
    const sample = benfordSampleOf([
      period('2023-12-31', { total_assets: 120, ebit: null }),
      period('2024-12-31', { total_assets: 340, net_income: -56 }),
    ]);
    expect(sample.values).toEqual([120, 340, -56]);
    expect(sample.filings.map((f) => f.period_end)).toEqual(['2024-12-31', '2023-12-31']);
  });
});

describe('score history', () => {
  const year = (y: number, sales: number) =>
    period(`${y}-12-31`, {
      total_assets: 1000,
      net_income: 50,
      operating_cash_flow: 60,
      total_revenue: sales,
      gross_profit: sales * 0.3,
      current_assets: 400,
      current_liabilities: 200,
      retained_earnings: 100,
      ebit: 80,
      total_liabilities: 500,
      total_equity: 500,
      long_term_debt: 100,
      shares_outstanding: 10,
    });

  it('when seven years are filed, then the trend holds the latest five, newest first, each against its own prior year', () => {
    const periods = [2019, 2020, 2021, 2022, 2023, 2024, 2025].map((y) => year(y, 1000 + (y - 2019) * 100));
    const history = buildForensicReport({ sic: '7372' }, periods).history;
    expect(history.map((h) => h.period_end)).toEqual(['2025-12-31', '2024-12-31', '2023-12-31', '2022-12-31', '2021-12-31']);
    // Sloan needs this year and the last: every year has both. Piotroski needs two years back: 2021 has 2019.
    expect(history.map((h) => h.sloan_accrual_ratio.status)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect(history.every((h) => h.piotroski_f_score.status === 'ok' && h.altman_z_score.variant === 'non_manufacturing')).toBe(true);
    expect(history[0]!.sloan_accrual_ratio.value).toBe(-0.01); // (50 − 60) / 1000
  });

  it('when a year is missing, then the trend stops before it', () => {
    const history = buildForensicReport({ sic: '7372' }, [year(2025, 1000), year(2024, 900), year(2022, 800)]).history;
    expect(history.map((h) => [h.period_end, h.sloan_accrual_ratio.status])).toEqual([
      ['2025-12-31', 'ok'],
      ['2024-12-31', 'insufficient_data'],
    ]);
  });
});
