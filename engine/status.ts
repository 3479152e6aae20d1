/** Combining check outcomes into a verdict status, fail-closed. */
import type { Reason, VerdictStatus } from './result-types.ts';

/**
 * A failing check on usable data is decisive (no missing input could make it compliant);
 * otherwise any check without usable data makes the verdict `insufficient_data`; otherwise
 * any `questionable` check makes it `questionable`; only all-pass is `compliant`.
 */
export function combineReasons(reasons: readonly Reason[]): VerdictStatus {
  let missing = false;
  let questionable = false;
  for (const r of reasons) {
    if (r.result === 'fail') return 'non_compliant';
    if (r.result === 'insufficient_data') missing = true;
    else if (r.result === 'questionable') questionable = true;
  }
  if (missing) return 'insufficient_data';
  return questionable ? 'questionable' : 'compliant';
}

/**
 * The reasons that set `status`, by the rule of `combineReasons`: the failing checks of a
 * non_compliant verdict, the checks without usable data of an insufficient_data one, the
 * questionable checks of a questionable one. A compliant verdict has none: every check passed.
 */
export function decidingReasons(status: VerdictStatus, reasons: readonly Reason[]): Reason[] {
  const decides: Record<VerdictStatus, Reason['result'] | null> = {
    non_compliant: 'fail',
    insufficient_data: 'insufficient_data',
    questionable: 'questionable',
    compliant: null,
  };
  const result = decides[status];
  return result === null ? [] : reasons.filter((reason) => reason.result === result);
}

/**
 * Order of statuses from least to most favourable, used for the strict and lenient views.
 * For "never improves" guarantees use `isImprovement`: insufficient_data is "unknown", not a
 * rung on this ladder.
 */
export const STATUS_RANK: Readonly<Record<VerdictStatus, number>> = Object.freeze({
  non_compliant: 0,
  insufficient_data: 1,
  questionable: 2,
  compliant: 3,
});

/**
 * True when going from `before` to `after` is good news for the company: leaving
 * non_compliant, or reaching compliant from anything else. Learning that an unknown verdict
 * is questionable or non_compliant is not an improvement.
 */
export function isImprovement(before: VerdictStatus, after: VerdictStatus): boolean {
  if (before === after) return false;
  if (before === 'non_compliant') return true;
  if (after === 'compliant') return true;
  return false;
}
