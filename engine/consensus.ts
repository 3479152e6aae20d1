/**
 * service_consensus: the service's own 0–100 score blending all frameworks. The five Shariah
 * methodologies form one "Shariah signal" (the mean of their decisive statuses) weighted 0.40,
 * decided only when at least three of the five are decisive (one methodology is not a tradition);
 * each of the four other traditions is weighted 0.15. Status values: compliant 1,
 * questionable 0.5, non_compliant 0; insufficient_data is left out and its weight with it.
 * Fail-closed: below 70% weight coverage the status is insufficient_data (score null); a
 * missing Shariah signal alone (0.40) is enough to fall below.
 * Otherwise compliant ≥ 80, non_compliant < 50, questionable between.
 */
import { SHARIAH_FRAMEWORK_IDS, type FrameworkId } from './frameworks.ts';
import type { ConsensusComponent, FrameworkResult, Reason, VerdictStatus } from './result-types.ts';

// consensus-2 (engine 2.0.0): the Shariah signal needs 3 of 5 decisive methodologies.
export const CONSENSUS_VERSION = 'consensus-2';
export const CONSENSUS_WEIGHTS = Object.freeze({
  shariah_signal: 0.4,
  christian_bri: 0.15,
  catholic_usccb: 0.15,
  jewish_halakhic: 0.15,
  lds_mormon: 0.15,
});
export const CONSENSUS_MIN_COVERAGE = 0.7;
/** Decisive Shariah methodologies (of five) the Shariah signal needs, else it is insufficient_data. */
export const SHARIAH_SIGNAL_MIN_DECISIVE = 3;
export const CONSENSUS_COMPLIANT_AT = 80;
export const CONSENSUS_NON_COMPLIANT_BELOW = 50;

const VALUE: Record<VerdictStatus, number | null> = { compliant: 1, questionable: 0.5, non_compliant: 0, insufficient_data: null };
const OTHER_IDS = ['christian_bri', 'catholic_usccb', 'jewish_halakhic', 'lds_mormon'] as const;

function statusOfValue(v: number): VerdictStatus {
  return v >= 0.75 ? 'compliant' : v < 0.25 ? 'non_compliant' : 'questionable';
}

/** Blend the nine computed framework results into the consensus result. */
export function computeConsensus(results: Partial<Record<FrameworkId, FrameworkResult>>): FrameworkResult {
  let shariahSum = 0;
  let shariahN = 0;
  for (const id of SHARIAH_FRAMEWORK_IDS) {
    const v = VALUE[results[id]!.status];
    if (v !== null) {
      shariahSum += v;
      shariahN += 1;
    }
  }
  const shariahDecided = shariahN >= SHARIAH_SIGNAL_MIN_DECISIVE;
  const shariahValue = shariahDecided ? shariahSum / shariahN : null;
  const components: ConsensusComponent[] = [
    {
      component: 'shariah_signal',
      weight: CONSENSUS_WEIGHTS.shariah_signal,
      status: shariahValue === null ? 'insufficient_data' : statusOfValue(shariahValue),
      value: shariahValue,
    },
  ];
  const shariahReason: Reason | null = shariahDecided
    ? null
    : {
        code: 'service_consensus.shariah_coverage',
        result: 'insufficient_data',
        message:
          `The Shariah signal needs at least ${SHARIAH_SIGNAL_MIN_DECISIVE} of the ${SHARIAH_FRAMEWORK_IDS.length} Shariah ` +
          `methodologies with a decisive verdict; ${shariahN} ${shariahN === 1 ? 'has' : 'have'} one.`,
        metric: 'shariah_decisive_methodologies',
        value: shariahN,
        threshold: SHARIAH_SIGNAL_MIN_DECISIVE,
        operator: '>=',
      };
  for (const id of OTHER_IDS) {
    const status = results[id]!.status;
    components.push({ component: id, weight: CONSENSUS_WEIGHTS[id], status, value: VALUE[status] });
  }
  let weighted = 0;
  let coverage = 0;
  for (const c of components) {
    if (c.value === null) continue;
    weighted += c.weight * c.value;
    coverage += c.weight;
  }
  coverage = Math.round(coverage * 1000) / 1000;
  const score = coverage >= CONSENSUS_MIN_COVERAGE ? Math.round((1000 * weighted) / coverage) / 10 : null;
  const status: VerdictStatus =
    score === null
      ? 'insufficient_data'
      : score >= CONSENSUS_COMPLIANT_AT
        ? 'compliant'
        : score < CONSENSUS_NON_COMPLIANT_BELOW
          ? 'non_compliant'
          : 'questionable';
  const reason: Reason =
    score === null
      ? {
          code: 'service_consensus.coverage',
          result: 'insufficient_data',
          message: `Only ${Math.round(coverage * 100)}% of the consensus weight has a decisive verdict (minimum 70%).`,
          metric: 'coverage',
          value: coverage,
          threshold: CONSENSUS_MIN_COVERAGE,
          operator: '>=',
        }
      : {
          code: 'service_consensus.score',
          result: status === 'compliant' ? 'pass' : status === 'non_compliant' ? 'fail' : 'questionable',
          message: `Consensus score ${score} of 100 (compliant at 80 or more, non-compliant below 50).`,
          metric: 'consensus_score',
          value: score,
          threshold: CONSENSUS_COMPLIANT_AT,
          operator: '>=',
        };
  return {
    id: 'service_consensus',
    status,
    score,
    methodology_version: CONSENSUS_VERSION,
    methodology_effective_from: '1900-01-01',
    reasons: shariahReason === null ? [reason] : [shariahReason, reason],
    purification: null,
    components,
    coverage,
  };
}
