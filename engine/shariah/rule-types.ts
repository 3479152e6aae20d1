/** Shape of a Shariah methodology's effective-dated rule table. */
import { activityIndex } from '../exposures.ts';
import type { ShariahFrameworkId } from '../frameworks.ts';
import type { ActivityCode, Involvement } from '../inputs.ts';
import type { DirectInvolvement } from '../involvement.ts';
import type { MethodologyVersion } from '../methodology-versions.ts';
import type { PurificationMethod, RatioKey, Reason } from '../result-types.ts';
import { defineThresholdRule, type ThresholdRule, type ThresholdRuleSpec } from '../threshold-check.ts';

/** The screen concepts the five methodologies share; used to explain disagreements. */
export type ShariahConcept = 'debt' | 'cash' | 'receivables' | 'liquidity' | 'income' | 'business';

export interface RatioRule {
  concept: ShariahConcept;
  ratio: RatioKey;
  rule: ThresholdRule;
}

export interface IncomeRule {
  rule: ThresholdRule;
  /** Interest income counts towards the limit (true for AAOIFI, FTSE, DJIM from 2023-09). */
  includeInterest: boolean;
}

export interface ShariahVersionSpec extends MethodologyVersion {
  framework: ShariahFrameworkId;
  /** Activities the methodology prohibits (screened by revenue share). */
  prohibited: readonly ActivityCode[];
  /** A prohibited activity above this revenue share is the primary business: non-compliant. */
  coreBusinessShare: number;
  /** Involvements excluded at any revenue share ("directly active in"), with the text that says so; absent = none. */
  directInvolvement?: { involvements: DirectInvolvement; label: string; source: string };
  ratioRules: readonly { concept: ShariahConcept; ratio: RatioKey; rule: ThresholdRuleSpec }[];
  income: { includeInterest: boolean; rule: ThresholdRuleSpec };
  purification: PurificationMethod;
  /** Ratios averaged over months of prices, for the short-history note. */
  averageWindow: 24 | 36 | null;
}

export interface ShariahVersion extends MethodologyVersion {
  framework: ShariahFrameworkId;
  prohibited: readonly ActivityCode[];
  prohibitedIdx: readonly number[];
  coreBusinessShare: number;
  /** Per prohibited activity (same order): the involvements excluded at any share, or null. */
  directInvolvement: readonly (readonly Involvement[] | null)[];
  /** Short name of the rule for messages, and its published source. */
  directInvolvementLabel: string;
  directInvolvementSource: string | null;
  ratioRules: readonly RatioRule[];
  income: IncomeRule;
  purification: PurificationMethod;
  averageWindow: 24 | 36 | null;
  /** The passing business check when no prohibited activity is reported (shared, frozen). */
  noneReported: Reason;
}

/** Build a version once at module load: resolve activity indices, build rules and messages. */
export function defineShariahVersion(spec: ShariahVersionSpec): ShariahVersion {
  const noneReported: Reason = Object.freeze({
    code: `${spec.framework}.business.none_reported`,
    result: 'pass',
    message: `No revenue reported from any activity this methodology prohibits (${spec.prohibited.join(', ')}).`,
    metric: 'activity.prohibited',
    source: spec.source,
  });
  return Object.freeze({
    version: spec.version,
    effectiveFrom: spec.effectiveFrom,
    effectiveFromConfirmed: spec.effectiveFromConfirmed,
    source: spec.source,
    framework: spec.framework,
    prohibited: spec.prohibited,
    prohibitedIdx: spec.prohibited.map(activityIndex),
    coreBusinessShare: spec.coreBusinessShare,
    directInvolvement: spec.prohibited.map((a) => spec.directInvolvement?.involvements[a] ?? null),
    directInvolvementLabel: spec.directInvolvement?.label ?? '',
    directInvolvementSource: spec.directInvolvement?.source ?? null,
    ratioRules: spec.ratioRules.map((r) => Object.freeze({ concept: r.concept, ratio: r.ratio, rule: defineThresholdRule(r.rule) })),
    income: { includeInterest: spec.income.includeInterest, rule: defineThresholdRule(spec.income.rule) },
    purification: spec.purification,
    averageWindow: spec.averageWindow,
    noneReported,
  });
}
