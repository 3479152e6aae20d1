import { describe, expect, it } from 'vitest';
import {
  MAX_CARRY_DAYS,
  holdingPeriods,
  methodTotal,
  sharesOnBasis,
  type PurificationPoint,
} from '../../engine/shariah/holding-purification.ts';

/** A snapshot point with figures that make the arithmetic easy to follow by hand. */
function point(snapshotDate: string, over: Partial<PurificationPoint> = {}): PurificationPoint {
  return {
    snapshotDate,
    status: 'compliant',
    method: 'impermissible_income_per_share',
    nonPermissibleIncomeRatio: 0.02,
    proxy: null,
    filing: { sourceRef: `f-${snapshotDate}`, periodEnd: snapshotDate, filedOn: snapshotDate },
    currency: 'USD',
    dividendsPerShare: 1.5,
    totalRevenue: 1_000_000,
    sharesOutstanding: 10_000,
    ...over,
  };
}

describe('holding purification: the walk of a lot through point-in-time snapshots', () => {
  it('when a lot spans two snapshots, then each period uses its own snapshot and amounts are shares × per share × days ÷ 365', () => {
    const periods = holdingPeriods(
      { shares: 100, boughtOn: '2021-02-01', endsBefore: '2021-05-01' },
      [point('2020-12-31'), point('2021-03-31', { nonPermissibleIncomeRatio: 0.05, status: 'non_compliant' })],
      [],
      'USD',
    );
    expect(periods.map((p) => [p.from, p.through, p.days, p.point?.snapshotDate])).toEqual([
      ['2021-02-01', '2021-03-30', 58, '2020-12-31'],
      ['2021-03-31', '2021-04-30', 31, '2021-03-31'],
    ]);
    // 0.02 × 1,000,000 ÷ 10,000 = 2 per share a year; 0.05 → 5.
    expect(periods[0]!.incomeBased).toBeCloseTo((100 * 2 * 58) / 365, 12);
    expect(periods[1]!.incomeBased).toBeCloseTo((100 * 5 * 31) / 365, 12);
    expect(periods[0]!.dividendBased).toBeCloseTo((100 * 1.5 * 0.02 * 58) / 365, 12);
    expect(methodTotal(periods, (p) => p.incomeBased)).toMatchObject({ complete: true, periodsMissing: 0 });
  });

  it('when the lot starts before the first snapshot, then that stretch is its own period with no amount and the total is null', () => {
    const periods = holdingPeriods({ shares: 10, boughtOn: '2020-12-01', endsBefore: '2021-01-10' }, [point('2020-12-31')], [], 'USD');
    expect(periods[0]).toMatchObject({ from: '2020-12-01', through: '2020-12-30', days: 30, point: null, incomeBased: null });
    expect(periods[0]!.missing).toEqual(['no snapshot in force before 2020-12-31']);
    const total = methodTotal(periods, (p) => p.incomeBased);
    expect(total.amount).toBeNull();
    expect(total.complete).toBe(false);
    expect(total.amountKnown).toBeCloseTo((10 * 2 * 10) / 365, 12);
  });

  it(`when the latest snapshot is older than ${MAX_CARRY_DAYS} days, then the days beyond are missing, not carried`, () => {
    const periods = holdingPeriods({ shares: 1, boughtOn: '2020-06-01', endsBefore: '2022-01-01' }, [point('2020-01-01')], [], 'USD');
    expect(periods.map((p) => [p.from, p.through, p.point === null])).toEqual([
      ['2020-06-01', '2021-01-01', false],
      ['2021-01-02', '2021-12-31', true],
    ]);
    expect(periods[1]!.missing[0]).toMatch(/no snapshot within 366 days.*2020-01-01/);
  });

  it('when the filing reports in another currency or lacks dividends, then the affected amounts are missing and say why', () => {
    const lot = { shares: 1, boughtOn: '2021-01-01', endsBefore: '2021-02-01' };
    const [foreign] = holdingPeriods(lot, [point('2021-01-01', { currency: 'EUR' })], [], 'USD');
    expect(foreign).toMatchObject({ dividendBased: null, incomeBased: null });
    expect(foreign!.missing).toEqual(['filing f-2021-01-01 reports in EUR, the listing trades in USD']);
    const [noDividends] = holdingPeriods(lot, [point('2021-01-01', { dividendsPerShare: null })], [], 'USD');
    expect(noDividends!.dividendBased).toBeNull();
    expect(noDividends!.incomeBased).toBeCloseTo((2 * 31) / 365, 12);
    expect(noDividends!.missing).toEqual(['dividends per share of filing f-2021-01-01 are unknown']);
    const [noRatio] = holdingPeriods(lot, [point('2021-01-01', { nonPermissibleIncomeRatio: null })], [], 'USD');
    expect(noRatio!.missing).toEqual(['the non-permissible income ratio of snapshot 2021-01-01 is unknown']);
  });

  it('when a split falls between purchase and filing, then the lot counts on the filing share basis', () => {
    const splits = [{ exDate: '2021-03-01', ratio: 4 }];
    expect(sharesOnBasis(10, '2021-01-15', '2021-04-20', splits)).toBe(40);
    expect(sharesOnBasis(40, '2021-03-15', '2021-02-10', splits)).toBe(10);
    expect(sharesOnBasis(10, '2021-04-01', '2021-05-01', splits)).toBe(10);
    const periods = holdingPeriods(
      { shares: 10, boughtOn: '2021-01-15', endsBefore: '2021-05-15' },
      [
        point('2021-01-01', { filing: { sourceRef: 'pre', periodEnd: '2020-12-31', filedOn: '2021-01-01' } }),
        point('2021-05-01', { filing: { sourceRef: 'post', periodEnd: '2021-03-31', filedOn: '2021-04-20' } }),
      ],
      splits,
      'USD',
    );
    expect(periods.map((p) => p.sharesOnFilingBasis)).toEqual([10, 40]);
  });
});
