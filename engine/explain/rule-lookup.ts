/**
 * What the methodology tables say beyond a stored result, for explaining disagreements: whether
 * a framework's version screens an activity at all, and a Shariah ratio check a snapshot did
 * not keep, recomputed from its stored ratio and the version's rule.
 */
import { BRI_VERSIONS } from '../faith/christian-bri.ts';
import { USCCB_VERSIONS } from '../faith/catholic-usccb.ts';
import type { ExclusionVersion } from '../faith/exclusion-types.ts';
import { HALAKHIC_NOT_JEWISH_CONTROLLED_VERSIONS, HALAKHIC_VERSIONS } from '../faith/jewish-halakhic.ts';
import { LDS_VERSIONS } from '../faith/lds-mormon.ts';
import { isShariahFrameworkId, type FrameworkId } from '../frameworks.ts';
import type { FrameworkResult, Ratios, Reason } from '../result-types.ts';
import { SHARIAH_VERSIONS } from '../shariah/index-of-versions.ts';

// Each faith framework's screened activities, over all its versions (the halakhic screen has one set per control reading).
const FAITH_VERSIONS: Partial<Record<FrameworkId, readonly ExclusionVersion[]>> = {
  christian_bri: BRI_VERSIONS,
  catholic_usccb: USCCB_VERSIONS,
  jewish_halakhic: [...HALAKHIC_VERSIONS, ...HALAKHIC_NOT_JEWISH_CONTROLLED_VERSIONS],
  lds_mormon: LDS_VERSIONS,
};

/** Whether the framework's version in force screens a `business.<activity>` topic's activity at all; null when unknown. */
export function screensActivity(id: FrameworkId, result: FrameworkResult, topic: string): boolean | null {
  if (!topic.startsWith('business.')) return null;
  const activity = topic.slice('business.'.length);
  if (isShariahFrameworkId(id)) {
    const version = SHARIAH_VERSIONS[id].find((v) => v.version === result.methodology_version);
    return version === undefined ? null : (version.prohibited as readonly string[]).includes(activity);
  }
  const versions = FAITH_VERSIONS[id];
  if (versions === undefined) return null;
  return versions.some((v) => v.version === result.methodology_version && v.rules.some((r) => r.activity === activity));
}

/** A Shariah ratio check (topic = its concept) the snapshot did not keep, from its stored ratio (0..1) and the rule; null when unknown. */
export function recomputedReason(id: FrameworkId, result: FrameworkResult, topic: string, ratios: Ratios): Reason | null {
  if (!isShariahFrameworkId(id)) return null;
  const version = SHARIAH_VERSIONS[id].find((v) => v.version === result.methodology_version);
  const rule = version?.ratioRules.find((r) => r.concept === topic);
  if (rule === undefined) return null;
  const value = ratios[rule.ratio];
  if (value === null) return null;
  const within = rule.rule.operator === '<' ? value < rule.rule.threshold : value <= rule.rule.threshold;
  const margin = rule.rule.threshold - value;
  // Not stored means it did not set the verdict: within its limit it passed, beyond it only a doubt (a fail is always kept).
  return {
    code: rule.rule.code,
    result: within ? 'pass' : 'questionable',
    message: `${rule.rule.label}: recomputed from the stored ratio, the snapshot keeps only the checks that decided its verdict`,
    metric: rule.ratio,
    value,
    threshold: rule.rule.threshold,
    operator: rule.rule.operator,
    margin: margin === 0 ? 0 : margin,
    near_limit: Math.abs(margin) <= rule.rule.nearWidth,
  };
}
