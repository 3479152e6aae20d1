import { describe, expect, it } from 'vitest';
import { MARKETS, getMarket, marketOfMic } from '../../common/markets.ts';
import { FULL_SCALE_STOCKS, sampleUniversePlan } from '../../sources/sample/sample-plan.ts';

describe('markets', () => {
  it('when listed, then there are 46 markets with unique keys, slugs and MIC codes', () => {
    expect(MARKETS).toHaveLength(46);
    expect(new Set(MARKETS.map((m) => m.marketKey)).size).toBe(46);
    expect(new Set(MARKETS.map((m) => m.slug)).size).toBe(46);
    const mics = MARKETS.flatMap((m) => m.exchanges.map((e) => e.mic));
    expect(new Set(mics).size).toBe(mics.length);
    for (const mic of mics) expect(mic).toMatch(/^[A-Z0-9]{4}$/);
    for (const m of MARKETS) expect(m.currency).toMatch(/^[A-Z]{3}$/);
  });

  it('when faith investors look for their markets, then the US, UK, Canada, the Gulf, Malaysia, Indonesia, Pakistan, Turkey and India are there', () => {
    for (const key of ['us', 'gb', 'ca', 'sa', 'ae', 'qa', 'kw', 'bh', 'om', 'my', 'id', 'pk', 'tr', 'in'])
      expect(getMarket(key).marketKey).toBe(key);
    expect(getMarket('us').exchanges.map((e) => e.mic)).toContain('XNYS');
    expect(marketOfMic('XKLS')?.marketKey).toBe('my');
    expect(() => getMarket('zz')).toThrow(/valid markets are us, ca/);
  });

  it('when sized at full scale, then the sample has 124,000+ stocks and 2,000+ funds with the US largest', () => {
    const plan = sampleUniversePlan(1);
    const stocks = plan.reduce((s, p) => s + p.stocks, 0);
    expect(stocks).toBeGreaterThanOrEqual(FULL_SCALE_STOCKS);
    expect(stocks).toBeGreaterThanOrEqual(124_000);
    expect(plan.reduce((s, p) => s + p.funds, 0)).toBeGreaterThanOrEqual(2_000);
    const largest = [...plan].sort((a, b) => b.stocks - a.stocks)[0]!;
    expect(largest.market.marketKey).toBe('us');
  });
});
