/**
 * Why two frameworks disagree on one company (docs/frameworks/README.md, "Why frameworks
 * disagree"): for every pair of Shariah methodologies, and of faith frameworks, whose verdicts
 * differ, the checks that decide the difference — the checks that set either verdict
 * (`decidingReasons`) on a topic where the two sides' outcomes differ — each side with its
 * figure, denominator, window, threshold and margin, in plain words. Pairs that agree while a
 * check of either sits near its limit are listed too. Built from the engine's own results.
 */
import { FRAMEWORK_IDS, SHARIAH_FRAMEWORK_IDS, type FrameworkId } from '../frameworks.ts';
import type { CheckResult, FrameworkResult, Ratios, Reason, VerdictStatus } from '../result-types.ts';
import { CONCEPT_BY_CODE } from '../shariah/index-of-versions.ts';
import { recomputedReason, screensActivity } from './rule-lookup.ts';
import { decidingReasons } from '../status.ts';
import {
  SHORT_NAMES,
  denominatorWords,
  limitPercent,
  metricParts,
  numeratorWords,
  percentBeside,
  relation,
  resultWords,
  topicWords,
} from './check-terms.ts';

/** The faith frameworks compared with each other (the consensus is a blend, not a framework of its own). */
export const FAITH_FRAMEWORK_IDS = ['christian_bri', 'catholic_usccb', 'jewish_halakhic', 'lds_mormon'] as const;

/** What makes two checks on one topic come out differently. */
export const DIFFERENCE_KINDS = [
  'missing_figure',
  'business_rule',
  'rule_absent',
  'not_stored',
  'denominator',
  'window',
  'numerator',
  'threshold',
  'doubt',
  'near_limit',
] as const;
export type DifferenceKind = (typeof DIFFERENCE_KINDS)[number];

export interface ExplainedCheckSide {
  code: string;
  result: CheckResult;
  metric: string | null;
  numerator: string | null;
  /** The denominator with its window in words ("the 36-month average market value"); null when not a ratio. */
  denominator: string | null;
  window: 'spot' | '24m' | '36m' | null;
  value: number | null;
  threshold: number | null;
  operator: string | null;
  margin: number | null;
  near_limit: boolean;
  doubt: string | null;
  filing_ref: string | null;
  /** The check's own message. */
  message: string;
  /** False when the snapshot kept only deciding checks and this one was recomputed from its stored ratio and the rule. */
  stored: boolean;
}

export interface ExplainedSide {
  framework: FrameworkId;
  status: VerdictStatus;
  /** The side's check on the topic; null when it has none. */
  check: ExplainedCheckSide | null;
  words: string;
}

export interface ExplainedCheck {
  topic: string;
  differences: DifferenceKind[];
  sides: [ExplainedSide, ExplainedSide];
  explanation: string;
}

export interface PairExplanation {
  frameworks: [FrameworkId, FrameworkId];
  statuses: [VerdictStatus, VerdictStatus];
  agree: boolean;
  checks: ExplainedCheck[];
  summary: string;
}

export interface Explanation {
  disagreements: PairExplanation[];
  near_limit_agreements: PairExplanation[];
}

export interface ExplainInput {
  frameworks: Partial<Record<FrameworkId, FrameworkResult>>;
  ratios: Ratios;
  /** `deciding` when the stored result kept only the checks that decided each verdict (a backfill). */
  reasonsKept: 'all' | 'deciding';
}

const OUTCOME_RANK: Record<CheckResult, number> = { fail: 0, insufficient_data: 1, questionable: 2, pass: 3, info: 4 };

/** The topic two frameworks' checks are compared on: a Shariah concept, `business.<activity>`, or the check's own name. */
export function topicOf(framework: FrameworkId, reason: Reason): string | null {
  if (reason.result === 'info') return null;
  if (reason.metric === 'activity.prohibited' || reason.metric === 'activity.screened') return 'business';
  if (reason.metric?.startsWith('activity.')) return `business.${reason.metric.slice('activity.'.length)}`;
  const concept = CONCEPT_BY_CODE.get(reason.code);
  if (concept !== undefined) return concept;
  return reason.code.startsWith(`${framework}.`) ? reason.code.slice(framework.length + 1) : reason.code;
}

