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

/** Order used by "never improves" guarantees: higher is more favourable to the company. */
export const STATUS_RANK: Readonly<Record<VerdictStatus, number>> = Object.freeze({
  non_compliant: 0,
  insufficient_data: 1,
  questionable: 2,
  compliant: 3,
});
