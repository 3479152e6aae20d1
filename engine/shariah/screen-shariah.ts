/**
 * Evaluate one Shariah methodology version: the business-activity screen (primary business),
 * each financial ratio, and the non-permissible income limit; then status, headroom score and
 * purification. Every check, passing or failing, leaves a Reason. A breach is a fail unless it
 * rests on a proxy whose certain part is within the limit, or on an estimate near the limit
 * (docs/frameworks/README.md, "Statuses").
 */
import { activityOfSic } from '../industry-codes.ts';
import type { ActivityCode, ActivityExposure } from '../inputs.ts';
import { directMessage, involvementFinding, notDirectNote, unknownInvolvementMessage } from '../involvement.ts';
import { evidenceNote, isEstimate, noneReportedReason, primaryBusinessMessage } from '../activity-evidence.ts';
import type { ShariahFrameworkId } from '../frameworks.ts';
import { activityLabel, formatPercent } from '../format.ts';
import { versionInForce } from '../methodology-versions.ts';
import { describeCause, ratioFigureColumns, ratioFraction } from '../ratios.ts';
import { estimateInDoubt, figureIsEstimate, restsOnEstimate } from '../estimates.ts';
import type { Doubt, FrameworkResult, Reason, ReasonInput } from '../result-types.ts';
import type { ScreenContext } from '../screen-context.ts';
import { combineReasons } from '../status.ts';
import { checkThreshold, missingCheck, withinLimit } from '../threshold-check.ts';
import { shareOf, shareWithin, type ExactSum, type Fraction } from '../exact.ts';
import { isNear, marginOf, nearWidth } from '../nearness.ts';
import { certainPart, interestIsNonOperatingProxy, NON_OPERATING_PROXY_TEXT, PROXY_TEXT } from '../proxies.ts';
import { frameworkPurification } from './purification.ts';
import type { RatioRule, ShariahVersion } from './rule-types.ts';
import { notInForce } from '../not-in-force.ts';

/** Mark a breach as `questionable` for the given doubt, saying why in the message. */
function inDoubt(reason: Reason, doubt: Doubt, why: string): void {
  reason.result = 'questionable';
  reason.doubt = doubt;
  reason.message = `${reason.message} In doubt: ${why}, and the value is within the nearness distance of the limit.`;
}

/** The "no other prohibited activity" reason when some activities are reported and others the industry leaves in doubt. */
function doubtBesideRows(v: ShariahVersion, ctx: ScreenContext, unreported: readonly ActivityCode[], reasons: Reason[]): void {
  const ex = ctx.exposures;
  if (!unreported.some((a) => ex.inDoubt(a))) return;
  const others: Reason = {
    ...v.noneReported,
    message: `No revenue reported from the other prohibited activities (${unreported.join(', ')}).`,
  };
  reasons.push(noneReportedReason(others, ex.coverage, unreported));
}

/**
 * A stale figure of a retired revenue concept: evidence that the activity existed, never a pass.
 * A breach it shows is decided when the company's class still carries the activity, else in doubt.
 */
function retiredConceptReason(
  v: ShariahVersion,
  base: Omit<Reason, 'result' | 'message'>,
  share: number,
  text: string,
  carried: boolean,
): Reason {
  const breached = !shareWithin(share, '<=', v.coreBusinessShare);
  const then = `${text}. It was then a prohibited primary business`;
  return {
    ...base,
    result: !breached ? 'insufficient_data' : carried ? 'fail' : 'questionable',
    message: !breached
      ? `Revenue share cannot be used: ${text}.`
      : carried
        ? `${then}, and the industry class the company files under today still carries it: nothing shows that it ended.`
        : `${then}, and no fresh figure shows that it no longer is: in doubt.`,
    value: share,
    threshold: v.coreBusinessShare,
    operator: '<=',
    within_limit: !breached,
    ...(breached && !carried ? { doubt: 'ambiguous_evidence' as const } : {}),
  };
}

