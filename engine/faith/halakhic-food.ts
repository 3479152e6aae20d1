/**
 * A food business's main trade is food, kosher or not: when only the industry code covers a
 * company of a food class, whether its main trade is in forbidden foods is unknown, which the
 * halakhic screen holds in doubt (docs/frameworks/jewish_halakhic.md, "Grounds").
 */
import { activityIndex } from '../exposures.ts';
import type { Reason } from '../result-types.ts';
import type { ScreenContext } from '../screen-context.ts';

/** SIC ranges whose primary business is food or drink, with their titles (SEC SIC code list). */
const FOOD_CLASSES: ReadonlyArray<readonly [number, number, string]> = [
  [2000, 2099, 'food and kindred products'],
  [5140, 5149, 'wholesale groceries and related products'],
  [5400, 5499, 'food stores'],
  [5810, 5813, 'eating and drinking places'],
];

const NON_KOSHER = activityIndex('non_kosher_food');

function foodClassOf(sic: string | null): string | null {
  if (sic === null || !/^\d{4}$/.test(sic)) return null;
  const code = Number(sic);
  const found = FOOD_CLASSES.find(([lo, hi]) => code >= lo && code <= hi);
  return found === undefined ? null : found[2];
}

/**
 * `questionable` when the company is of a food class, no figure reports non-kosher food and
 * nothing but the industry code covers its activities; null otherwise.
 */
export function foodTradeDoubt(ctx: ScreenContext, jewish: boolean, source: string): Reason | null {
  const sic = ctx.input.listing.sic;
  const title = foodClassOf(sic);
  const ex = ctx.exposures;
  if (title === null || ex.states[NON_KOSHER] !== 'none' || ex.coverage.level !== 'industry_code') return null;
  const line = jewish
    ? 'a company controlled by Jews may not trade in them from 5% of revenue'
    : 'a company not controlled by Jews trading mainly in them is questionable (Cheishev HaEifod 3:44)';
  return {
    code: 'jewish_halakhic.non_kosher_food',
    result: 'questionable',
    doubt: 'ambiguous_evidence',
    message:
      `Trading in forbidden foods: the company's industry (SIC ${sic}, ${title}) makes food its main trade, and no figure says ` +
      `whether it is kosher; ${line}. In doubt until an exposure row or a review settles it.`,
    metric: 'activity.non_kosher_food',
    evidence_level: 'industry_code',
    source,
  };
}
