import { ALTMAN_VARIANTS, type AltmanComponents } from './altman.ts';
import { BENEISH_CUTOFF, type BeneishIndices } from './beneish.ts';
import type { BenfordResult } from './benford.ts';
import { display, readingOf } from './figures.ts';
import type { PiotroskiSignals } from './piotroski.ts';
import { SLOAN_BANDS, type SloanComponents } from './sloan.ts';
import type { ScoreResult, Threshold } from './types.ts';

/** The scores the health score blends. */
export interface ForensicScores {
  beneish: ScoreResult<BeneishIndices>;
  altman: ScoreResult<AltmanComponents>;
  piotroski: ScoreResult<PiotroskiSignals>;
  sloan: ScoreResult<SloanComponents>;
  benford: BenfordResult;
}

export type HealthComponentName = keyof ForensicScores;

/** Weights of the blend (sum 1): distress and fundamentals first, manipulation next, accruals and digits last. */
export const HEALTH_WEIGHTS: Readonly<Record<HealthComponentName, number>> = {
  altman: 0.3,
  piotroski: 0.3,
  beneish: 0.2,
  sloan: 0.1,
  benford: 0.1,
};

/** Below this share of the weight with a computed score, the health score is insufficient_data. */
export const HEALTH_MIN_COVERAGE = 0.5;

export interface HealthComponent {
  component: HealthComponentName;
  weight: number;
  /** 0..100, null when the score is not available. */
  sub_score: number | null;
  status: ScoreResult<unknown>['status'];
  /** The underlying score's value and reading. */
  value: number | null;
  reading: string | null;
  rule: string;
}

export interface HealthScore {
  status: 'ok' | 'insufficient_data';
  /** 0..100 (one decimal), null when insufficient. */
  value: number | null;
  reading: string | null;
  /** Share of the weight whose score was available, 0..1. */
  coverage: number;
  components: HealthComponent[];
  thresholds: Threshold[];
  formula: string;
}

const THRESHOLDS: Threshold[] = [
  { operator: '>=', value: 70, reading: 'strong' },
  { operator: '>=', value: 40, reading: 'moderate' },
  { operator: '<', value: 40, reading: 'weak' },
];

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));

/** Each score mapped to 0..100 (the rules are documented in docs/forensic.md). */
const SUB_SCORES: Readonly<Record<HealthComponentName, { rule: string; of: (scores: ForensicScores) => number | null }>> = {
  altman: {
    rule: "0 at the variant's distress cut-off or below, 100 at its safe cut-off or above, linear in the grey zone",
    of: ({ altman }) => {
      if (altman.status !== 'ok') return null;
      const spec = ALTMAN_VARIANTS[altman.components.variant];
      return 100 * clamp01((altman.value - spec.distress) / (spec.safe - spec.distress));
    },
  },
  piotroski: { rule: '100 × F / 9', of: ({ piotroski }) => (piotroski.status === 'ok' ? (100 * piotroski.value) / 9 : null) },
  beneish: {
    rule: '0 at M ≥ −1.78 (the cut-off), 100 at M ≤ −2.78, linear between',
    of: ({ beneish }) => (beneish.status === 'ok' ? 100 * clamp01(BENEISH_CUTOFF - beneish.value) : null),
  },
  sloan: {
    rule: '100 for |accrual ratio| ≤ 0.10, 0 for ≥ 0.25, linear between',
    of: ({ sloan }) =>
      sloan.status === 'ok' ? 100 * clamp01((SLOAN_BANDS.high - Math.abs(sloan.value)) / (SLOAN_BANDS.high - SLOAN_BANDS.low)) : null,
  },
  benford: {
    rule: '100 for MAD ≤ 0.006 (close conformity), 0 for MAD ≥ 0.015 (nonconformity), linear between',
    of: ({ benford }) => (benford.status === 'ok' ? 100 * clamp01((0.015 - benford.components.mad) / (0.015 - 0.006)) : null),
  },
};

/**
 * The composite 0–100: a weighted mean of the available scores' 0–100 sub-scores, the
 * weights renormalised over what is available; insufficient_data below 50% coverage.
 */
export function healthScore(scores: ForensicScores): HealthScore {
  const components = (Object.keys(HEALTH_WEIGHTS) as HealthComponentName[]).map((name): HealthComponent => {
    const score = scores[name];
    const sub = SUB_SCORES[name].of(scores);
    return {
      component: name,
      weight: HEALTH_WEIGHTS[name],
      sub_score: sub === null ? null : display(sub),
      status: score.status,
      value: score.value,
      reading: score.reading,
      rule: SUB_SCORES[name].rule,
    };
  });
  const available = components.filter((c) => c.sub_score !== null);
  const coverage = Math.round(available.reduce((s, c) => s + c.weight, 0) * 1e6) / 1e6;
  const formula =
    'health = Σ weight × sub_score / Σ weight over available components (altman 0.30, piotroski 0.30, beneish 0.20, sloan 0.10, benford 0.10)';
  if (coverage < HEALTH_MIN_COVERAGE)
    return { status: 'insufficient_data', value: null, reading: null, coverage, components, thresholds: THRESHOLDS, formula };
  // Unrounded sub-scores feed the blend; only the shown values are rounded.
  const raw = (Object.keys(HEALTH_WEIGHTS) as HealthComponentName[])
    .map((name) => ({ w: HEALTH_WEIGHTS[name], s: SUB_SCORES[name].of(scores) }))
    .filter((c) => c.s !== null);
  const value = raw.reduce((s, c) => s + c.w * c.s!, 0) / raw.reduce((s, c) => s + c.w, 0);
  const shown = Math.round(value * 10) / 10;
  return { status: 'ok', value: shown, reading: readingOf(shown, THRESHOLDS), coverage, components, thresholds: THRESHOLDS, formula };
}