function businessChecks(v: ShariahVersion, ctx: ScreenContext, reasons: Reason[]): void {
  const ex = ctx.exposures;
  let reported = false;
  const unreported: ActivityCode[] = [];
  for (let k = 0; k < v.prohibitedIdx.length; k++) {
    const i = v.prohibitedIdx[k]!;
    const state = ex.states[i]!;
    const activity = v.prohibited[k]!;
    if (state === 'none') {
      unreported.push(activity);
      continue;
    }
    reported = true;
    const src = ex.sources[i]!;
    const base = {
      code: `${v.framework}.business.${activity}`,
      metric: `activity.${activity}`,
      filing_ref: src.sourceRef,
      source: v.source,
    };
    if (state === 'industry_code') {
      // A classification, not a measured share: nothing to compare with the limit.
      reasons.push({
        ...base,
        result: 'fail',
        message: primaryBusinessMessage(activity, src.sourceRef, activityOfSic(ctx.input.listing.sic)?.title),
        within_limit: false,
        evidence_level: 'industry_code',
      });
      continue;
    }
    if (state === 'retired') {
      reasons.push(
        retiredConceptReason(v, base, src.revenueShare, `${activityLabel(activity)}: ${ex.unusableText(i)}`, ex.retiredStillCarried(i)),
      );
      continue;
    }
    if (state !== 'ok') {
      reasons.push({
        ...base,
        result: 'insufficient_data',
        message: `Revenue share from ${activityLabel(activity)} cannot be used: ${ex.unusableText(i)}.`,
      });
      continue;
    }
    const share = ex.shares[i]!;
    const within = shareWithin(share, '<=', v.coreBusinessShare);
    if (within && share > 0 && directInvolvementCheck(v, k, src, base, reasons)) continue;
    const margin = marginOf(share, v.coreBusinessShare, '<=');
    const reason: Reason = {
      ...base,
      result: within ? 'pass' : 'fail',
      message: within
        ? `${activityLabel(activity)} is ${formatPercent(share)} of revenue${evidenceNote(src)}${v.directInvolvement[k] ? notDirectNote(src) : ''}: ` +
          `not the primary business; counted in the income limit.`
        : `${activityLabel(activity)} is ${formatPercent(share)} of revenue${evidenceNote(src)}: a prohibited primary business.`,
      value: share,
      threshold: v.coreBusinessShare,
      operator: '<=',
      within_limit: within,
      margin,
      near_limit: isNear(margin, nearWidth('revenue', v.coreBusinessShare)),
    };
    if (!within && reason.near_limit && isEstimate(src)) inDoubt(reason, 'estimate', 'the revenue share is an estimate');
    reasons.push(reason);
  }
  if (!reported) reasons.push(noneReportedReason(v.noneReported, ex.coverage, v.prohibited));
  else doubtBesideRows(v, ctx, unreported, reasons);
}

/**
 * "Directly active in" (docs/frameworks/README.md, "Direct involvement"): a prohibited activity
 * the company takes part in directly is excluded whatever its share; an unreported involvement
 * takes the conservative default. Pushes the reason and returns true when the rule decides.
 */
function directInvolvementCheck(
  v: ShariahVersion,
  k: number,
  src: ActivityExposure,
  base: Omit<Reason, 'result' | 'message'>,
  reasons: Reason[],
): boolean {
  const direct = v.directInvolvement[k];
  if (direct === null || direct === undefined) return false;
  const finding = involvementFinding(src, direct);
  if (finding === 'not_direct') return false;
  const activity = v.prohibited[k]!;
  const ground = v.directInvolvementLabel;
  const note = evidenceNote(src);
  reasons.push({
    ...base,
    source: v.directInvolvementSource ?? v.source,
    result: finding === 'direct' ? 'fail' : 'questionable',
    message:
      finding === 'direct' ? directMessage(activity, src, ground, note) : unknownInvolvementMessage(activity, src, direct, ground, note),
    value: src.revenueShare,
    threshold: 0,
    operator: '<=',
    within_limit: false,
    margin: marginOf(src.revenueShare, 0, '<='),
    near_limit: false,
    // Unknown involvement: the company might be a producer; the evidence is what is in doubt.
    ...(finding === 'unknown' ? { doubt: 'ambiguous_evidence' as const } : {}),
  });
  return true;
}

