import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { createSampleSource } from '../../sources/sample/sample-source.ts';
import type { SourceChunk } from '../../warehouse/source-contract.ts';
import { openDuckDB } from '../../warehouse/duckdb.ts';

const options = { seed: 7, scale: 0.05, asOf: '2026-11-21' };

describe('sample source', () => {
  let instance: DuckDBInstance;
  let c: DuckDBConnection;
  let us: SourceChunk;
  const source = createSampleSource(options);
  const rows = async (sql: string) => (await c.runAndReadAll(sql)).getRowObjectsJS();

  beforeAll(async () => {
    instance = await openDuckDB(':memory:');
    c = await instance.connect();
    [us] = (await source.chunks(c, ['us'])) as [SourceChunk];
    await source.listings(us, { connection: c, table: 'l' });
    await source.fundamentals(us, { connection: c, table: 'f' });
    await source.prices(us, { connection: c, table: 'p' });
    await source.exposures(us, { connection: c, table: 'e' });
    await source.fundHoldings(us, { connection: c, table: 'h' });
  });
  afterAll(() => {
    c.closeSync();
    instance.closeSync();
  });

  it('when a chunk is generated twice, then the rows are identical (deterministic per seed, market and index)', async () => {
    await source.fundamentals(us, { connection: c, table: 'f2' });
    const diff = await rows('SELECT count(*)::INTEGER AS n FROM (SELECT * FROM f EXCEPT SELECT * FROM f2)');
    expect(diff[0]!.n).toBe(0);
    const other = createSampleSource({ ...options, seed: 8 });
    await other.listings(us, { connection: c, table: 'l8' });
    const same = await rows('SELECT count(*)::INTEGER AS n FROM l JOIN l8 USING (ticker, name)');
    expect(Number(same[0]!.n)).toBeLessThan(5);
  });

  it('when listed, then every row is marked synthetic with a sample:v1 reference and tickers are unique letter strings', async () => {
    const [check] =
      await rows(`SELECT bool_and(synthetic) AS s, bool_and(source_ref LIKE 'sample:v1:us:%') AS r, count(*) = count(DISTINCT ticker) AS u,
      bool_and(regexp_full_match(ticker, '[A-Z]{4}')) AS t, sum((kind = 'fund')::INT)::INTEGER AS funds FROM l`);
    expect(check).toMatchObject({ s: true, r: true, u: true, t: true });
    expect(Number(check!.funds)).toBeGreaterThan(0);
  });

  it('when fundamentals are generated, then they run quarterly from 2009 to the run date, never filed after it, with negative equity, zero revenue and gaps present', async () => {
    const [f] =
      await rows(`SELECT min(period_end)::VARCHAR AS first, max(filed_on)::VARCHAR AS last, bool_and(filed_on > period_end) AS after,
      sum((total_equity < 0)::INT)::INTEGER AS neg, sum((total_revenue = 0)::INT)::INTEGER AS zero, sum((accounts_receivable IS NULL)::INT)::INTEGER AS gaps,
      sum((filed_on - period_end > 120)::INT)::INTEGER AS late FROM f`);
    expect(f!.first).toBe('2009-03-31');
    expect(String(f!.last) <= '2026-11-21').toBe(true);
    expect(f!.after).toBe(true);
    for (const key of ['neg', 'zero', 'gaps', 'late']) expect(Number(f![key])).toBeGreaterThan(0);
  });

  it('when forensic inputs are generated, then they fit the balance sheet: current assets + PP&E + long-term securities ≤ assets, long-term debt ≤ debt, depreciation < PP&E', async () => {
    const [f] = await rows(`SELECT bool_and(current_assets + ppe_net + long_term_investments <= total_assets + 2) AS fits,
      bool_and(long_term_debt IS NULL OR long_term_debt <= total_debt + 1) AS ltd, bool_and(depreciation <= ppe_net) AS dep,
      bool_and(sga_expense IS NULL OR sga_expense >= 0) AS sga, count(ppe_net)::INTEGER AS ppe, sum((long_term_investments > 0)::INT)::INTEGER AS lti,
      sum((sga_expense IS NULL)::INT)::INTEGER AS sga_gaps, count(*)::INTEGER AS n FROM f`);
    expect(f).toMatchObject({ fits: true, ltd: true, dep: true, sga: true, ppe: f!.n });
    expect(Number(f!.lti)).toBeGreaterThan(0);
    expect(Number(f!.sga_gaps)).toBeGreaterThan(0);
  });

  it('when prices are generated, then there is a close at every month end and on the run date', async () => {
    const [p] = await rows(`SELECT max(date)::VARCHAR AS last, count(DISTINCT date)::INTEGER AS dates, min(close) > 0 AS positive FROM p`);
    expect(p).toMatchObject({ last: '2026-11-21', positive: true });
    expect(Number(p!.dates)).toBe(12 * 17 + 10 + 1);
  });

  it('when exposures are generated, then shares are in 0..1 and some sit near the 5% and 33% thresholds', async () => {
    const [e] =
      await rows(`SELECT min(revenue_share) >= 0 AND max(revenue_share) <= 1 AS bounded, count(DISTINCT activity)::INTEGER AS activities,
      sum((revenue_share BETWEEN 0.04 AND 0.06)::INT)::INTEGER AS near5, sum((revenue_share BETWEEN 0.31 AND 0.35)::INT)::INTEGER AS near33 FROM e`);
    expect(e!.bounded).toBe(true);
    expect(Number(e!.activities)).toBeGreaterThan(10);
    expect(Number(e!.near5)).toBeGreaterThan(0);
    expect(Number(e!.near33)).toBeGreaterThan(0);
  });

  it('when fund holdings are generated, then each fund-date sums to at most 1 and holds listed tickers', async () => {
    const [h] = await rows(
      `SELECT max(total) AS top, min(total) AS low FROM (SELECT sum(weight) AS total FROM h GROUP BY fund_ticker, as_of)`,
    );
    expect(Number(h!.top)).toBeLessThanOrEqual(1);
    expect(Number(h!.low)).toBeGreaterThan(0.9);
    const [known] = await rows(`SELECT count(*)::INTEGER AS n FROM h WHERE market = 'us' AND ticker NOT IN (SELECT ticker FROM l)`);
    expect(known!.n).toBe(0);
  });
});
