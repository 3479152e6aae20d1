/**
 * What a stored verdict shows about one business activity, read back from its reasons and
 * provenance (docs/custom-screens.md, "Computed at read time"). A stored result keeps every
 * revenue share a framework compared with a limit (`metric: activity.<code>`), the exposures it
 * used with their involvement, and the company's evidence level on every "none reported" reason.
 * Nothing here guesses: a figure the stored result does not keep is `unknown`.
 */
import type { ActivityCode, Involvement } from '../inputs.ts';
import type { Reason, ScreeningResult } from '../result-types.ts';
import { PRIMARY_BUSINESS_SHARE, type CoverageLevel } from '../exposures.ts';

export type StoredActivityEvidence =
  /** A usable revenue share (0..1); `classified` when only the SIC code names it as the primary business (a lower bound). */
  | {
      kind: 'figure';
      share: number;
      sourceRef: string | null;
      involvement: Involvement | null;
      classified: boolean;
      doubt: Reason['doubt'];
    }
  /** A figure exists but cannot be used (stale, after the screening date, invalid), in the stored reason's words. */
  | { kind: 'unusable'; why: string; sourceRef: string | null }
  /** The company reports an exposure to the activity, but no stored reason kept its share. */
  | { kind: 'unknown'; sourceRef: string | null }
  /** Nothing reported; `level` is the company's evidence level, or null when the stored result does not say. */
  | { kind: 'none_reported'; level: CoverageLevel | null; evidence: string | null };

function reasonsOf(result: ScreeningResult): Reason[] {
  return Object.values(result.frameworks).flatMap((framework) => framework?.reasons ?? []);
}

/** The company's evidence level as the stored "none reported" reasons name it, and their words for it. */
function coverageOf(reasons: readonly Reason[]): { level: CoverageLevel | null; evidence: string | null } {
  const named = reasons.find(
    (r) => r.evidence_level !== undefined && (r.metric === 'activity.prohibited' || r.metric === 'activity.screened'),
  );
  if (named === undefined) return { level: null, evidence: null };
  const evidence = /Evidence: (.*)\.$/.exec(named.message)?.[1] ?? null;
  return { level: named.evidence_level!, evidence };
}

/** The evidence a stored result holds for `activity`. */
export function storedActivityEvidence(result: ScreeningResult, activity: ActivityCode): StoredActivityEvidence {
  const reasons = reasonsOf(result);
  const metric = `activity.${activity}`;
  const exposure = result.provenance.exposures.find((e) => e.activity === activity);
  const onActivity = reasons.filter((r) => r.metric === metric);
  const measured = onActivity.find((r) => r.value !== undefined && r.result !== 'insufficient_data' && r.result !== 'info');
  const classified = onActivity.find((r) => r.evidence_level === 'industry_code' || r.filing_ref?.startsWith('sic:') === true);
  const involvement = (exposure?.involvement ?? null) as Involvement | null;
  if (classified !== undefined)
    return {
      kind: 'figure',
      share: Math.max(classified.value ?? 0, PRIMARY_BUSINESS_SHARE),
      sourceRef: classified.filing_ref ?? null,
      involvement,
      classified: true,
      doubt: undefined,
    };
  if (measured !== undefined)
    return {
      kind: 'figure',
      share: measured.value!,
      sourceRef: measured.filing_ref ?? exposure?.source_ref ?? null,
      involvement,
      classified: false,
      doubt: measured.doubt,
    };
  const unusable = onActivity.find((r) => r.result === 'insufficient_data');
  if (unusable !== undefined) return { kind: 'unusable', why: unusable.message, sourceRef: unusable.filing_ref ?? null };
  if (exposure !== undefined) return { kind: 'unknown', sourceRef: exposure.source_ref };
  return { kind: 'none_reported', ...coverageOf(reasons) };
}