/**
 * A breach on a proxy figure is in doubt, however far beyond the limit, unless the certain part
 * breaches on its own (engine/proxies.ts): how much of the figure is the named one is unknown.
 */
function ratioCheck(rr: RatioRule, value: number, ctx: ScreenContext, inputs: readonly ReasonInput[] | undefined): Reason {
  // An inline closure: tsx names a closure bound to a name each time it is made, a cost on this hot path.
  const reason = checkThreshold(rr.rule, value, () => [ratioFraction(ctx.input, rr.ratio)], ctx.filingRef, inputs);
  if (restsOnEstimate(ctx.fundamentals, ratioFigureColumns(rr.ratio))) estimateInDoubt(reason, () => false);
  if (reason.result !== 'fail' || rr.rule.proxy === undefined) return reason;
  const certain = certainPart(rr.rule.proxy, ctx.fundamentals, ratioFraction(ctx.input, rr.ratio));
  if (certain === undefined) return reason;
  if (certain !== null) {
    const certainValue = certain.numerator[0]! / certain.denominator;
    if (!withinLimit(rr.rule, certainValue, () => [certain])) return reason;
  }
  reason.result = 'questionable';
  reason.doubt = 'proxy';
  reason.message =
    `${reason.message} In doubt: ${PROXY_TEXT[rr.rule.proxy]}, and ` +
    `${certain === null ? 'no part of it is certain to be the named figure' : 'the part certain to be the named figure is within the limit'}.`;
  return reason;
}

/**
 * The income check when interest income is a net non-operating proxy (engine/proxies.ts): a pass
 * is `questionable` (the proxy may understate interest), and so is a breach, unless the certain
 * prohibited revenue breaches on its own (`breachesWithoutInterest`).
 */
function proxiedInterestInDoubt(reason: Reason, breachesWithoutInterest: () => boolean): void {
  if (reason.result !== 'pass' && (reason.result !== 'fail' || breachesWithoutInterest())) return;
  reason.result = 'questionable';
  reason.doubt = 'proxy';
  reason.message = `${reason.message} In doubt: ${NON_OPERATING_PROXY_TEXT}.`;
}

const INCOME_FIGURES = ['interest_income', 'total_revenue'] as const;

/**
 * True when the certain prohibited revenue plus the reported part of an estimated interest
 * income (`interestIncomeAtLeast`) breach the limit alone; never on an estimated revenue.
 */
function knownIncomeBreaches(v: ShariahVersion, ctx: ScreenContext, certainActivities: number): boolean {
  const f = ctx.fundamentals;
  const revenue = f?.totalRevenue;
  if (f === null || figureIsEstimate(f, 'total_revenue') || revenue == null || !(revenue > 0)) return false;
  const floor = f.interestIncomeAtLeast;
  const known = floor != null && Number.isFinite(floor) && floor > 0 ? floor : 0;
  const terms: Fraction[] = [...incomeExactSum(v, ctx, false, false, false), { numerator: [known], denominator: revenue }];
  return !withinLimit(v.income.rule, certainActivities + known / revenue, () => terms);
}

/**
 * The income check's value as an exact sum of fractions (engine/exact.ts): the prohibited shares
 * (estimated ones only `withEstimates`) and, `withInterest`, the interest share or its proven floor.
 * Callers pass it as inline closures: tsx names a closure bound to a name each time it is made.
 */
function incomeExactSum(
  v: ShariahVersion,
  ctx: ScreenContext,
  interestKnown: boolean,
  withEstimates: boolean,
  withInterest: boolean,
): ExactSum {
  const ex = ctx.exposures;
  const terms: Fraction[] = [];
  for (const i of v.prohibitedIdx) {
    if (!ex.usable(i) || ex.shares[i] === 0 || (!withEstimates && isEstimate(ex.sources[i]))) continue;
    terms.push(shareOf(ex.shares[i]!));
  }
  if (!withInterest) return terms;
  if (interestKnown) terms.push(ratioFraction(ctx.input, 'interest_income_to_revenue'));
  else if (v.income.includeInterest) {
    const floor = ctx.ratios.atLeast.interest_income_to_revenue;
    if (floor !== undefined) terms.push(shareOf(floor));
  }
  return terms;
}

