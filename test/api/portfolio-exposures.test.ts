import { describe, expect, it } from 'vitest';
import {
  EXPOSURES_LISTED,
  countedAs,
  frameworkSummary,
  rowsNeedingReasons,
  storedVerdicts,
  type Exposure,
} from '../../api/use-cases/portfolio-exposures.ts';
import type { ScreeningResult } from '../../engine/index.ts';
import type { VerdictRow } from '../../reads/api-reads-types.ts';

/** A current snapshot with one AAOIFI status (the other frameworks compliant). */
function row(ticker: string, status: VerdictRow['statuses']['shariah_aaoifi']): VerdictRow {
  return {
    market: 'us',
    ticker,
    snapshotDate: '2026-11-27',
    screenedAt: '2026-11-27T02:00:00.000',
    source: 'nightly',
    era: 'current',
    statuses: { shariah_aaoifi: status } as VerdictRow['statuses'],
    ratios: {} as VerdictRow['ratios'],
    synthetic: true,
    dataSource: 'sample',
  };
}

const held = (ticker: string, weight: number, r: VerdictRow | undefined, via: string | null = null, expired = false): Exposure => ({
  market: 'us',
  ticker,
  via,
  weight,
  row: r,
  expired,
});

describe('the portfolio split by status, counted fail closed', () => {
  it('counts insufficient data, no verdict and an expired verdict as unknown, never compliant', () => {
    const aaoifi = storedVerdicts('shariah_aaoifi', new Map());
    expect(countedAs({ row: row('A', 'insufficient_data'), expired: false }, aaoifi)).toBe('unknown');
    expect(countedAs({ row: undefined, expired: false }, aaoifi)).toBe('unknown');
    expect(countedAs({ row: row('A', 'compliant'), expired: true }, aaoifi)).toBe('unknown');
    expect(countedAs({ row: row('A', 'questionable'), expired: false }, aaoifi)).toBe('questionable');
  });

  it('adds a company held directly and through a fund into one failing entry with its deciding reasons, and lists the uncovered part of a fund as unknown', () => {
    const bad = row('BAD', 'non_compliant');
    const exposures = [
      held('BAD', 0.2, bad),
      held('GOOD', 0.3, row('GOOD', 'compliant')),
      held('BAD', 0.1, bad, 'FUND'),
      held('NEW', 0.15, undefined, 'FUND'),
      { market: null, ticker: null, via: 'FUND', weight: 0.25, row: undefined, expired: false },
    ];
    const result = {
      frameworks: {
        shariah_aaoifi: {
          status: 'non_compliant',
          reasons: [
            { code: 'shariah_aaoifi.debt', result: 'fail', message: 'debt over 30%' },
            { code: 'shariah_aaoifi.activity', result: 'pass', message: 'no prohibited business' },
          ],
        },
      },
    } as unknown as ScreeningResult;
    const summary = frameworkSummary(exposures, storedVerdicts('shariah_aaoifi', new Map([[bad, result]])));
    expect(summary).toMatchObject({
      compliant: 0.3,
      non_compliant: 0.3,
      questionable: 0,
      unknown: 0.4,
      failing_count: 1,
      not_decided_count: 2,
    });
    expect(summary.failing).toEqual([
      { market: 'us', ticker: 'BAD', via: null, weight: 0.3, status: 'non_compliant', why: ['debt over 30%'] },
    ]);
    expect(summary.not_decided).toEqual([
      {
        market: null,
        ticker: null,
        via: 'FUND',
        weight: 0.25,
        status: 'unknown',
        why: ['the part of fund FUND its latest holdings report does not cover'],
      },
      { market: 'us', ticker: 'NEW', via: 'FUND', weight: 0.15, status: 'unknown', why: ['never screened: no verdict'] },
    ]);
  });

  it('lists at most 100 failing companies, heaviest first, and reads reasons only for those listed', () => {
    const exposures = Array.from({ length: 150 }, (_, i) => held(`T${i}`, (i + 1) / 11_325, row(`T${i}`, 'non_compliant')));
    const summary = frameworkSummary(exposures, storedVerdicts('shariah_aaoifi', new Map()));
    expect(summary.failing_count).toBe(150);
    expect((summary.failing as Array<{ ticker: string }>).length).toBe(EXPOSURES_LISTED);
    expect((summary.failing as Array<{ ticker: string }>)[0]!.ticker).toBe('T149');
    const needed = rowsNeedingReasons(exposures, [storedVerdicts('shariah_aaoifi', new Map())]).map((r) => r.ticker);
    expect(needed).toHaveLength(EXPOSURES_LISTED);
    expect(needed).not.toContain('T0');
  });
});
