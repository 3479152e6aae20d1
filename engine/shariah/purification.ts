/**
 * Purification: the share of income a Muslim holder gives away. Two documented formulas:
 * - dividend_ratio (index providers): dividend per share × (non-permissible income ÷ total income);
 * - impermissible_income_per_share (AAOIFI SS21, favoured by many scholars because it applies
 *   whether or not a dividend is paid): non-permissible income ÷ shares outstanding.
 * Interest income is always counted as non-permissible income here, even where a
 * methodology's 5% screen leaves it out. Amounts are in the filing's currency. Where interest
 * income is a net non-operating line standing in for it, the amount says it is an estimate.
 */
import { purificationProxy } from '../proxies.ts';
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

/** Dividends per share × the non-permissible income ratio, or null when either is unknown or unusable. */
export function dividendRatioOf(dividendsPerShare: number | null, npi: number | null): number | null {
  if (npi === null || dividendsPerShare === null || !Number.isFinite(dividendsPerShare) || dividendsPerShare < 0) return null;
  const v = dividendsPerShare * npi;
  return Number.isFinite(v) ? v : null;
}

/** Non-permissible income ratio × total revenue ÷ shares outstanding, or null when an input is unknown or unusable. */
export function impermissibleIncomeOf(npi: number | null, totalRevenue: number | null, sharesOutstanding: number | null): number | null {
  if (npi === null || totalRevenue === null || sharesOutstanding === null) return null;
  if (!Number.isFinite(sharesOutstanding) || sharesOutstanding <= 0) return null;
  const v = (npi * totalRevenue) / sharesOutstanding;
  return Number.isFinite(v) ? v : null;
}

/** Dividend-ratio purification per share (listing/filing currency), or null. */
export function dividendRatioPerShare(ctx: ScreenContext, npi: number | null): number | null {
  return dividendRatioOf(ctx.fundamentals?.dividendsPerShare ?? null, npi);
}

/** Holding-based impermissible income per share (filing currency), or null. */
export function impermissibleIncomePerShare(ctx: ScreenContext, npi: number | null): number | null {
  const f = ctx.fundamentals;
  return f === null ? null : impermissibleIncomeOf(npi, f.totalRevenue, f.sharesOutstanding);
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
    ...purificationProxy(ctx.fundamentals),
  };
}
