import { altmanZScore } from './altman.ts';
import { beneishMScore } from './beneish.ts';
import { benfordTest, type BenfordSample } from './benford.ts';
import { healthScore, type ForensicScores, type HealthScore } from './health-score.ts';
import { piotroskiFScore } from './piotroski.ts';
import { sloanAccrualRatio } from './sloan.ts';
import { FIGURE_NAMES, type CompanyProfile, type Period, type PeriodSet, type ScoreResult } from './types.ts';

const DAY_MS = 86_400_000;
/** How far a period end may sit from exactly one year earlier and still count as the prior year. */
export const YEAR_TOLERANCE_DAYS = 20;

function yearBefore(periods: readonly Period[], period: Period): Period | null {
  const target = Date.parse(`${Number(period.periodEnd.slice(0, 4)) - 1}${period.periodEnd.slice(4)}T00:00:00Z`);
  let best: Period | null = null;
  let bestGap = Infinity;
  for (const p of periods) {
    const gap = Math.abs(Date.parse(`${p.periodEnd}T00:00:00Z`) - target) / DAY_MS;
    if (gap <= YEAR_TOLERANCE_DAYS && gap < bestGap) {
      best = p;
      bestGap = gap;
    }
  }
  return best;
}

/**
 * The periods the scores compare: the latest period end, the one a year before it and the one
 * a year before that (flows are trailing twelve months, so any period end compares with the
 * same date a year earlier). `periods` are one per period end, any order.
 */
export function choosePeriods(periods: readonly Period[]): PeriodSet {
  const sorted = [...periods].sort((a, b) => b.periodEnd.localeCompare(a.periodEnd));
  const current = sorted[0] ?? null;
  const prior = current ? yearBefore(sorted, current) : null;
  const prior2 = prior ? yearBefore(sorted, prior) : null;
  return { current, prior, prior2 };
}

/** Every reported amount of every period (one value per figure and period end), for the Benford test. */
export function benfordSampleOf(periods: readonly Period[]): BenfordSample {
  const values: number[] = [];
  for (const p of periods) {
    for (const name of FIGURE_NAMES) {
      const v = p.figures[name];
      if (v !== null && v !== undefined && Number.isFinite(v)) values.push(v);
    }
  }
  const filings = [...periods]
    .sort((a, b) => b.periodEnd.localeCompare(a.periodEnd))
    .map((p) => ({ period_end: p.periodEnd, source_ref: p.sourceRef, filed_on: p.filedOn }));
  return { values, filings };
}

/** A score's outcome in one line: status, value and reading. */
export interface ScoreLine {
  status: ScoreResult<unknown>['status'];
  value: number | null;
  reading: string | null;
}

/** The year-on-year scores at one period end (Benford and the health score read the whole history, so they are not repeated per year). */
export interface HistoryYear {
  period_end: string;
  source_ref: string;
  filed_on: string;
  beneish_m_score: ScoreLine;
  altman_z_score: ScoreLine & { variant: string | null };
  piotroski_f_score: ScoreLine;
  sloan_accrual_ratio: ScoreLine;
}

/** Years of history a report carries, newest first (the current period included). */
export const HISTORY_YEARS = 5;

export interface ForensicReport {
  periods: PeriodSet;
  scores: ForensicScores;
  health: HealthScore;
  history: HistoryYear[];
}

const line = (s: Pick<ScoreResult<unknown>, 'status' | 'value' | 'reading'>): ScoreLine => ({
  status: s.status,
  value: s.value,
  reading: s.reading,
});

/**
 * The trend: the scores at the latest period end and at the same date in each of the
 * `years − 1` years before it, each compared with its own prior year. Stops at the first
 * missing year.
 */
export function scoreHistory(profile: CompanyProfile, periods: readonly Period[], years = HISTORY_YEARS): HistoryYear[] {
  const sorted = [...periods].sort((a, b) => b.periodEnd.localeCompare(a.periodEnd));
  const history: HistoryYear[] = [];
  for (let anchor = sorted[0] ?? null; anchor !== null && history.length < years; anchor = yearBefore(sorted, anchor)) {
    const prior = yearBefore(sorted, anchor);
    const set: PeriodSet = { current: anchor, prior, prior2: prior ? yearBefore(sorted, prior) : null };
    const altman = altmanZScore(profile, set);
    history.push({
      period_end: anchor.periodEnd,
      source_ref: anchor.sourceRef,
      filed_on: anchor.filedOn,
      beneish_m_score: line(beneishMScore(set)),
      altman_z_score: { ...line(altman), variant: altman.status === 'not_applicable' ? null : (altman.components.variant ?? null) },
      piotroski_f_score: line(piotroskiFScore(set)),
      sloan_accrual_ratio: line(sloanAccrualRatio(set)),
    });
  }
  return history;
}

/** Every score and the health score of a company from its periods (point in time: the caller passes only what was filed by then). */
export function buildForensicReport(profile: CompanyProfile, periods: readonly Period[]): ForensicReport {
  const chosen = choosePeriods(periods);
  const scores: ForensicScores = {
    beneish: beneishMScore(chosen),
    altman: altmanZScore(profile, chosen),
    piotroski: piotroskiFScore(chosen),
    sloan: sloanAccrualRatio(chosen),
    benford: benfordTest(benfordSampleOf(periods)),
  };
  return { periods: chosen, scores, health: healthScore(scores), history: scoreHistory(profile, periods) };
}
