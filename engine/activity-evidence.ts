/**
 * Reasons about the business-activity evidence behind a verdict (docs/frameworks/README.md,
 * "Business-activity evidence"): absence of evidence is not evidence of absence, so "no screened
 * activity" passes only when some evidence covers the company, and says which.
 */
import type { ActivityCoverage } from './exposures.ts';
import { activityLabel } from './format.ts';
import type { ActivityCode, ActivityExposure } from './inputs.ts';
import type { Reason } from './result-types.ts';

/**
 * The "no screened activity" reason of a framework that screens `screened`: its frozen pass
 * reason with the evidence level named; `questionable` when the company's clean industry class
 * leaves a screened activity in doubt; `insufficient_data` when nothing covers the company.
 */
export function noneReportedReason(pass: Reason, coverage: ActivityCoverage, screened: readonly ActivityCode[]): Reason {
  if (coverage.level === 'none') {
    return {
      ...pass,
      result: 'insufficient_data',
      message: `Business activities cannot be assessed: ${coverage.evidence}. Absence of evidence is not evidence of absence.`,
      evidence_level: coverage.level,
    };
  }
  const doubtful = coverage.doubt?.activities.filter((a) => screened.includes(a)) ?? [];
  if (coverage.doubt !== null && doubtful.length > 0) {
    return {
      ...pass,
      result: 'questionable',
      doubt: 'ambiguous_evidence',
      message:
        `No fresh figure reports ${doubtful.map(activityLabel).join(' or ')} revenue, and the company's industry ` +
        `(SIC ${coverage.doubt.sic}, ${coverage.doubt.title}) may carry it: an industry code proves the primary business, ` +
        `not the absence of a side business. In doubt until a dated exposure or filing figure settles it.`,
      evidence_level: coverage.level,
    };
  }
  return { ...pass, message: `${pass.message} Evidence: ${coverage.evidence}.`, evidence_level: coverage.level };
}

/** True for a revenue share that is an approximation (the curated list's cited estimates), not a reported figure. */
export function isEstimate(e: ActivityExposure | undefined): boolean {
  return e?.evidence === 'curated';
}

/** A short note naming the evidence of a figure that is not a vendor's reported one. */
export function evidenceNote(e: ActivityExposure): string {
  switch (e.evidence) {
    case 'filing_concept':
      return " (from a revenue concept in the company's filings)";
    case 'retired_concept':
      return ` (from a revenue concept the taxonomy has since retired, filed ${e.asOf})`;
    case 'filing_dimension':
      return " (from a product or segment revenue line in the company's filing)";
    case 'curated':
      return ' (curated estimate)';
    default:
      return '';
  }
}

/** A primary business proven by the industry code: a categorical finding with no revenue share to compare. */
export function primaryBusinessMessage(activity: ActivityCode, sourceRef: string, title: string | undefined): string {
  const code = sourceRef.replace('sic:', 'SIC ');
  const named = title === undefined ? code : `${code}, ${title}`;
  return `${activityLabel(activity)} is the primary business by industry code (${named}): a prohibited primary business.`;
}
