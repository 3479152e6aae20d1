/**
 * The API's response filter: keeps only the requested frameworks of an already computed
 * result. It never recomputes; `madhhab_views` and the Shariah purification stay only when
 * at least one `shariah_*` framework is returned.
 */
import { FRAMEWORK_IDS, isFrameworkId, isShariahFrameworkId, type FrameworkId } from './frameworks.ts';
import type { FrameworkResult, ScreeningResult } from './result-types.ts';

/** A copy of `result` restricted to `ids` (canonical order); throws RangeError on unknown ids. */
export function filterFrameworks(result: ScreeningResult, ids: readonly string[]): ScreeningResult {
  const unknown = ids.filter((id) => !isFrameworkId(id));
  if (unknown.length > 0) {
    throw new RangeError(`unknown framework ids: ${unknown.join(', ')}; valid ids: ${FRAMEWORK_IDS.join(', ')}`);
  }
  const wanted = new Set(ids);
  const frameworks: Partial<Record<FrameworkId, FrameworkResult>> = {};
  const returned: FrameworkId[] = [];
  for (const id of FRAMEWORK_IDS) {
    const fr = result.frameworks[id];
    if (wanted.has(id) && fr !== undefined) {
      frameworks[id] = fr;
      returned.push(id);
    }
  }
  const anyShariah = returned.some(isShariahFrameworkId);
  const { madhhab_views: views, ...rest } = result;
  const filtered: ScreeningResult = {
    ...rest,
    frameworks,
    frameworks_returned: returned,
    purification: anyShariah ? result.purification : null,
    purification_per_share: anyShariah ? result.purification_per_share : null,
  };
  if (anyShariah && views !== undefined) filtered.madhhab_views = views;
  return filtered;
}
