/** Evaluate an exclusion table against a company's business-activity exposures. */
import { evidenceNote, isEstimate, noneReportedReason } from '../activity-evidence.ts';
import { shareWithin } from '../exact.ts';
import { isNear, marginOf, nearWidth } from '../nearness.ts';
import type { FrameworkId } from '../frameworks.ts';
import { activityLabel } from '../format.ts';
import { versionInForce } from '../methodology-versions.ts';
import { notInForce } from '../not-in-force.ts';
import { involvementOfClass } from '../industry-codes.ts';
import type { ActivityCode, ActivityExposure } from '../inputs.ts';
import { directMessage, involvementFinding, involvementOfSic, notDirectNote, unknownInvolvementMessage } from '../involvement.ts';
import type { CheckResult, Doubt, FrameworkResult, Reason } from '../result-types.ts';
import type { ScreenContext } from '../screen-context.ts';
import { combineReasons } from '../status.ts';
import type { ExclusionRule, ExclusionVersion } from './exclusion-types.ts';

interface RuleOutcome {
  result: CheckResult;
  message: string;
  within: boolean;
  doubt?: Doubt;
  /** Decided by the company's involvement, not by its revenue share (docs/frameworks/README.md, "Direct involvement"). */
  direct?: true;
}

function ruleResult(rule: ExclusionRule, share: number, near: boolean, estimated: boolean, src: ActivityExposure): RuleOutcome {
  const within = shareWithin(share, rule.operator, rule.threshold);
  if (!within) {
    if (rule.onBreach === 'questionable') return { result: 'questionable', message: rule.breachMessage, within, doubt: rule.doubt };
    // A breach near a revenue limit that rests on an estimated share is in doubt (docs/frameworks/README.md, "Proxies and estimates").
    if (near && estimated) {
      return {
        result: 'questionable',
        message: `${rule.breachMessage.slice(0, -1)}; in doubt: the share is an estimate near the limit.`,
        within,
        doubt: 'estimate',
      };
    }
    return { result: 'fail', message: rule.breachMessage, within };
  }
  if (rule.direct !== undefined && share > 0) {
    const finding = involvementFinding(src, rule.direct);
    const note = evidenceNote(src);
    if (finding === 'direct') {
      const message = directMessage(rule.activity, src, rule.ground, note);
      return rule.onBreach === 'questionable'
        ? { result: 'questionable', message, within: false, doubt: rule.doubt, direct: true }
        : { result: 'fail', message, within: false, direct: true };
    }
    if (finding === 'unknown') {
      // The company might be a producer: the conservative default, and the evidence is what is in doubt.
      const message = unknownInvolvementMessage(rule.activity, src, rule.direct, rule.ground, note);
      return { result: 'questionable', message, within: false, doubt: 'ambiguous_evidence', direct: true };
    }
  }
  if (share > 0 && rule.minor === 'questionable') return { result: 'questionable', message: rule.minorMessage, within, doubt: rule.doubt };
  return { result: 'pass', message: rule.passMessage, within };
}

/**
 * Whether a side business the industry code leaves in doubt could breach the rule. A side
 * business is not the primary business, so it is less than half of revenue: a rule only a main
 * trade breaches (half of revenue or more, no involvement excluded at any share: USCCB's
 * primary-business gambling, the halakhic main trade in forbidden foods) is not breached by it.
 * A rule that excludes only producers (USCCB's tobacco production) is not breached by a company
 * whose class does not make the product (a grocer sells tobacco, it does not make it).
 */
function mayBreach(v: ExclusionVersion, activity: ActivityCode, ctx: ScreenContext): boolean {
  const rule = v.rules.find((r) => r.activity === activity);
  if (rule === undefined) return true;
  if (rule.threshold >= 0.5 && rule.direct === undefined) return false;
  if (rule.onlyDirect !== true) return true;
  // Where the division does not say how the company would take part, the conservative default.
  const involvement = involvementOfClass(ctx.input.listing.sic);
  return involvement === null || (rule.direct ?? []).includes(involvement);
}

