/**
 * service_consensus: the consensus of the five Shariah methodologies (version consensus-3), with
 * the other traditions shown beside it, never averaged in: a coffee roaster the Word of Wisdom
 * rejects is no less Shariah-compliant, and a bank the five reject is not made `questionable`
 * by traditions that do not screen interest. The rule, in order:
 * 1. fewer than 3 of the 5 methodologies decisive → insufficient_data;
 * 2. more than half of the decisive ones non_compliant → non_compliant;
 * 3. the score (100 × the mean of the decisive statuses: compliant 1, questionable 0.5,
 *    non_compliant 0) below 50 → non_compliant;
 * 4. any methodology failing a prohibited business activity → questionable at best;
 * 5. score 80 or more → compliant; otherwise questionable.
 * See docs/frameworks/service_consensus.md.
 */
import { SHARIAH_FRAMEWORK_IDS, type FrameworkId } from './frameworks.ts';
import type { ConsensusComponent, ConsensusTradition, FrameworkResult, Reason, VerdictStatus } from './result-types.ts';

// consensus-3 (engine 3.0.0): the five Shariah methodologies only; other traditions beside it.
export const CONSENSUS_VERSION = 'consensus-3';
/** Each Shariah methodology's weight in the score: equal among the five. */
export const CONSENSUS_WEIGHTS: Readonly<Partial<Record<FrameworkId, number>>> = Object.freeze(
  Object.fromEntries(SHARIAH_FRAMEWORK_IDS.map((id) => [id, 1 / SHARIAH_FRAMEWORK_IDS.length])),
);
/** Decisive Shariah methodologies (of five) the consensus needs, else it is insufficient_data. */
export const SHARIAH_SIGNAL_MIN_DECISIVE = 3;
export const CONSENSUS_COMPLIANT_AT = 80;
export const CONSENSUS_NON_COMPLIANT_BELOW = 50;

const VALUE: Record<VerdictStatus, number | null> = { compliant: 1, questionable: 0.5, non_compliant: 0, insufficient_data: null };
/** The traditions shown beside the Shariah consensus, each with its own verdict. */
const TRADITION_IDS = ['christian_bri', 'catholic_usccb', 'jewish_halakhic', 'lds_mormon'] as const;

/** True when the methodology fails the company on a prohibited business activity (`<id>.business.<activity>`, MSCI's cumulative share). */
function failsOnBusiness(result: FrameworkResult): boolean {
  return result.reasons.some(
    (r) => r.result === 'fail' && (r.code.startsWith(`${result.id}.business.`) || r.code === `${result.id}.prohibited_revenue`),
  );
}

function decide(score: number, decisive: number, rejecting: number, businessFailures: readonly FrameworkId[]): VerdictStatus {
  if (rejecting * 2 > decisive || score < CONSENSUS_NON_COMPLIANT_BELOW) return 'non_compliant';
  if (businessFailures.length > 0) return 'questionable';
  return score >= CONSENSUS_COMPLIANT_AT ? 'compliant' : 'questionable';
}

function ruleReason(status: VerdictStatus, score: number, decisive: number, rejecting: number, business: readonly FrameworkId[]): Reason {
  const counts = `${rejecting} of ${decisive} decisive Shariah methodologies non-compliant`;
  const why =
    rejecting * 2 > decisive
      ? `most decisive methodologies reject the company (${counts})`
      : score < CONSENSUS_NON_COMPLIANT_BELOW
        ? `the score is below ${CONSENSUS_NON_COMPLIANT_BELOW} (${counts})`
        : business.length > 0
          ? `${business.join(', ')} ${business.length === 1 ? 'finds' : 'find'} a prohibited business activity, so the consensus is not compliant (${counts})`
          : status === 'compliant'
            ? `the score is ${CONSENSUS_COMPLIANT_AT} or more and no methodology finds a prohibited business activity (${counts})`
            : `the score is between ${CONSENSUS_NON_COMPLIANT_BELOW} and ${CONSENSUS_COMPLIANT_AT} (${counts})`;
  return {
    code: 'service_consensus.score',
    result: status === 'compliant' ? 'pass' : status === 'non_compliant' ? 'fail' : 'questionable',
    message: `Shariah consensus score ${score} of 100: ${status.replace('_', '-')} because ${why}. Other traditions are shown beside it, not counted.`,
    metric: 'consensus_score',
    value: score,
    threshold: CONSENSUS_COMPLIANT_AT,
    operator: '>=',
  };
}

/** The consensus of the five Shariah results, with the other traditions' verdicts beside it. */
export function computeConsensus(results: Partial<Record<FrameworkId, FrameworkResult>>): FrameworkResult {
  const components: ConsensusComponent[] = [];
  let sum = 0;
  let decisive = 0;
  let rejecting = 0;
  const business: FrameworkId[] = [];
  for (const id of SHARIAH_FRAMEWORK_IDS) {
    const result = results[id]!;
    const value = VALUE[result.status];
    components.push({ component: id, weight: CONSENSUS_WEIGHTS[id]!, status: result.status, value });
    if (value === null) continue;
    sum += value;
    decisive += 1;
    if (result.status === 'non_compliant') rejecting += 1;
    if (failsOnBusiness(result)) business.push(id);
  }
  const traditions: ConsensusTradition[] = TRADITION_IDS.map((id) => ({ framework: id, status: results[id]!.status }));
  const coverage = Math.round((decisive / SHARIAH_FRAMEWORK_IDS.length) * 1000) / 1000;
  const base = {
    id: 'service_consensus' as const,
    methodology_version: CONSENSUS_VERSION,
    methodology_effective_from: '1900-01-01',
    purification: null,
    components,
    coverage,
    traditions,
  };
  if (decisive < SHARIAH_SIGNAL_MIN_DECISIVE) {
    return {
      ...base,
      status: 'insufficient_data',
      score: null,
      reasons: [
        {
          code: 'service_consensus.shariah_coverage',
          result: 'insufficient_data',
          message:
            `The Shariah consensus needs at least ${SHARIAH_SIGNAL_MIN_DECISIVE} of the ${SHARIAH_FRAMEWORK_IDS.length} Shariah ` +
            `methodologies with a decisive verdict; ${decisive} ${decisive === 1 ? 'has' : 'have'} one.`,
          metric: 'shariah_decisive_methodologies',
          value: decisive,
          threshold: SHARIAH_SIGNAL_MIN_DECISIVE,
          operator: '>=',
        },
      ],
    };
  }
  const score = Math.round((1000 * sum) / decisive) / 10;
  const status = decide(score, decisive, rejecting, business);
  return { ...base, status, score, reasons: [ruleReason(status, score, decisive, rejecting, business)] };
}
