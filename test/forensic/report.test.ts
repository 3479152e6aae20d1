import { describe, expect, it } from 'vitest';
import { benfordSampleOf, buildForensicReport, choosePeriods } from '../../forensic/report.ts';
import { period } from './periods.ts';

describe('forensic report', () => {
  it('when filings are quarterly, then the scores compare the latest period end with the same date one and two years earlier', () => {
    const quarters = ['2022-12-31', '2023-03-31', '2023-06-30', '2023-09-30', '2023-12-31', '2024-03-31', '2024-06-30', '2024-09-30', '2024-12-31', '2025-03-31'];
    const chosen = choosePeriods(quarters.map((q) => period(q, { total_assets: 1 })));
    expect([chosen.current?.periodEnd, chosen.prior?.periodEnd, chosen.prior2?.periodEnd]).toEqual(['2025-03-31', '2024-03-31', '2023-03-31']);
  });

  it('when no period sits within 20 days of a year earlier, then the prior period is missing', () => {
    const chosen = choosePeriods([period('2024-12-31', {}), period('2023-11-30', {})]);
    expect(chosen.prior).toBeNull();
    expect(chosen.prior2).toBeNull();
  });

  it('when a company has no filings, then every score is insufficient_data and so is the health score', () => {
    const report = buildForensicReport({ sic: '3560' }, []);
    expect(Object.values(report.scores).map((s) => s.status)).toEqual(['insufficient_data', 'insufficient_data', 'insufficient_data', 'insufficient_data', 'insufficient_data']);
    expect(report.health.status).toBe('insufficient_data');
  });

  it('feeds the Benford test every reported figure of every period, newest filing first', () => {
    const sample = benfordSampleOf([period('2023-12-31', { total_assets: 120, ebit: null }), period('2024-12-31', { total_assets: 340, net_income: -56 })]);
    expect(sample.values).toEqual([120, 340, -56]);
    expect(sample.filings.map((f) => f.period_end)).toEqual(['2024-12-31', '2023-12-31']);
  });
});