/** The worst check of a framework on each topic. */
function worstByTopic(id: FrameworkId, reasons: readonly Reason[]): Map<string, Reason> {
  const out = new Map<string, Reason>();
  for (const r of reasons) {
    const topic = topicOf(id, r);
    if (topic === null) continue;
    const seen = out.get(topic);
    if (seen === undefined || OUTCOME_RANK[r.result] < OUTCOME_RANK[seen.result]) out.set(topic, r);
  }
  return out;
}

function sideCheck(reason: Reason, stored: boolean): ExplainedCheckSide {
  const parts = metricParts(reason.metric);
  return {
    code: reason.code,
    result: reason.result,
    metric: reason.metric ?? null,
    numerator: parts === null ? null : numeratorWords(parts),
    denominator: parts === null ? null : denominatorWords(parts),
    window: parts?.window ?? null,
    value: reason.value ?? null,
    threshold: reason.threshold ?? null,
    operator: reason.operator ?? null,
    margin: reason.margin ?? null,
    near_limit: reason.near_limit === true,
    doubt: reason.doubt ?? null,
    filing_ref: reason.filing_ref ?? null,
    message: reason.message,
    stored,
  };
}

function sideWords(side: Omit<ExplainedSide, 'words'>, topic: string, missingWhy: string): string {
  const name = SHORT_NAMES[side.framework];
  const c = side.check;
  if (c === null) return `${name} ${missingWhy}`;
  const doubt = c.result === 'questionable' && c.doubt !== null ? ` (${c.doubt.replaceAll('_', ' ')})` : '';
  const recomputedNote = c.stored ? '' : ' (recomputed: the snapshot keeps only deciding checks)';
  if (c.value !== null && c.threshold !== null) {
    const figures = `${percentBeside(c.value, c.threshold)} ${relation(c.value, c.threshold)} ${limitPercent(c.threshold)}`;
    const what =
      c.numerator !== null && c.denominator !== null
        ? `divides ${c.numerator} by ${c.denominator}`
        : `limits ${topicWords(topic)} to ${c.operator === '<' ? 'below' : 'at most'} ${limitPercent(c.threshold)}`;
    return `${name} ${what}: ${figures}, ${resultWords(c.result)}${doubt}${recomputedNote}`;
  }
  return `${name} ${resultWords(c.result)}${doubt} on ${topicWords(topic)}: ${c.message}`;
}

function differencesOf(
  topic: string,
  a: ExplainedCheckSide | null,
  b: ExplainedCheckSide | null,
  absent: DifferenceKind,
): DifferenceKind[] {
  const kinds: DifferenceKind[] = [];
  if (a?.result === 'insufficient_data' || b?.result === 'insufficient_data') kinds.push('missing_figure');
  if (topic.startsWith('business')) kinds.push('business_rule');
  if (a === null || b === null) return [...kinds, absent];
  const pa = metricParts(a.metric ?? undefined);
  const pb = metricParts(b.metric ?? undefined);
  if (pa !== null && pb !== null) {
    if (pa.denominator !== pb.denominator) kinds.push('denominator');
    else if (pa.window !== pb.window) kinds.push('window');
    if (pa.numerator !== pb.numerator) kinds.push('numerator');
    else if (pa.denominator === pb.denominator && pa.window === pb.window && a.value !== null && b.value !== null && a.value !== b.value)
      kinds.push('numerator');
  }
  if (a.threshold !== b.threshold || a.operator !== b.operator) kinds.push('threshold');
  if (kinds.length === 0) kinds.push('doubt');
  return kinds;
}

interface Side {
  id: FrameworkId;
  result: FrameworkResult;
  topics: Map<string, Reason>;
}

function checkOn(side: Side, topic: string, input: ExplainInput): ExplainedCheckSide | null {
  const reason = side.topics.get(topic);
  if (reason !== undefined) return sideCheck(reason, true);
  if (input.reasonsKept !== 'deciding') return null;
  const recomputed = recomputedReason(side.id, side.result, topic, input.ratios);
  return recomputed === null ? null : sideCheck(recomputed, false);
}

