/** Evaluate an exclusion table against a company's business-activity exposures. */
import { evidenceNote, noneReportedReason } from '../activity-evidence.ts';
import { describeExposureState } from '../exposures.ts';
import type { FrameworkId } from '../frameworks.ts';
import { activityLabel } from '../format.ts';
import { versionInForce } from '../methodology-versions.ts';
import { notInForce } from '../not-in-force.ts';
import type { ActivityCode, ActivityExposure } from '../inputs.ts';
import { directMessage, involvementFinding, notDirectNote, unknownInvolvementMessage } from '../involvement.ts';
import type { CheckResult, FrameworkResult, Reason } from '../result-types.ts';
import type { ScreenContext } from '../screen-context.ts';
import { combineReasons } from '../status.ts';
import { thresholdResult } from '../threshold-check.ts';
import type { ExclusionRule, ExclusionVersion } from './exclusion-types.ts';

/** `direct` marks an outcome decided by the company's involvement, not by its revenue share. */
function ruleResult(rule: ExclusionRule, share: number, src: ActivityExposure): { result: CheckResult; message: string; direct?: true } {
  const outcome = thresholdResult(rule, share);
  if (outcome === 'fail') return { result: rule.onBreach, message: rule.breachMessage };
  if (rule.direct !== undefined && share > 0) {
    const finding = involvementFinding(src, rule.direct);
    const note = evidenceNote(src);
    if (finding === 'direct') return { result: rule.onBreach, message: directMessage(rule.activity, src, rule.ground, note), direct: true };
    if (finding === 'unknown') return { result: 'questionable', message: unknownInvolvementMessage(rule.activity, src, rule.direct, rule.ground, note), direct: true };
  }
  if (outcome === 'questionable') return { result: 'questionable', message: rule.bandMessage };
  if (share > 0 && rule.minor === 'questionable') return { result: 'questionable', message: rule.minorMessage };
  return { result: 'pass', message: rule.passMessage };
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
    const src = ex.sources[rule.index]!;
    if (state !== 'ok' && state !== 'industry_code') {
      reasons.push({
        code: rule.code,
        result: 'insufficient_data',
        message: `${rule.ground}: ${activityLabel(rule.activity)} revenue cannot be used: ${describeExposureState(state)}.`,
        metric: rule.metric,
        threshold: rule.threshold,
        operator: rule.operator,
        filing_ref: src.sourceRef,
        source: rule.source,
      });
      continue;
    }
    const share = ex.shares[rule.index]!;
    const { result, message, direct } = ruleResult(rule, share, src);
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
      within_limit: rule.operator === '<' ? share < rule.threshold : share <= rule.threshold,
      ...(direct ? { threshold: 0, operator: '<=' as const, within_limit: false } : {}),
      filing_ref: src.sourceRef,
      source: rule.source,
    };
    if (rule.band !== null) {
      reason.band_low = rule.band.low;
      reason.band_high = rule.band.high;
      reason.band_basis = rule.band.basis;
    }
    reasons.push(reason);
  }
  if (!reported) reasons.push(noneReportedReason(v.noneReported, ex.coverage, v.rules.map((r) => r.activity)));
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
        unreported,
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
