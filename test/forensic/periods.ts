import type { BenfordResult } from '../../forensic/benford.ts';
import type { FigureName, Period, PeriodSet, ScoreInsufficient, ScoreOk, ScoreResult } from '../../forensic/types.ts';

/** A hand-made period: figures in whole currency units, a `test:` filing reference. */
export function period(periodEnd: string, figures: Partial<Record<FigureName, number | null>>, close: number | null = null): Period {
  return {
    periodEnd,
    filedOn: periodEnd.replace(/-\d{2}-\d{2}$/, '-03-01').replace(/^(\d{4})/, (y) => String(Number(y) + 1)),
    sourceRef: `test:${periodEnd}`,
    currency: 'USD',
    figures,
    close,
    closeDate: close === null ? null : periodEnd,
  };
}

export function set(current: Period | null, prior: Period | null = null, prior2: Period | null = null): PeriodSet {
  return { current, prior, prior2 };
}

/** Narrows a score to `ok` (fails the test otherwise). */
export function assertOk<C>(score: ScoreResult<C> | BenfordResult): asserts score is ScoreOk<C> {
  if (score.status !== 'ok') throw new Error(`expected an ok score, got ${score.status}: ${JSON.stringify(score)}`);
}

/** Narrows a score to `insufficient_data` (fails the test otherwise). */
export function assertInsufficient<C>(score: ScoreResult<C> | BenfordResult): asserts score is ScoreInsufficient<C> {
  if (score.status !== 'insufficient_data') throw new Error(`expected insufficient_data, got ${score.status}`);
}
