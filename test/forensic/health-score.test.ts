import { describe, expect, it } from 'vitest';
import type { AltmanComponents } from '../../forensic/altman.ts';
import type { BeneishIndices } from '../../forensic/beneish.ts';
import type { BenfordComponents, BenfordResult } from '../../forensic/benford.ts';
import { healthScore } from '../../forensic/health-score.ts';
import type { PiotroskiSignals } from '../../forensic/piotroski.ts';
import type { SloanComponents } from '../../forensic/sloan.ts';
import type { ScoreResult } from '../../forensic/types.ts';

const base = { method: { name: 'm', formula: 'f', source: 's' }, periods: [], inputs: [], thresholds: [], notes: [] };
const ok = <C>(value: number, components: C): ScoreResult<C> => ({ ...base, status: 'ok', value, reading: 'r', components });
const insufficient = <C>(): ScoreResult<C> => ({
  ...base,
  status: 'insufficient_data',
  value: null,
  reading: null,
  missing: [],
  components: {},
});
const notApplicable = <C>(): ScoreResult<C> => ({ ...base, status: 'not_applicable', value: null, reading: null, reason: 'bank' });

const altman = ok<AltmanComponents>(2.4, {
  variant: 'original',
  x1_working_capital_to_assets: 0,
  x2_retained_earnings_to_assets: 0,
  x3_ebit_to_assets: 0,
  x4_equity_to_liabilities: 0,
  x5_sales_to_assets: 0,
});
const piotroski = ok<PiotroskiSignals>(6, {} as PiotroskiSignals);
const beneish = ok<BeneishIndices>(-2.28, {} as BeneishIndices);
const sloan = ok<SloanComponents>(-0.175, { accruals: 0, average_total_assets: 0 });
const benford = ok<BenfordComponents>(0.0105, { figures: 500, digits: [], mad: 0.0105, chi_square: 0, filings: [] }) as BenfordResult;

describe('health score', () => {
  it('when every score is available, then the weighted blend of the sub-scores is 55.0 (moderate)', () => {
    // Altman (2.4 − 1.81)/(2.99 − 1.81) = 50; Piotroski 6/9 = 66.667; Beneish −1.78 − (−2.28) = 0.5 → 50;
    // Sloan (0.25 − 0.175)/0.15 = 50; Benford (0.015 − 0.0105)/0.009 = 50.
    // 0.3·50 + 0.3·66.667 + 0.2·50 + 0.1·50 + 0.1·50 = 15 + 20 + 10 + 5 + 5 = 55
    const health = healthScore({ altman, piotroski, beneish, sloan, benford });
    expect(health.status).toBe('ok');
    expect(health.value).toBe(55);
    expect(health.reading).toBe('moderate');
    expect(health.coverage).toBe(1);
    expect(health.components.map((c) => c.sub_score)).toEqual([50, 66.6667, 50, 50, 50]);
  });

  it('when Altman does not apply and Benford lacks data, then the weights renormalise over 0.6: (20 + 10 + 5) / 0.6 = 58.3', () => {
    const health = healthScore({
      altman: notApplicable(),
      piotroski,
      beneish,
      sloan,
      benford: insufficient<BenfordComponents>() as BenfordResult,
    });
    expect(health.value).toBe(58.3);
    expect(health.coverage).toBe(0.6);
    expect(health.components.find((c) => c.component === 'altman')).toMatchObject({ status: 'not_applicable', sub_score: null });
  });

  it('when less than half of the weight is available, then insufficient_data with the coverage (exactly half still scores)', () => {
    const half = healthScore({ altman: insufficient(), piotroski, beneish: insufficient(), sloan, benford });
    // (0.3·66.667 + 0.1·50 + 0.1·50) / 0.5 = 30 / 0.5 = 60
    expect(half).toMatchObject({ status: 'ok', value: 60, coverage: 0.5 });
    const less = healthScore({
      altman: insufficient(),
      piotroski,
      beneish: insufficient(),
      sloan,
      benford: insufficient<BenfordComponents>() as BenfordResult,
    });
    expect(less).toMatchObject({ status: 'insufficient_data', value: null, coverage: 0.4 });
  });

  it('when the blend is exactly 70, then it reads strong (70 and above)', () => {
    // Altman 2.99 → 100 (0.3·100 = 30), Piotroski 3 → 33.333 (10), Beneish −2.78 → 100 (20), Sloan 50 (5), Benford 50 (5) = 70.
    const health = healthScore({
      altman: { ...altman, value: 2.99 } as ScoreResult<AltmanComponents>,
      piotroski: ok<PiotroskiSignals>(3, {} as PiotroskiSignals),
      beneish: ok<BeneishIndices>(-2.78, {} as BeneishIndices),
      sloan,
      benford,
    });
    expect(health.value).toBe(70);
    expect(health.reading).toBe('strong');
  });
});
