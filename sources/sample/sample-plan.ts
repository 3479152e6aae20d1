import { MARKETS, getMarket, type Market } from '../../common/markets.ts';

/** Stock listings of the full-scale universe (124,000+ tickers, as the README states). */
export const FULL_SCALE_STOCKS = 124_600;

/** Listings per sample chunk: a market larger than this is split into ticker-index parts. */
export const SAMPLE_PART_SIZE = 10_000;

export interface SampleOptions {
  /** Seed of every random draw; the same seed gives the same universe. */
  seed: number;
  /** 1 = full scale (124,600 stocks, 2,000+ funds); 0.01 for tests. */
  scale: number;
  /** Last day of generated history (`YYYY-MM-DD`), the run date. */
  asOf: string;
}

export interface SampleMarketPlan {
  market: Market;
  /** Position of the market in `MARKETS` (a stable hash input). */
  marketIndex: number;
  stocks: number;
  funds: number;
}

const TOTAL_WEIGHT = MARKETS.reduce((sum, m) => sum + m.listingWeight, 0);

/** Stock and fund counts of one market at a scale: stocks proportional to the market's listing weight. */
export function sampleMarketPlan(marketKey: string, scale: number): SampleMarketPlan {
  const market = getMarket(marketKey);
  const full = Math.ceil((market.listingWeight * FULL_SCALE_STOCKS) / TOTAL_WEIGHT);
  const fullFunds = Math.ceil(full * 0.015) + (market.islamicHub ? 30 : 0);
  return {
    market,
    marketIndex: MARKETS.indexOf(market),
    stocks: Math.max(3, Math.round(full * scale)),
    funds: Math.max(1, Math.round(fullFunds * scale)),
  };
}

/** Every market's plan at a scale. */
export function sampleUniversePlan(scale: number): SampleMarketPlan[] {
  return MARKETS.map((m) => sampleMarketPlan(m.marketKey, scale));
}

/** A chunk's id names its market and ticker-index part: `us-p002`. */
export function samplePartId(marketKey: string, part: number): string {
  return `${marketKey}-p${String(part).padStart(3, '0')}`;
}

/** Parses a chunk id back into market and part. */
export function parseSamplePartId(id: string): { marketKey: string; part: number } {
  const match = /^([a-z]{2})-p(\d{3})$/.exec(id);
  if (!match) throw new Error(`not a sample chunk id: ${id}`);
  return { marketKey: match[1]!, part: Number(match[2]) };
}
