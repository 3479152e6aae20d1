/**
 * Filing figures that are in part estimates by a documented rule (docs/frameworks/README.md,
 * "Estimated figures"): a trailing twelve months with one quarter reported nowhere, a debt of 0
 * the balance sheet does not prove. A check resting on one decides nothing alone: a pass is
 * `questionable` (doubt `estimate`), and so is a breach unless what is known alone makes it.
 */
import type { Fundamentals } from './inputs.ts';
import type { Reason } from './result-types.ts';

export const ESTIMATE_TEXT =
  'a figure it rests on is in part an estimate (a period the filings report nowhere, or a 0 the balance sheet does not prove)';

/** Why a purification computed from an estimated interest income or revenue is an estimate. */
export const ESTIMATED_PURIFICATION_TEXT =
  'an estimate: interest income or revenue for part of the twelve months is estimated, not reported';

/** True when the figure of this lake column (`interest_income`, `total_debt`, …) is marked as an estimate. */
export function figureIsEstimate(f: Fundamentals | null, column: string): boolean {
  return f?.estimatedFigures?.includes(column) ?? false;
}

/** True when any of these lake columns is an estimate. */
export function restsOnEstimate(f: Fundamentals | null, columns: readonly string[]): boolean {
  const marked = f?.estimatedFigures;
  return marked !== undefined && marked.length > 0 && columns.some((c) => marked.includes(c));
}

/**
 * A check on an estimated figure: a pass becomes `questionable` (doubt `estimate`), and so does a
 * breach unless `breachesOnKnown` says the known part alone breaches. A result already in doubt is kept.
 */
export function estimateInDoubt(reason: Reason, breachesOnKnown: () => boolean): void {
  if (reason.result !== 'pass' && (reason.result !== 'fail' || breachesOnKnown())) return;
  reason.result = 'questionable';
  reason.doubt = 'estimate';
  reason.message = `${reason.message} In doubt: ${ESTIMATE_TEXT}.`;
}
