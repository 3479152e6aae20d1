/**
 * A custom screen's verdict on one stored snapshot, computed at read time from the stored result
 * (docs/custom-screens.md): the base framework's stored verdict and reasons, plus the layer's
 * reasons. The layer only adds checks, so its verdict is never more favourable than the base's.
 * Every reason says where it comes from (`origin`), and the result names the version applied.
 */
import type { ActivityCode } from '../inputs.ts';
import type { FrameworkResult, Reason, ScreeningResult, VerdictStatus } from '../result-types.ts';
import { combineReasons } from '../status.ts';
import { activityRuleReason } from './activity-rules.ts';
import type { CustomFrameworkResult, CustomReason, CustomScreenBase, CustomScreenVersion, ReasonsKept } from './custom-screen-types.ts';
import { restoredThresholdReason } from './restored-base-checks.ts';
import { thresholdRuleReason } from './threshold-rules.ts';

const ACTIVITY_METRIC = 'activity.';

/** Most decisive first, as `combineReasons` decides: a failure, then missing data, then doubt. */
const DECISIVENESS: Record<VerdictStatus, number> = { non_compliant: 3, insufficient_data: 2, questionable: 1, compliant: 0 };

function worse(a: VerdictStatus, b: VerdictStatus): VerdictStatus {
  return DECISIVENESS[a] >= DECISIVENESS[b] ? a : b;
}

/** The layer's own reasons for `ticker` (`market/TICKER`). */
function layerReasons(
  result: ScreeningResult,
  baseId: CustomScreenBase,
  base: FrameworkResult,
  version: CustomScreenVersion,
  ticker: string,
  kept: ReasonsKept,
): Reason[] {
  const { slug, definition } = version;
  const layer = `custom:${slug} v${version.version}`;
  if (definition.excludedTickers.includes(ticker))
    return [
      {
        code: `custom.${slug}.ticker_excluded`,
        result: 'fail',
        message: `${layer}: ${ticker} is on the screen's excluded list.`,
        source: layer,
      },
    ];
  if (definition.allowedTickers.includes(ticker))
    return [
      {
        code: `custom.${slug}.ticker_allowed`,
        result: 'info',
        message: `${layer}: ${ticker} is on the screen's allowed list: the layer's own rules are not applied to it; the base's verdict stands.`,
        source: layer,
      },
    ];
  return [
    ...definition.activities.map((rule) => activityRuleReason(result, rule, slug, layer)),
    ...Object.entries(definition.thresholds).map(([metric, limit]) =>
      // A stricter revenue-share limit reads the activity's evidence as an extra exclusion does: an unreported activity has no base reason to re-compare.
      metric.startsWith(ACTIVITY_METRIC)
        ? activityRuleReason(
            result,
            { activity: metric.slice(ACTIVITY_METRIC.length) as ActivityCode, maxRevenueShare: limit, excludedInvolvements: [] },
            slug,
            layer,
          )
        : kept === 'deciding'
          ? restoredThresholdReason(result, baseId, base, metric, limit, slug, layer)
          : thresholdRuleReason(base.reasons, metric, limit, slug, layer),
    ),
  ];
}

/**
 * The verdict of `custom:<slug>` on `result` under `version` (null: no version in force on the
 * date asked, which is never a clean verdict). `ticker` is `market/TICKER`; `kept` says whether
 * the stored result kept every reason or only the deciding ones (a backfill snapshot).
 */
export function applyCustomScreen(
  result: ScreeningResult,
  baseId: CustomScreenBase,
  slug: string,
  version: CustomScreenVersion | null,
  ticker: string,
  kept: ReasonsKept = 'all',
): CustomFrameworkResult {
  const base = result.frameworks[baseId];
  const tag =
    (origin: 'base' | 'custom') =>
    (r: Reason): CustomReason => ({ ...r, origin });
  const baseReasons = (base?.reasons ?? []).map(tag('base'));
  const custom: Reason[] =
    base === undefined
      ? [
          {
            code: `custom.${slug}.base_missing`,
            result: 'insufficient_data',
            message: `The snapshot holds no ${baseId} verdict to build on.`,
          },
        ]
      : version === null
        ? [
            {
              code: `custom.${slug}.not_in_force`,
              result: 'insufficient_data',
              message: `No version of custom:${slug} was in force on ${result.screening_date}.`,
            },
          ]
        : layerReasons(result, baseId, base, version, ticker, kept);
  const baseStatus = base?.status ?? 'insufficient_data';
  return {
    id: `custom:${slug}`,
    base: baseId,
    base_status: baseStatus,
    status: worse(baseStatus, combineReasons(custom)),
    // The base's score measures headroom under the base's limits, not the layer's.
    score: null,
    methodology_version: base?.methodology_version ?? 'none',
    methodology_effective_from: base?.methodology_effective_from ?? '',
    custom_screen: { slug, version: version?.version ?? null, effective_from: version?.effectiveFrom ?? null },
    reasons: [...baseReasons, ...custom.map(tag('custom'))],
    purification: base?.purification ?? null,
  };
}