/** Append one Reason per reported activity, or the shared "none reported" Reason. */
export function exclusionChecks(v: ExclusionVersion, ctx: ScreenContext, reasons: Reason[]): void {
  const ex = ctx.exposures;
  const unreported: ActivityCode[] = [];
  let reported = false;
  for (const rule of v.rules) {
    const state = ex.states[rule.index]!;
    if (state === 'none') {
      unreported.push(rule.activity);
      continue;
    }
    reported = true;
    const reportedSrc = ex.sources[rule.index]!;
    // An activity known only from the industry code takes the involvement the code's division implies.
    const sicInvolvement = state === 'industry_code' && !reportedSrc.involvement ? involvementOfSic(ctx.input.listing.sic) : null;
    const src = sicInvolvement === null ? reportedSrc : { ...reportedSrc, involvement: sicInvolvement };
    if (state === 'retired' && !shareWithin(src.revenueShare, rule.operator, rule.threshold)) {
      // A retired concept's last figure shows the activity existed: a breach then is never a pass now.
      const carried = ex.retiredStillCarried(rule.index);
      reasons.push({
        code: rule.code,
        result: carried ? 'fail' : 'questionable',
        ...(carried ? {} : { doubt: 'ambiguous_evidence' as const }),
        message:
          `${rule.ground}: ${activityLabel(rule.activity)}: ${ex.unusableText(rule.index)}; it breached the limit then, and ` +
          (carried
            ? 'the industry class the company files under today still carries it: nothing shows that it ended.'
            : 'no fresh figure shows it no longer does.'),
        metric: rule.metric,
        value: src.revenueShare,
        threshold: rule.threshold,
        operator: rule.operator,
        within_limit: false,
        filing_ref: src.sourceRef,
        source: rule.source,
      });
      continue;
    }
    if (state !== 'ok' && state !== 'industry_code') {
      reasons.push({
        code: rule.code,
        result: 'insufficient_data',
        message: `${rule.ground}: ${activityLabel(rule.activity)} revenue cannot be used: ${ex.unusableText(rule.index)}.`,
        metric: rule.metric,
        threshold: rule.threshold,
        operator: rule.operator,
        filing_ref: src.sourceRef,
        source: rule.source,
      });
      continue;
    }
    const share = ex.shares[rule.index]!;
    const shareMargin = marginOf(share, rule.threshold, rule.operator);
    const near = isNear(shareMargin, nearWidth('revenue', rule.threshold));
    const { result, message, within, doubt, direct } = ruleResult(rule, share, near, state === 'ok' && isEstimate(src), src);
    // An involvement excluded at any share is measured against a limit of 0.
    const margin = direct ? marginOf(share, 0, '<=') : shareMargin;
    const reason: Reason = {
      code: rule.code,
      result,
      message:
        state === 'industry_code'
          ? `${message} The SIC code (${src.sourceRef.replace('sic:', '')}) names it as the primary business: at least half of revenue.`
          : direct
            ? message
            : `${message.slice(0, -1)}${evidenceNote(src)}${rule.direct === undefined ? '' : notDirectNote(src)}.`,
      metric: rule.metric,
      value: share,
      threshold: rule.threshold,
      operator: rule.operator,
      within_limit: within,
      margin,
      near_limit: direct ? false : near,
      ...(direct ? { threshold: 0, operator: '<=' as const } : {}),
      filing_ref: src.sourceRef,
      source: rule.source,
    };
    if (doubt !== undefined) reason.doubt = doubt;
    reasons.push(reason);
  }
  if (!reported)
    reasons.push(
      noneReportedReason(
        v.noneReported,
        ex.coverage,
        v.rules.map((r) => r.activity).filter((a) => mayBreach(v, a, ctx)),
      ),
    );
  else if (unreported.length > 0) {
    reasons.push(
      noneReportedReason(
        {
          code: v.noneReported.code,
          result: 'pass',
          message: `No revenue reported from the other screened activities (${unreported.join(', ')}).`,
          metric: 'activity.screened',
          source: v.source,
        },
        ex.coverage,
        unreported.filter((a) => mayBreach(v, a, ctx)),
      ),
    );
  }
}

/** Screen one company against an effective-dated exclusion table. */
export function screenExclusions(id: FrameworkId, versions: readonly ExclusionVersion[], ctx: ScreenContext): FrameworkResult {
  const v = versionInForce(versions, ctx.input.screeningDate);
  if (v === null) return notInForce(id, ctx.input.screeningDate);
  const reasons: Reason[] = [];
  exclusionChecks(v, ctx, reasons);
  for (const r of v.notAssessedReasons) reasons.push(r);
  return {
    id,
    status: combineReasons(reasons),
    // Exclusion tables are categorical: no meaningful 0..100 score.
    score: null,
    methodology_version: v.version,
    methodology_effective_from: v.effectiveFrom,
    reasons,
    purification: null,
  };
}