function missingWhy(side: Side, topic: string, input: ExplainInput): string {
  if (screensActivity(side.id, side.result, topic) === false) return `does not screen out ${topicWords(topic).replace(/ revenue$/, '')}`;
  if (input.reasonsKept === 'deciding') return `has no stored check on ${topicWords(topic)} (the snapshot keeps only deciding checks)`;
  const general = topic.startsWith('business.') ? side.topics.get('business') : undefined;
  if (general !== undefined) return `${resultWords(general.result)} on ${topicWords(topic)}: ${general.message}`;
  return `has no check on ${topicWords(topic)}`;
}

function explainTopic(a: Side, b: Side, topic: string, input: ExplainInput, near = false): ExplainedCheck {
  const checks = [checkOn(a, topic, input), checkOn(b, topic, input)] as const;
  const absent: DifferenceKind = input.reasonsKept === 'deciding' ? 'not_stored' : 'rule_absent';
  const sides = [a, b].map((s, i) => {
    const side = { framework: s.id, status: s.result.status, check: checks[i]! };
    return { ...side, words: sideWords(side, topic, missingWhy(s, topic, input)) };
  }) as [ExplainedSide, ExplainedSide];
  const differences = near ? (['near_limit'] as DifferenceKind[]) : differencesOf(topic, checks[0], checks[1], absent);
  const clause = (words: string) => words.replace(/\.+$/, '');
  return { topic, differences, sides, explanation: `${clause(sides[0].words)}; ${clause(sides[1].words)}.` };
}

function pairOf(a: Side, b: Side, input: ExplainInput): PairExplanation {
  const agree = a.result.status === b.result.status;
  const topics: string[] = [];
  if (!agree) {
    for (const side of [a, b]) {
      for (const r of decidingReasons(side.result.status, side.result.reasons)) {
        const topic = topicOf(side.id, r);
        if (topic !== null && !topics.includes(topic)) topics.push(topic);
      }
    }
  } else {
    for (const side of [a, b])
      for (const [topic, r] of side.topics) if (r.near_limit === true && !topics.includes(topic)) topics.push(topic);
  }
  const checks = topics
    .map((topic) => explainTopic(a, b, topic, input, agree))
    .filter((c) => agree || c.sides[0].check?.result !== c.sides[1].check?.result);
  const names = `${SHORT_NAMES[a.id]} ${a.result.status}, ${SHORT_NAMES[b.id]} ${b.result.status}`;
  const decided = checks.map((c) => `${topicWords(c.topic)} (${c.differences.join(', ')})`).join('; ');
  const summary = agree
    ? `${names}: both, with ${decided} near the limit`
    : `${names}: decided by ${decided || 'no check either result keeps'}`;
  return { frameworks: [a.id, b.id], statuses: [a.result.status, b.result.status], agree, checks, summary };
}

/** Every pair of Shariah methodologies and of faith frameworks in `input`, explained (FRAMEWORK_IDS order). */
export function explainDisagreements(input: ExplainInput): Explanation {
  const disagreements: PairExplanation[] = [];
  const nearLimitAgreements: PairExplanation[] = [];
  for (const group of [SHARIAH_FRAMEWORK_IDS, FAITH_FRAMEWORK_IDS] as readonly (readonly FrameworkId[])[]) {
    const sides: Side[] = FRAMEWORK_IDS.filter((id) => group.includes(id) && input.frameworks[id] !== undefined).map((id) => ({
      id,
      result: input.frameworks[id]!,
      topics: worstByTopic(id, input.frameworks[id]!.reasons),
    }));
    for (let i = 0; i < sides.length; i++) {
      for (let j = i + 1; j < sides.length; j++) {
        const pair = pairOf(sides[i]!, sides[j]!, input);
        if (!pair.agree) disagreements.push(pair);
        else if (pair.checks.length > 0) nearLimitAgreements.push(pair);
      }
    }
  }
  return { disagreements, near_limit_agreements: nearLimitAgreements };
}
