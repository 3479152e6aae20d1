import { describe, expect, it } from 'vitest';
import { rankPeers } from '../../forensic/peers.ts';

const c = (ticker: string, sic: string, totalAssets: number) => ({ ticker, sic, totalAssets });

describe('peer ranking', () => {
  const candidates = [
    c('AAA', '3560', 400),
    c('BBB', '3560', 2_000),
    c('CCC', '3560', 1_100),
    c('DDD', '3561', 1_000),
    c('EEE', '2800', 1_000),
    c('FFF', '3590', 990),
  ];

  it('when enough same-SIC peers exist, then the closest in total assets come first (|ln ratio|), the major group unused', () => {
    const { peers, widened, short } = rankPeers('3560', 1_000, candidates, 2);
    // |ln(1100/1000)| = 0.0953 < |ln(2000/1000)| = 0.6931 < |ln(400/1000)| = 0.9163
    expect(peers.map((p) => [p.rank, p.candidate.ticker, p.match])).toEqual([
      [1, 'CCC', 'sic4'],
      [2, 'BBB', 'sic4'],
    ]);
    expect(peers[0]!.size_distance).toBeCloseTo(Math.log(1.1), 12);
    expect([widened, short]).toEqual([false, false]);
  });

  it('when fewer same-SIC peers than n exist, then the 2-digit major group fills the rest and says so', () => {
    const { peers, widened, short } = rankPeers('3560', 1_000, candidates, 5);
    expect(peers.map((p) => `${p.candidate.ticker}:${p.match}`)).toEqual(['CCC:sic4', 'BBB:sic4', 'AAA:sic4', 'DDD:sic2', 'FFF:sic2']);
    expect([widened, short]).toEqual([true, false]);
  });

  it('when even the major group is short, then every candidate of it is returned and short is set; other groups never enter', () => {
    const { peers, short } = rankPeers('3560', 1_000, candidates, 10);
    expect(peers.map((p) => p.candidate.ticker)).not.toContain('EEE');
    expect(peers).toHaveLength(5);
    expect(short).toBe(true);
  });

  it("when the company's size is unknown, then peers are ordered by ticker with no distance", () => {
    const { peers } = rankPeers('3560', null, candidates, 3);
    expect(peers.map((p) => [p.candidate.ticker, p.size_distance])).toEqual([
      ['AAA', null],
      ['BBB', null],
      ['CCC', null],
    ]);
  });
});
