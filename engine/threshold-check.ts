/**
 * One numeric check against a published threshold, with an optional tolerance band in which
 * the check is `questionable`. Rules are built once at module load (`defineThresholdRule`);
 * evaluation allocates only the returned Reason.
 */
import type { CheckResult, Reason, ReasonInput } from './result-types.ts';

/**
 * Band around a threshold. The check passes clearly when `value lowOp low`, fails clearly
 * when `value highOp high`, and is `questionable` in between.
 */
export interface Band {
  low: number;
  lowOp: '<' | '<=';
  high: number;
  highOp: '>' | '>=';
  basis: string;
}

export interface ThresholdRuleSpec {
  code: string;
  metric: string;
  /** What is measured, e.g. "total debt / 24-month average market cap". */
  label: string;
  /** Published limit as a decimal (0.33333 for "33.333%", never 1/3). */
  threshold: number;
  /** Passing condition: `value <operator> threshold`. */
  operator: '<' | '<=';
  band: Band | null;
  source: string;
}

export interface ThresholdRule extends ThresholdRuleSpec {
  readonly passMessage: string;
  readonly failMessage: string;
  readonly bandMessage: string;
}

function percent(x: number): string {
  // Thresholds are published decimals; print them without float noise.
  return `${Number((x * 100).toPrecision(10))}%`;
}

/** Build a rule once, with its messages; checks that the band brackets the threshold. */
export function defineThresholdRule(spec: ThresholdRuleSpec): ThresholdRule {
  const { band, threshold } = spec;
  if (band !== null && (band.low > threshold || band.high < threshold)) {
    throw new RangeError(`band of ${spec.code} does not contain its threshold`);
  }
  const limit = `${spec.operator === '<' ? 'below' : 'at most'} ${percent(threshold)}`;
  return Object.freeze({
    ...spec,
    passMessage: `${spec.label} is within the limit (${limit}).`,
    failMessage: `${spec.label} breaches the limit (must be ${limit}).`,
    bandMessage:
      band === null
        ? ''
        : `${spec.label} is within the tolerance band ${percent(band.low)}–${percent(band.high)} around the ${percent(threshold)} limit (${band.basis}).`,
  });
}

/** Outcome of `value` (a ratio in 0..1) against the rule, band included. */
export function thresholdResult(rule: Pick<ThresholdRuleSpec, 'threshold' | 'operator' | 'band'>, value: number): CheckResult {
  const band = rule.band;
  if (band === null) {
    return (rule.operator === '<' ? value < rule.threshold : value <= rule.threshold) ? 'pass' : 'fail';
  }
  if (band.lowOp === '<' ? value < band.low : value <= band.low) return 'pass';
  if (band.highOp === '>' ? value > band.high : value >= band.high) return 'fail';
  return 'questionable';
}

/** Evaluate `value` (ratio in 0..1) against the rule and return its evidence; `inputs` are the figures behind the ratio. */
export function checkThreshold(rule: ThresholdRule, value: number, filingRef: string | undefined, inputs?: readonly ReasonInput[]): Reason {
  const result = thresholdResult(rule, value);
  const within = rule.operator === '<' ? value < rule.threshold : value <= rule.threshold;
  const message = result === 'pass' ? rule.passMessage : result === 'fail' ? rule.failMessage : rule.bandMessage;
  const reason: Reason = {
    code: rule.code,
    result,
    message,
    metric: rule.metric,
    value,
    threshold: rule.threshold,
    operator: rule.operator,
    within_limit: within,
    source: rule.source,
  };
  if (rule.band !== null) {
    reason.band_low = rule.band.low;
    reason.band_high = rule.band.high;
    reason.band_basis = rule.band.basis;
  }
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
