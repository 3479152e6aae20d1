/**
 * service_consensus: the consensus of the five Shariah methodologies (version consensus-4), with
 * the other traditions shown beside it, never averaged in: a coffee roaster the Word of Wisdom
 * rejects is no less Shariah-compliant, and a bank the five reject is not made `questionable`
 * by traditions that do not screen interest. The rule, in order:
 * 1. fewer than 3 of the 5 methodologies decisive → insufficient_data;
 * 2. more than half of the decisive ones non_compliant → non_compliant;
 * 3. the score (100 × the mean of the decisive statuses: compliant 1, questionable 0.5,
 *    non_compliant 0) below 50 → non_compliant;
 * 4. any methodology failing a prohibited business activity → questionable at best;
 * 5. score 80 or more → compliant; otherwise questionable.
 * A methodology without a decisive verdict is counted both ways (non_compliant, and failing a
 * business activity whose evidence it lacks; then compliant): the same status both ways stands;
 * otherwise the undecided ones decide, and the consensus is questionable when only compliant is
 * in doubt, else insufficient_data. So a missing input never lifts the consensus and never makes
 * it non_compliant. See docs/frameworks/service_consensus.md.
 */
import { SHARIAH_FRAMEWORK_IDS, type FrameworkId } from './frameworks.ts';
import type { ConsensusComponent, ConsensusTradition, FrameworkResult, Reason, VerdictStatus } from './result-types.ts';

// consensus-4 (engine 3.1.0): undecided methodologies counted both ways; consensus-3 (engine 3.0.0) averaged the decisive ones only.
export const CONSENSUS_VERSION = 'consensus-4';
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

const isBusinessCheck = (result: FrameworkResult, code: string): boolean =>
  code.startsWith(`${result.id}.business.`) || code === `${result.id}.prohibited_revenue`;

/** True when the methodology fails the company on a prohibited business activity (`<id>.business.<activity>`, MSCI's cumulative share). */
function failsOnBusiness(result: FrameworkResult): boolean {
  return result.reasons.some((r) => r.result === 'fail' && isBusinessCheck(result, r.code));
}

/** True when an undecided methodology could yet fail on a business activity: one of those checks lacks its evidence. */
function mayFailOnBusiness(result: FrameworkResult): boolean {
  return result.reasons.some((r) => (r.result === 'fail' || r.result === 'insufficient_data') && isBusinessCheck(result, r.code));
}

/** One reading of the five: the statuses' sum, how many count, how many reject, which fail on a business activity. */
interface Tally {
  sum: number;
  counted: number;
  rejecting: number;
  business: readonly FrameworkId[];
}

const scoreOf = (t: Tally): number => Math.round((1000 * t.sum) / t.counted) / 10;

function decide(t: Tally): VerdictStatus {
  const score = scoreOf(t);
  if (t.rejecting * 2 > t.counted || score < CONSENSUS_NON_COMPLIANT_BELOW) return 'non_compliant';
  if (t.business.length > 0) return 'questionable';
  return score >= CONSENSUS_COMPLIANT_AT ? 'compliant' : 'questionable';
}

function why(status: VerdictStatus, t: Tally): string {
  const score = scoreOf(t);
  const counts = `${t.rejecting} of ${t.counted} decisive Shariah methodologies non-compliant`;
  if (t.rejecting * 2 > t.counted) return `most decisive methodologies reject the company (${counts})`;
  if (score < CONSENSUS_NON_COMPLIANT_BELOW) return `the score is below ${CONSENSUS_NON_COMPLIANT_BELOW} (${counts})`;
  if (t.business.length > 0) {
    const finds = t.business.length === 1 ? 'finds' : 'find';
    return `${t.business.join(', ')} ${finds} a prohibited business activity, so the consensus is not compliant (${counts})`;
  }
  return status === 'compliant'
    ? `the score is ${CONSENSUS_COMPLIANT_AT} or more and no methodology finds a prohibited business activity (${counts})`
    : `the score is between ${CONSENSUS_NON_COMPLIANT_BELOW} and ${CONSENSUS_COMPLIANT_AT} (${counts})`;
}

/** "shariah_x has no decisive verdict", "shariah_x, shariah_y have …". */
const withoutVerdict = (undecided: readonly FrameworkId[]): string =>
  `${undecided.join(', ')} ${undecided.length === 1 ? 'has' : 'have'} no decisive verdict`;

