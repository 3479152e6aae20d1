/**
 * Reasons about the business-activity evidence behind a verdict (docs/frameworks/README.md,
 * "Business-activity evidence"): absence of evidence is not evidence of absence, so "no screened
 * activity" passes only when some evidence covers the company, and says which.
 */
import type { ActivityCoverage } from './exposures.ts';
import type { ActivityExposure } from './inputs.ts';
import type { Reason } from './result-types.ts';

/**
 * The "no screened activity" reason of a framework: its frozen pass reason with the evidence
 * level named, or `insufficient_data` when nothing covers the company's activities.
 */
export function noneReportedReason(pass: Reason, coverage: ActivityCoverage): Reason {
  if (coverage.level === 'none') {
    return {
      ...pass,
      result: 'insufficient_data',
      message: `Business activities cannot be assessed: ${coverage.evidence}. Absence of evidence is not evidence of absence.`,
      evidence_level: coverage.level,
    };
  }
  return { ...pass, message: `${pass.message} Evidence: ${coverage.evidence}.`, evidence_level: coverage.level };
}

/** A short note naming the evidence of a figure that is not a vendor's reported one. */
export function evidenceNote(e: ActivityExposure): string {
  switch (e.evidence) {
    case 'filing_concept':
      return ' (from a revenue concept in the company\'s filings)';
    case 'curated':
      return ' (curated estimate)';
    default:
      return '';
  }
}