/** Returns the utilisation (value ÷ threshold) of the income check, or 0 when not assessed. */
function incomeCheck(v: ShariahVersion, ctx: ScreenContext, reasons: Reason[]): number {
  const ex = ctx.exposures;
  const rule = v.income.rule;
  let value = 0;
  // The same sum without estimated (curated) shares: the part of the value that is certain.
  let certainValue = 0;
  // Of which the prohibited revenue alone (no interest).
  let certainActivities = 0;
  let estimated = false;
  let missing: string | null = null;
  // Last shares of retired revenue concepts: they can show a breach in doubt, never a pass.
  let retiredShare = 0;
  let retiredCarried = true;
  const doubted: string[] = [];
  for (let k = 0; k < v.prohibitedIdx.length; k++) {
    const i = v.prohibitedIdx[k]!;
    if (ex.states[i] === 'retired') {
      retiredShare += ex.sources[i]!.revenueShare;
      retiredCarried &&= ex.retiredStillCarried(i);
    } else if (ex.inDoubt(v.prohibited[k]!)) doubted.push(activityLabel(v.prohibited[k]!));
    if (ex.usable(i)) {
      const share = ex.shares[i]!;
      value += share;
      if (share > 0 && isEstimate(ex.sources[i])) estimated = true;
      else {
        certainValue += share;
        certainActivities += share;
      }
    } else missing ??= `${activityLabel(v.prohibited[k]!)}: ${ex.unusableText(i)}`;
  }
  const interestKnown = v.income.includeInterest && ctx.ratios.values.interest_income_to_revenue !== null;
  if (v.income.includeInterest) {
    const interest = ctx.ratios.values.interest_income_to_revenue;
    if (interest === null) {
      // A proven lower bound counts: it can push the total over the limit, never under it.
      const floor = ctx.ratios.atLeast.interest_income_to_revenue;
      if (floor !== undefined) {
        value += floor;
        certainValue += floor;
      }
      const counted = floor !== undefined ? ` beyond its proven lower bound of ${formatPercent(floor)} of revenue, which is counted` : '';
      missing ??= `interest income share: ${describeCause(ctx.ratios.causes.interest_income_to_revenue ?? '')}${counted}`;
    } else {
      value += interest;
      certainValue += interest;
    }
  }
  const interestInputs = v.income.includeInterest ? ctx.ratios.inputs?.interest_income_to_revenue : undefined;
  const reason = checkThreshold(rule, value, () => incomeExactSum(v, ctx, interestKnown, true, true), ctx.filingRef, interestInputs);
  // A breach near the limit that needs an estimated share is in doubt; one the certain shares make on their own is not.
  if (
    reason.result === 'fail' &&
    estimated &&
    reason.near_limit === true &&
    withinLimit(rule, certainValue, () => incomeExactSum(v, ctx, interestKnown, false, true))
  ) {
    inDoubt(reason, 'estimate', 'part of the prohibited revenue is an estimated share');
  }
  // Interest from a non-operating proxy decides nothing alone: only a breach the other parts make without it is certain.
  if (interestKnown && interestIsNonOperatingProxy(ctx.fundamentals))
    proxiedInterestInDoubt(reason, () => !withinLimit(rule, certainActivities, () => incomeExactSum(v, ctx, interestKnown, false, false)));
  // Interest income or revenue in part estimated: only a breach the known part makes alone is certain.
  if (interestKnown && restsOnEstimate(ctx.fundamentals, INCOME_FIGURES))
    estimateInDoubt(reason, () => knownIncomeBreaches(v, ctx, certainActivities));
  // An activity the industry may carry, reported by no fresh figure, counts as 0 only in doubt.
  if (reason.result === 'pass' && doubted.length > 0) {
    reason.result = 'questionable';
    reason.doubt = 'ambiguous_evidence';
    reason.message = `${reason.message} In doubt: the company's industry may carry ${doubted.join(' or ')} revenue that no fresh figure reports.`;
  }
  if (missing === null) {
    reasons.push(reason);
    return value / rule.threshold;
  }
  // What is known already breaches the limit: unknown parts can only add to it.
  if (reason.result === 'fail') {
    reason.message = `${reason.message} Even without ${missing}.`;
    reasons.push(reason);
    return value / rule.threshold;
  }
  if (retiredShare > 0) {
    const total = value + retiredShare;
    const withRetired = checkThreshold(
      rule,
      total,
      () => [...incomeExactSum(v, ctx, interestKnown, true, true), shareOf(retiredShare)],
      ctx.filingRef,
      interestInputs,
    );
    if (withRetired.result === 'fail') {
      if (retiredCarried) {
        const carried = "a retired revenue concept's last figure, which the company's industry class still carries";
        withRetired.message = `${withRetired.message} The total counts ${carried} (${missing}).`;
      } else {
        withRetired.result = 'questionable';
        withRetired.doubt = 'ambiguous_evidence';
        withRetired.message = `${withRetired.message} In doubt: the total counts a retired revenue concept's last figure (${missing}).`;
      }
      reasons.push(withRetired);
      return total / rule.threshold;
    }
  }
  reasons.push(missingCheck(rule, missing, ctx.filingRef, interestInputs));
  return 0;
}

