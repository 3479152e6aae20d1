/**
 * Tolerance bands. Where a provider publishes a buffer (DJIM ±2 points from 2023-09, MSCI's
 * 30% entry threshold) the table uses it; elsewhere the service applies its own documented
 * tolerance, written here as literal decimals so no float arithmetic shifts an edge.
 */
import type { Band } from './threshold-check.ts';

export const SERVICE_RATIO_BAND = 'service tolerance ±1 percentage point (data and definitional uncertainty)';
export const SERVICE_REVENUE_BAND = 'service tolerance ±5% of the limit (revenue-segment estimates)';

/** Closed band: clear pass below `low`, clear fail above `high`, questionable in [low, high]. */
export function serviceBand(low: number, high: number, basis: string = SERVICE_RATIO_BAND): Band {
  return Object.freeze({ low, lowOp: '<', high, highOp: '>', basis });
}

/** Around a 5% revenue limit: 4.75%–5.25%. */
export const REVENUE_BAND_5: Band = serviceBand(0.0475, 0.0525, SERVICE_REVENUE_BAND);

/** Around a 50% ("primary business") revenue limit: 47.5%–52.5%. */
export const REVENUE_BAND_50: Band = serviceBand(0.475, 0.525, SERVICE_REVENUE_BAND);
