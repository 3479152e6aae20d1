/** The limits of a base framework's own threshold checks, which a custom screen may tighten but never loosen. */
import { USCCB_VERSIONS } from '../faith/catholic-usccb.ts';
import { BRI_VERSIONS } from '../faith/christian-bri.ts';
import type { ExclusionVersion } from '../faith/exclusion-types.ts';
import { HALAKHIC_NOT_JEWISH_CONTROLLED_VERSIONS, HALAKHIC_VERSIONS } from '../faith/jewish-halakhic.ts';
import { LDS_VERSIONS } from '../faith/lds-mormon.ts';
import { versionInForce } from '../methodology-versions.ts';
import { SHARIAH_VERSIONS } from '../shariah/index-of-versions.ts';
import type { BaseThreshold, CustomScreenBase } from './custom-screen-types.ts';

const EXCLUSION_TABLES: Record<Exclude<CustomScreenBase, `shariah_${string}`>, readonly (readonly ExclusionVersion[])[]> = {
  christian_bri: [BRI_VERSIONS],
  catholic_usccb: [USCCB_VERSIONS],
  // Both halakhic tables: a custom limit must be no looser than either.
  jewish_halakhic: [HALAKHIC_VERSIONS, HALAKHIC_NOT_JEWISH_CONTROLLED_VERSIONS],
  lds_mormon: [LDS_VERSIONS],
};

/**
 * The base's threshold checks in force on `date` (`YYYY-MM-DD`), by metric: ratio and income
 * limits of a Shariah methodology, revenue-share limits of an exclusion table (rules that exclude
 * only direct involvement have no share limit to tighten and are left out).
 */
export function baseThresholds(base: CustomScreenBase, date: string): Map<string, BaseThreshold> {
  const found = new Map<string, BaseThreshold>();
  const keep = (t: BaseThreshold) => {
    const seen = found.get(t.metric);
    if (seen === undefined || t.threshold < seen.threshold) found.set(t.metric, t);
  };
  if (base.startsWith('shariah_')) {
    const v = versionInForce(SHARIAH_VERSIONS[base as keyof typeof SHARIAH_VERSIONS], date);
    for (const rule of v === null ? [] : [...v.ratioRules.map((r) => r.rule), v.income.rule])
      keep({ metric: rule.metric, code: rule.code, threshold: rule.threshold, operator: rule.operator });
    return found;
  }
  for (const table of EXCLUSION_TABLES[base as keyof typeof EXCLUSION_TABLES]) {
    const v = versionInForce(table, date);
    for (const rule of v?.rules ?? [])
      if (rule.onlyDirect !== true) keep({ metric: rule.metric, code: rule.code, threshold: rule.threshold, operator: rule.operator });
  }
  return found;
}

/** True when `limit` is no looser than the base's: every operator here passes below the limit, so a lower limit is stricter. */
export function isNoLooser(limit: number, base: BaseThreshold): boolean {
  return limit <= base.threshold;
}
