/**
 * Nearness to a limit: data on every numeric check (`margin`, `near_limit`), never a status
 * (docs/frameworks/README.md, "Margin and nearness"). A balance-sheet ratio is near its limit
 * within 1 percentage point; a revenue or income share within 5% of the limit (0.25 points at
 * 5%, 2.5 points at 50%). The same distance bounds how far a breach resting on a proxy or an
 * estimate may lie beyond the limit and still be in doubt.
 */

/** What a limit bounds: balance-sheet ratios and revenue shares have different nearness. */
export type LimitKind = 'balance_sheet' | 'revenue';

/** One percentage point, for balance-sheet ratios. */
export const NEAR_BALANCE_SHEET_POINTS = 0.01;
/** Five per cent of the limit, for revenue and income shares. */
export const NEAR_REVENUE_FRACTION = 0.05;

/** Distance to `threshold` within which a value is near it; 0 for a zero ("any involvement") limit. */
export function nearWidth(kind: LimitKind, threshold: number): number {
  return kind === 'balance_sheet' ? NEAR_BALANCE_SHEET_POINTS : threshold * NEAR_REVENUE_FRACTION;
}

/** Signed distance to the limit, positive inside it (a double: the status itself is decided exactly, engine/exact.ts). */
export function marginOf(value: number, threshold: number, operator: '<' | '<=' | '>' | '>='): number {
  const m = operator === '<' || operator === '<=' ? threshold - value : value - threshold;
  // -0 does not survive JSON; a margin of zero has no sign.
  return m === 0 ? 0 : m;
}

/** True when the value lies within `width` of the limit (either side); never for a zero width. */
export function isNear(margin: number, width: number): boolean {
  return width > 0 && Math.abs(margin) <= width;
}