/**
 * Computes a version's business-activity reasons, or hands back earlier ones it knows equal them
 * (engine/screen-series.ts). They read only the version and the exposure index.
 */
export type BusinessScreen = (v: ShariahVersion, ctx: ScreenContext, compute: () => readonly Reason[]) => readonly Reason[];

const computeBusiness: BusinessScreen = (_v, _ctx, compute) => compute();

/** Screen one company (via its shared context) against a Shariah methodology's versions. */
export function screenShariah(
  id: ShariahFrameworkId,
  versions: readonly ShariahVersion[],
  ctx: ScreenContext,
  business: BusinessScreen = computeBusiness,
): FrameworkResult {
  const v = versionInForce(versions, ctx.input.screeningDate);
  if (v === null) return notInForce(id, ctx.input.screeningDate);
  // The reason objects may be shared with earlier results: nothing changes a reason once made.
  const reasons: Reason[] = [
    ...business(v, ctx, () => {
      const made: Reason[] = [];
      businessChecks(v, ctx, made);
      return made;
    }),
  ];
  let maxUtil = 0;
  const { values, causes, inputs } = ctx.ratios;
  for (const rr of v.ratioRules) {
    const value = values[rr.ratio];
    if (value === null) {
      reasons.push(missingCheck(rr.rule, describeCause(causes[rr.ratio] ?? ''), ctx.filingRef, inputs?.[rr.ratio]));
    } else {
      reasons.push(ratioCheck(rr, value, ctx, inputs?.[rr.ratio]));
      const util = value / rr.rule.threshold;
      if (util > maxUtil) maxUtil = util;
    }
  }
  const incomeUtil = incomeCheck(v, ctx, reasons);
  if (incomeUtil > maxUtil) maxUtil = incomeUtil;
  const status = combineReasons(reasons);
  const shortHistory =
    (v.averageWindow === 24 && ctx.quality.avg24 === 'short') || (v.averageWindow === 36 && ctx.quality.avg36 === 'short');
  if (shortHistory) {
    reasons.push({
      code: `${id}.short_price_history`,
      result: 'info',
      message: `The ${v.averageWindow}-month average market cap rests on ${
        v.averageWindow === 24 ? ctx.input.marketCap.months24 : ctx.input.marketCap.months36
      } month-end prices (short history; accepted above the documented minimum).`,
      metric: v.averageWindow === 24 ? 'market_cap_months_24' : 'market_cap_months_36',
    });
  }
  return {
    id,
    status,
    // Headroom: 100 = no exposure to any limit; 0 = at or over the tightest limit.
    score: status === 'insufficient_data' ? null : Math.round(Math.max(0, 1 - maxUtil) * 1000) / 10,
    methodology_version: v.version,
    methodology_effective_from: v.effectiveFrom,
    reasons,
    purification: frameworkPurification(ctx, v.purification, v.prohibitedIdx),
  };
}
