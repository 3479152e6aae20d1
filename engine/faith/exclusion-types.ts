/**
 * An exclusion table: activity → revenue-share limit → verdict, effective-dated. Built once at
 * module load with its messages; see docs/frameworks/README.md ("Exclusion tables").
 */
import { activityIndex } from '../exposures.ts';
import type { FrameworkId } from '../frameworks.ts';
import { activityLabel } from '../format.ts';
import type { ActivityCode, Involvement } from '../inputs.ts';
import { involvementList } from '../involvement.ts';
import type { MethodologyVersion } from '../methodology-versions.ts';
import type { Doubt, Reason } from '../result-types.ts';

export interface ExclusionRuleSpec {
  activity: ActivityCode;
  /** Revenue-share limit in 0..1; with operator `<=` and 0, any involvement breaches. */
  threshold: number;
  /** Passing condition: `share <operator> threshold`. */
  operator: '<' | '<=';
  /** Check result when the limit is breached. */
  onBreach: 'fail' | 'questionable';
  /** Check result for a share above 0 that stays within the limit. */
  minor: 'pass' | 'questionable';
  /** Involvements excluded at any revenue share (docs/frameworks/README.md, "Direct involvement"); absent = none. */
  direct?: readonly Involvement[];
  /**
   * The text excludes only the `direct` involvements (e.g. tobacco *production*): other
   * involvement is not excluded at any share. Such a rule has threshold 1 and operator `<=`.
   */
  onlyDirect?: true;
  /** The doubt a `questionable` outcome of this rule stands for (docs/frameworks/README.md, "Statuses"). */
  doubt: Doubt;
  /** The moral ground, in the framework's own terms. */
  ground: string;
  source: string;
}

export interface ExclusionVersionSpec extends MethodologyVersion {
  framework: FrameworkId;
  rules: readonly ExclusionRuleSpec[];
  /** Grounds the framework names that revenue data cannot assess; reported as `info`. */
  notAssessed: readonly { ground: string; why: string }[];
}

export interface ExclusionRule extends ExclusionRuleSpec {
  index: number;
  code: string;
  metric: string;
  passMessage: string;
  minorMessage: string;
  breachMessage: string;
}

export interface ExclusionVersion extends MethodologyVersion {
  framework: FrameworkId;
  rules: readonly ExclusionRule[];
  /** Shared frozen reasons: the not-assessed grounds, and "nothing reported". */
  notAssessedReasons: readonly Reason[];
  noneReported: Reason;
}

function limitText(r: ExclusionRuleSpec): string {
  if (r.onlyDirect) return `${involvementList(r.direct ?? [])}s excluded at any share, no limit for others`;
  if (r.threshold === 0) return 'no involvement';
  const pct = `${Number((r.threshold * 100).toPrecision(10))}%`;
  return r.operator === '<' ? `below ${pct} of revenue` : `at most ${pct} of revenue`;
}

/** Build a version once at module load. */
export function defineExclusionVersion(spec: ExclusionVersionSpec): ExclusionVersion {
  const rules = spec.rules.map((r): ExclusionRule => {
    const name = activityLabel(r.activity);
    const limit = limitText(r);
    return Object.freeze({
      ...r,
      index: activityIndex(r.activity),
      code: `${spec.framework}.${r.activity}`,
      metric: `activity.${r.activity}`,
      passMessage: r.onlyDirect
        ? `${r.ground}: ${name} revenue, not excluded: the text names ${involvementList(r.direct ?? [])}s only.`
        : `${r.ground}: ${name} revenue is within the limit (${limit}).`,
      minorMessage: `${r.ground}: some ${name} revenue, within the limit (${limit}) but a gray area for this framework.`,
      breachMessage:
        r.onBreach === 'fail'
          ? `${r.ground}: ${name} revenue breaches the limit (${limit}).`
          : `${r.ground}: ${name} revenue exceeds ${limit}; ${DOUBT_TEXT[r.doubt]}, so this is questionable rather than excluded.`,
    });
  });
  return Object.freeze({
    version: spec.version,
    effectiveFrom: spec.effectiveFrom,
    effectiveFromConfirmed: spec.effectiveFromConfirmed,
    source: spec.source,
    framework: spec.framework,
    rules,
    notAssessedReasons: spec.notAssessed.map((g) =>
      Object.freeze<Reason>({
        code: `${spec.framework}.not_assessed.${g.ground.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`,
        result: 'info',
        message: `${g.ground}: not assessed (${g.why}).`,
        source: spec.source,
      }),
    ),
    noneReported: Object.freeze<Reason>({
      code: `${spec.framework}.activities.none_reported`,
      result: 'pass',
      message: `No revenue reported from any screened activity (${spec.rules.map((r) => r.activity).join(', ')}).`,
      metric: 'activity.screened',
      source: spec.source,
    }),
  });
}

/** Why a rule's `questionable` outcome is in doubt, for its messages. */
const DOUBT_TEXT: Readonly<Record<Doubt, string>> = Object.freeze({
  proxy: 'the figure stands in for the one the text names',
  estimate: 'the revenue share is an estimate',
  ambiguous_evidence: 'revenue data cannot tell the involvement the text names',
  ambiguous_rule: 'the text does not decide this case',
  conflicting_sources: 'the published sources conflict',
  scholarly_disagreement: 'authorities differ',
});

/**
 * Rule: any reported revenue from `activity` breaches (threshold 0, passing share <= 0). A
 * `questionable` breach is a real disagreement unless `doubt` says otherwise.
 */
export function anyInvolvement(
  activity: ActivityCode,
  onBreach: 'fail' | 'questionable',
  ground: string,
  source: string,
  doubt: Doubt = 'scholarly_disagreement',
): ExclusionRuleSpec {
  return { activity, threshold: 0, operator: '<=', onBreach, minor: 'pass', doubt, ground, source };
}

/**
 * Rule: revenue share must stay below `threshold`; `minor` decides shares in (0, threshold).
 * `doubt` names what a `questionable` outcome stands for: by default a disagreement between
 * authorities for a questionable breach, a text that does not decide the case for a questionable
 * minor share.
 */
export function revenueBelow(
  activity: ActivityCode,
  threshold: number,
  onBreach: 'fail' | 'questionable',
  minor: 'pass' | 'questionable',
  ground: string,
  source: string,
  doubt: Doubt = onBreach === 'questionable' ? 'scholarly_disagreement' : 'ambiguous_rule',
): ExclusionRuleSpec {
  return { activity, threshold, operator: '<', onBreach, minor, doubt, ground, source };
}

/**
 * Rule: only the `direct` involvements are excluded, at any revenue share (a text that bars
 * *making* something, not selling it); a share whose involvement is not reported takes the
 * conservative default (`questionable`).
 */
export function directOnly(activity: ActivityCode, direct: readonly Involvement[], ground: string, source: string): ExclusionRuleSpec {
  return {
    activity,
    threshold: 1,
    operator: '<=',
    onBreach: 'fail',
    minor: 'pass',
    direct,
    onlyDirect: true,
    doubt: 'ambiguous_evidence',
    ground,
    source,
  };
}