function scoreReason(status: VerdictStatus, t: Tally, undecided: readonly FrameworkId[]): Reason {
  const score = scoreOf(t);
  const either = undecided.length === 0 ? '' : `; ${withoutVerdict(undecided)} and would change nothing either way`;
  return {
    code: 'service_consensus.score',
    result: status === 'compliant' ? 'pass' : status === 'non_compliant' ? 'fail' : 'questionable',
    message:
      `Shariah consensus score ${score} of 100: ${status.replace('_', '-')} because ${why(status, t)}${either}. ` +
      'Other traditions are shown beside it, not counted.',
    metric: 'consensus_score',
    value: score,
    threshold: CONSENSUS_COMPLIANT_AT,
    operator: '>=',
  };
}

/**
 * The undecided methodologies decide the consensus: counted non_compliant it is `low`, counted compliant `high`.
 * Only compliant in doubt → questionable (fail closed); non_compliant in doubt → insufficient_data (a missing input decides nothing).
 */
function undecidedReason(
  undecided: readonly FrameworkId[],
  low: Tally,
  lowStatus: VerdictStatus,
  high: Tally,
  highStatus: VerdictStatus,
): { status: VerdictStatus; reason: Reason } {
  const status: VerdictStatus = lowStatus === 'non_compliant' ? 'insufficient_data' : 'questionable';
  const outcome =
    status === 'questionable'
      ? 'it cannot be compliant until they are, so it is questionable'
      : 'whether the consensus rejects the company rests on them, so it is insufficient_data';
  const bound = (label: string, s: VerdictStatus, t: Tally): string =>
    `counted ${label} it would be ${s.replace('_', '-')} (score ${scoreOf(t)})`;
  return {
    status,
    reason: {
      code: 'service_consensus.undecided',
      result: status === 'questionable' ? 'questionable' : 'insufficient_data',
      message:
        `${withoutVerdict(undecided)}: ${bound('non-compliant', lowStatus, low)}, ` +
        `${bound('compliant', highStatus, high)}; ${outcome}. Other traditions are shown beside it, not counted.`,
      metric: 'consensus_score',
      value: scoreOf(low),
      threshold: CONSENSUS_COMPLIANT_AT,
      operator: '>=',
    },
  };
}

/** The consensus of the five Shariah results, with the other traditions' verdicts beside it. */
export function computeConsensus(results: Partial<Record<FrameworkId, FrameworkResult>>): FrameworkResult {
  const components: ConsensusComponent[] = [];
  let sum = 0;
  let rejecting = 0;
  const business: FrameworkId[] = [];
  const undecided: FrameworkId[] = [];
  // Undecided methodologies whose business screen lacks evidence: counted as failing it in the strict reading.
  const undecidedBusiness: FrameworkId[] = [];
  for (const id of SHARIAH_FRAMEWORK_IDS) {
    const result = results[id]!;
    const value = VALUE[result.status];
    components.push({ component: id, weight: CONSENSUS_WEIGHTS[id]!, status: result.status, value });
    if (value === null) {
      undecided.push(id);
      if (mayFailOnBusiness(result)) undecidedBusiness.push(id);
      continue;
    }
    sum += value;
    if (result.status === 'non_compliant') rejecting += 1;
    if (failsOnBusiness(result)) business.push(id);
  }
  const decisive = SHARIAH_FRAMEWORK_IDS.length - undecided.length;
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
  const all = SHARIAH_FRAMEWORK_IDS.length;
  const low: Tally = { sum, counted: all, rejecting: rejecting + undecided.length, business: [...business, ...undecidedBusiness] };
  const high: Tally = { sum: sum + undecided.length, counted: all, rejecting, business };
  const status = decide(low);
  const highStatus = decide(high);
  if (status === highStatus) {
    // decide() is monotone, so the decisive methodologies alone, which lie between the two readings, say the same.
    const known: Tally = { sum, counted: decisive, rejecting, business };
    return { ...base, status, score: scoreOf(known), reasons: [scoreReason(status, known, undecided)] };
  }
  const decided = undecidedReason(undecided, low, status, high, highStatus);
  return { ...base, status: decided.status, score: null, reasons: [decided.reason] };
}
