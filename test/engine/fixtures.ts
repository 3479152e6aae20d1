/**
 * Test inputs: a clean base company with round numbers (so golden cases can be computed by
 * hand) and a deep-merge patch helper used by the golden tables.
 */
import type { ScreeningInput } from '../../engine/index.ts';

/**
 * Base company, screened 2025-06-30. Ratios: debt / market cap 0.10; (cash + interest-bearing
 * investments) / market cap 0.06; receivables / market cap 0.08; debt / assets 0.10;
 * (cash + IBI) / assets 0.06; (receivables + cash) / assets 0.13; interest / revenue 0.01.
 */
export function baseInput(): ScreeningInput {
  return {
    screeningDate: '2025-06-30',
    listing: {
      market: 'us',
      ticker: 'BASE',
      name: 'Base Manufacturing Inc.',
      exchangeMic: 'XNYS',
      currency: 'USD',
      sic: '3560',
      kind: 'stock',
      heterIska: null,
      operatesOnShabbat: false,
    },
    fundamentals: {
      periodEnd: '2025-03-31',
      filedOn: '2025-05-01',
      sourceRef: 'acc-base-10q',
      currency: 'USD',
      totalAssets: 10000,
      totalDebt: 1000,
      cashAndEquivalents: 500,
      interestBearingInvestments: 100,
      accountsReceivable: 800,
      totalRevenue: 5000,
      interestIncome: 50,
      sharesOutstanding: 1000,
      dividendsPerShare: 2,
    },
    marketCap: { spot: 10000, spotPriceDate: '2025-06-30', avg24m: 10000, avg36m: 10000, months24: 24, months36: 36 },
    exposures: [],
    synthetic: true,
    dataSource: 'test-fixture',
  };
}

export type Patch = { [key: string]: unknown };

function isPlainObject(v: unknown): v is Patch {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deep-merge `patch` into `target`: objects merge, arrays and scalars (and null) replace. */
export function applyPatch<T>(target: T, patch: Patch): T {
  const out: Patch = { ...(target as Patch) };
  for (const [k, v] of Object.entries(patch)) {
    const current = out[k];
    out[k] = isPlainObject(v) && isPlainObject(current) ? applyPatch(current, v) : v;
  }
  return out as T;
}

/** The base company with `patch` applied. */
export function inputWith(patch: Patch): ScreeningInput {
  return applyPatch(baseInput(), patch);
}
