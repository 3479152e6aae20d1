/**
 * A stricter limit on a snapshot that kept only the reasons deciding each verdict (a backfill
 * snapshot; docs/custom-screens.md, "Timeline"). The base's check on the metric is read back when
 * it was kept. One the base passed was dropped: its figure is restored from what the snapshot does
 * keep (its stored ratios; for the income limit, the purification's ratio, an upper bound). What
 * cannot be restored is `insufficient_data`, naming the missing figure: never a clean pass.
 */
import { shareWithin } from '../exact.ts';
import { formatPercent } from '../format.ts';
import { versionInForce } from '../methodology-versions.ts';
import type { FrameworkResult, RatioKey, Reason, ScreeningResult } from '../result-types.ts';
import { SHARIAH_VERSIONS } from '../shariah/index-of-versions.ts';
import type { CustomScreenBase } from './custom-screen-types.ts';
import { limitHead, thresholdRuleReason } from './threshold-rules.ts';

const DROPPED = 'a backfilled snapshot keeps only the reasons that decided each verdict, so it dropped this check, which the base passed';

/** The base's check on `metric` in the methodology version in force on the screening date: a ratio's column, or the income limit. */
function baseCheck(baseId: CustomScreenBase, base: FrameworkResult, metric: string, date: string) {
  if (!baseId.startsWith('shariah_')) return null;
  const v = versionInForce(SHARIAH_VERSIONS[baseId as keyof typeof SHARIAH_VERSIONS], date);
  if (v === null) return null;
  // A verdict stored under another version of the rules has other checks: nothing is restored from it.
  if (v.version !== base.methodology_version) return { version: v.version, rule: null, ratio: null };
  const ratioRule = v.ratioRules.find((r) => r.rule.metric === metric);
  if (ratioRule !== undefined) return { version: v.version, rule: ratioRule.rule, ratio: ratioRule.ratio as RatioKey };
  return v.income.rule.metric === metric ? { version: v.version, rule: v.income.rule, ratio: null } : null;
}

/**
 * The layer's reason for a stricter `limit` on `metric` over a snapshot that kept only its deciding
 * reasons; `base` is the base framework's stored verdict in `result`.
 */
export function restoredThresholdReason(
  result: ScreeningResult,
  baseId: CustomScreenBase,
  base: FrameworkResult,
  metric: string,
  limit: number,
  slug: string,
  layer: string,
): Reason {
  const check = base.reasons.some((r) => r.metric === metric) ? null : baseCheck(baseId, base, metric, result.screening_date);
  if (check === null) return thresholdRuleReason(base.reasons, metric, limit, slug, layer);
  const filing = result.provenance.filing?.source_ref;
  const ref = filing ? { filing_ref: filing } : {};
  const missing = (why: string): Reason =>
    thresholdRuleReason(
      [
        {
          code: check.rule?.code ?? `${baseId}.${metric}`,
          result: 'insufficient_data',
          message: why,
          metric,
          ...(check.rule ? { threshold: check.rule.threshold, operator: check.rule.operator } : {}),
          ...ref,
        },
      ],
      metric,
      limit,
      slug,
      layer,
    );
  if (check.rule === null)
    return missing(
      `${DROPPED}; the verdict was stored under ${baseId} ${base.methodology_version}, whose checks this engine does not hold (it holds ${check.version})`,
    );
  const passed = { code: check.rule.code, metric, threshold: check.rule.threshold, operator: check.rule.operator, ...ref };
  if (check.ratio !== null) {
    const value = result.ratios[check.ratio];
    if (value === null || !Number.isFinite(value)) return missing(`${DROPPED}, and the snapshot's stored ratios hold no ${check.ratio}`);
    const reason = thresholdRuleReason([{ ...passed, result: 'pass', message: '', value }], metric, limit, slug, layer);
    return { ...reason, message: `${reason.message} The figure is the snapshot's stored ratio: ${DROPPED}.` };
  }
  // The income limit's figure is not stored. The purification's ratio counts the same prohibited
  // shares plus interest always, so it bounds the figure from above: within the stricter limit, the
  // figure is too (compared strictly, so a sum added in another order cannot round above it).
  const npi = base.purification?.non_permissible_income_ratio ?? null;
  const operator = check.rule.operator;
  if (npi !== null && Number.isFinite(npi) && shareWithin(npi, '<', limit))
    return {
      code: `custom.${slug}.${metric}`,
      result: 'pass',
      message:
        `${limitHead(layer, metric, operator, limit, check.rule.threshold)}: at most ${formatPercent(npi)}, within the limit: ` +
        `${DROPPED}; the purification's non-permissible income ratio (interest always counted) bounds the figure from above.`,
      metric,
      threshold: limit,
      operator,
      within_limit: true,
      source: layer,
      ...ref,
    };
  const bound =
    npi === null
      ? "and the purification's non-permissible income ratio is unknown"
      : `and the purification's non-permissible income ratio (${formatPercent(npi)}, interest always counted) is an upper bound beyond the limit`;
  return missing(`${DROPPED}; the snapshot does not keep the non-permissible income share, ${bound}`);
}
