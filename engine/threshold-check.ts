/**
 * One numeric check against a published limit. The result follows the rule as stated: `pass`
 * when `value <operator> threshold` holds (compared exactly, engine/exact.ts), `fail` when it
 * does not. Nearness is data on the reason (`margin`, `near_limit`), never a status. Rules are
 * built once at module load (`defineThresholdRule`); evaluation allocates only the Reason.
 */
import { satisfies, type ExactSum } from './exact.ts';
import { isNear, marginOf, nearWidth, type LimitKind } from './nearness.ts';
import type { Reason, ReasonInput } from './result-types.ts';

/** A figure in the ratio that stands in for the one the methodology names (docs/frameworks/README.md, "Proxies and estimates"). */
export type ProxyKind =
  /** Total debt for interest-bearing debt: a proxy only when the filing reports nothing but a total. */
  | 'debt_total_for_interest_bearing'
  /** Cash and equivalents (some of them bear no interest) for interest-bearing deposits. */
  | 'cash_for_interest_bearing_deposits';

export interface ThresholdRuleSpec {
  code: string;
  metric: string;
  /** What is measured, e.g. "total debt / 24-month average market cap". */
  label: string;
  /** Published limit as a decimal (0.33333 for "33.333%", never 1/3). */
  threshold: number;
  /** Passing condition: `value <operator> threshold`. */
  operator: '<' | '<=';
  /** What the limit bounds, for nearness (engine/nearness.ts). */
  kind: LimitKind;
  /** Set when the ratio's figure stands in for the one the methodology names. */
  proxy?: ProxyKind;
  /** A provider's published note on the limit that does not change the screen (e.g. a membership buffer). */
  note?: string;
  source: string;
}

export interface ThresholdRule extends ThresholdRuleSpec {
  readonly nearWidth: number;
  readonly passMessage: string;
  readonly failMessage: string;
}

function percent(x: number): string {
  // Thresholds are published decimals; print them without float noise.
  return `${Number((x * 100).toPrecision(10))}%`;
}

/** Build a rule once, with its messages. */
export function defineThresholdRule(spec: ThresholdRuleSpec): ThresholdRule {
  const limit = `${spec.operator === '<' ? 'below' : 'at most'} ${percent(spec.threshold)}`;
  const note = spec.note === undefined ? '' : ` ${spec.note}`;
  return Object.freeze({
    ...spec,
    nearWidth: nearWidth(spec.kind, spec.threshold),
    passMessage: `${spec.label} is within the limit (${limit}).${note}`,
    failMessage: `${spec.label} breaches the limit (must be ${limit}).${note}`,
  });
}

/** True when `value` (exactly `exact()`) is within the rule's limit. */
export function withinLimit(rule: Pick<ThresholdRuleSpec, 'threshold' | 'operator'>, value: number, exact: () => ExactSum): boolean {
  return satisfies(value, rule.operator, rule.threshold, exact);
}

/** Evaluate `value` (ratio in 0..1; exactly `exact()`) against the rule and return its evidence; `inputs` are the figures behind the ratio. */
export function checkThreshold(
  rule: ThresholdRule,
  value: number,
  exact: () => ExactSum,
  filingRef: string | undefined,
  inputs?: readonly ReasonInput[],
): Reason {
  const within = withinLimit(rule, value, exact);
  const margin = marginOf(value, rule.threshold, rule.operator);
  const reason: Reason = {
    code: rule.code,
    result: within ? 'pass' : 'fail',
    message: within ? rule.passMessage : rule.failMessage,
    metric: rule.metric,
    value,
    threshold: rule.threshold,
    operator: rule.operator,
    within_limit: within,
    margin,
    near_limit: isNear(margin, rule.nearWidth),
    source: rule.source,
  };
  if (filingRef !== undefined) reason.filing_ref = filingRef;
  if (inputs !== undefined) reason.inputs = inputs;
  return reason;
}

/** Evidence for a check that could not be evaluated; `why` says which input failed, `inputs` what the filing said. */
export function missingCheck(rule: ThresholdRule, why: string, filingRef: string | undefined, inputs?: readonly ReasonInput[]): Reason {
  const reason: Reason = {
    code: rule.code,
    result: 'insufficient_data',
    message: `${rule.label} cannot be assessed: ${why}.`,
    metric: rule.metric,
    threshold: rule.threshold,
    operator: rule.operator,
    source: rule.source,
  };
  if (filingRef !== undefined) reason.filing_ref = filingRef;
  if (inputs !== undefined) reason.inputs = inputs;
  return reason;
}
