/**
 * Purification: the share of income a Muslim holder gives away. Two documented formulas:
 * - dividend_ratio (index providers): dividend per share × (non-permissible income ÷ total income);
 * - impermissible_income_per_share (AAOIFI SS21, favoured by many scholars because it applies
 *   whether or not a dividend is paid): non-permissible income ÷ shares outstanding.
 * Interest income is always counted as non-permissible income here, even where a
 * methodology's 5% screen leaves it out. Amounts are in the filing's currency.
 */
import type { ScreenContext } from '../screen-context.ts';
import type { FrameworkPurification, PurificationMethod } from '../result-types.ts';

export const PURIFICATION_FORMULAS: Readonly<Record<PurificationMethod, string>> = Object.freeze({
  dividend_ratio: 'dividends per share × (non-permissible income ÷ total income)',
  impermissible_income_per_share: '(non-permissible income ÷ total income) × total income ÷ shares outstanding',
});

/** Non-permissible income ÷ total income (0..1) over the given activities plus interest; null if unknown. */
export function nonPermissibleIncomeRatio(ctx: ScreenContext, activityIdx: readonly number[]): number | null {
  const interest = ctx.ratios.values.interest_income_to_revenue;
  if (interest === null) return null;
  let share = interest;
  const ex = ctx.exposures;
  for (const i of activityIdx) {
    if (!ex.usable(i)) return null;
    share += ex.shares[i]!;
  }
  return Math.min(share, 1);
}

/** Dividend-ratio purification per share (listing/filing currency), or null. */
export function dividendRatioPerShare(ctx: ScreenContext, npi: number | null): number | null {
  const dps = ctx.fundamentals?.dividendsPerShare ?? null;
  if (npi === null || dps === null || !Number.isFinite(dps) || dps < 0) return null;
  const v = dps * npi;
  return Number.isFinite(v) ? v : null;
}

/** Holding-based impermissible income per share (filing currency), or null. */
export function impermissibleIncomePerShare(ctx: ScreenContext, npi: number | null): number | null {
  const f = ctx.fundamentals;
  if (npi === null || f === null) return null;
  const revenue = f.totalRevenue;
  const shares = f.sharesOutstanding;
  if (revenue === null || shares === null || !Number.isFinite(shares) || shares <= 0) return null;
  const v = (npi * revenue) / shares;
  return Number.isFinite(v) ? v : null;
}

/** A framework's purification by its documented method. */
export function frameworkPurification(
  ctx: ScreenContext,
  method: PurificationMethod,
  activityIdx: readonly number[],
): FrameworkPurification {
  const npi = nonPermissibleIncomeRatio(ctx, activityIdx);
  const perShare = method === 'dividend_ratio' ? dividendRatioPerShare(ctx, npi) : impermissibleIncomePerShare(ctx, npi);
  return {
    method,
    per_share: perShare,
    non_permissible_income_ratio: npi,
    currency: ctx.fundamentals?.currency ?? null,
    formula: PURIFICATION_FORMULAS[method],
  };
}
