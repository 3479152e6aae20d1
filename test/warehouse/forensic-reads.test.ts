import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateCatalog } from '../../warehouse/catalog.ts';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { ForensicReads } from '../../warehouse/forensic-reads.ts';
import { ingestSource } from '../../sources/ingest.ts';
import { catalogPath, lakeRoot } from '../../warehouse/lake-paths.ts';
import { MIGRATIONS } from '../../warehouse/migrations/index.ts';
import { FORENSIC_SEED_FILE } from '../../warehouse/migrations/003-forensic-columns.ts';
import { readLakeStocks } from '../support/lake-stocks.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { readSql, sql } from '../../warehouse/sql.ts';

const TODAY = new Date().toISOString().slice(0, 10);

/** A fundamentals file as lakes wrote them before the forensic inputs existed (no ppe_net … sga_expense). */
async function writeOldFundamentals(dataDir: string, market: string): Promise<void> {
  const dir = path.join(lakeRoot(dataDir), 'fundamentals', `market=${market}`);
  mkdirSync(dir, { recursive: true });
  await withDuckDB(':memory:', {}, (c) =>
    c.run(`COPY (SELECT 'OLDCO' AS ticker, DATE '2024-12-31' AS period_end, DATE '2025-02-15' AS filed_on, 'old:1' AS source_ref, 'GBP' AS currency,
      1000.0 AS total_assets, 100.0 AS total_debt, 50.0 AS cash_and_equivalents, 0.0 AS interest_bearing_investments, 80.0 AS accounts_receivable,
      900.0 AS total_revenue, 1.0 AS interest_income, 10.0 AS shares_outstanding, 0.0 AS dividends_per_share, 600.0 AS total_liabilities, 400.0 AS total_equity,
      300.0 AS current_assets, 200.0 AS current_liabilities, 150.0 AS retained_earnings, 45.0 AS net_income, 60.0 AS ebit, 70.0 AS operating_cash_flow,
      300.0 AS gross_profit, 'feed' AS data_source, false AS synthetic) TO '${path.join(dir, 'old.parquet')}' (FORMAT parquet)`),
  );
}

describe('forensic reads over the lake', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let reads: ForensicReads;
  let ticker: string;

  beforeAll(async () => {
    temp = await makeTempDir();
    await ingestSource({ source: 'sample', scale: 0.002, dataDir: temp.dir, asOf: TODAY, markets: ['us'], concurrency: 1 });
    reads = new ForensicReads(temp.dir);
    const rows = await withDuckDB(':memory:', {}, async (c) =>
      (
        await readSql(
          c,
          sql`SELECT ticker FROM read_parquet(${`${lakeRoot(temp.dir)}/fundamentals/market=us/**/*.parquet`})
            GROUP BY ticker HAVING min(period_end) <= DATE '2012-12-31' ORDER BY ticker LIMIT 1`,
        )
      ).getRowObjectsJS(),
    );
    ticker = String(rows[0]!.ticker);
  });
  afterAll(async () => {
    await reads.close();
    await temp.cleanup();
  });

  it('when a company has years of filings, then one period per period end comes back newest first, with its filing and a close', async () => {
    const filings = (await reads.filings('us', [ticker], TODAY)).get(ticker)!;
    expect(filings.synthetic).toBe(true);
    expect(filings.dataSources).toEqual(['sample']);
    expect(filings.periods.length).toBeGreaterThan(12);
    const ends = filings.periods.map((p) => p.periodEnd);
    expect(ends).toEqual([...ends].sort().reverse());
    expect(new Set(ends).size).toBe(ends.length);
    const latest = filings.periods[0]!;
    expect(latest.sourceRef).toBe(`sample:v1:us:${ticker}:${latest.periodEnd}`);
    expect(latest.filedOn <= TODAY).toBe(true);
    expect(latest.figures.total_assets).toBeGreaterThan(0);
    expect(latest.figures.ppe_net).not.toBeUndefined();
    expect(latest.figures.depreciation).not.toBeUndefined();
    expect(filings.periods.some((p) => p.close !== null && p.closeDate !== null && p.closeDate <= p.periodEnd)).toBe(true);
  });

  it('when asked as of an earlier date, then only filings filed by then count', async () => {
    const filings = (await reads.filings('us', [ticker], '2015-06-30')).get(ticker)!;
    expect(filings.periods.every((p) => p.filedOn <= '2015-06-30')).toBe(true);
    expect(filings.periods[0]!.periodEnd < '2015-06-30').toBe(true);
  });

  it('when the listing is read, then its SIC and provenance come with it; an unknown ticker is undefined', async () => {
    const profile = await reads.profile('us', ticker);
    expect(profile).toMatchObject({ market: 'us', ticker, kind: 'stock', synthetic: true, dataSource: 'sample' });
    expect(profile!.sic).toMatch(/^\d{4}$/);
    expect(await reads.profile('us', 'NOPE')).toBeUndefined();
    expect(await reads.profile('zz', ticker)).toBeUndefined();
  });

  it("when peers are asked, then every other stock of the company's 2-digit SIC group with a filing comes back with its latest total assets, and nothing else", async () => {
    const stocks = await readLakeStocks(temp.dir, 'us', TODAY);
    // A company whose major group holds stocks of its own SIC and of another, so both kinds of member are checked.
    const company = stocks.find((s) => {
      const group = stocks.filter((o) => o.ticker !== s.ticker && o.sic.slice(0, 2) === s.sic.slice(0, 2));
      return group.some((o) => o.sic === s.sic) && group.some((o) => o.sic !== s.sic);
    })!;
    expect(company).toBeDefined();
    const expected = stocks.filter((s) => s.ticker !== company.ticker && s.sic.slice(0, 2) === company.sic.slice(0, 2));

    const peers = await reads.peerCandidates({ market: 'us', ticker: company.ticker, sic: company.sic, asOf: TODAY });

    expect(expected.length).toBeGreaterThanOrEqual(2);
    expect(peers).toEqual(expected);
  });

  it('when a lake was written before the forensic columns existed, then they read as null and the catalog view still binds after migration 3', async () => {
    await writeOldFundamentals(temp.dir, 'gb');
    const old = (await reads.filings('gb', ['OLDCO'], TODAY)).get('OLDCO')!;
    expect(old.periods[0]!.figures).toMatchObject({
      total_assets: 1000,
      ppe_net: null,
      long_term_debt: null,
      depreciation: null,
      sga_expense: null,
      long_term_investments: null,
    });
    expect(old.periods[0]!.close).toBeNull();
    // An old catalog: migrations 1–2 laid with a seed that lacks the new columns, then brought up to date.
    const other = await makeTempDir();
    try {
      await migrateCatalog(other.dir, MIGRATIONS.slice(0, 2));
      const seedDir = path.join(lakeRoot(other.dir), 'fundamentals', 'market=_none');
      rmSync(seedDir, { recursive: true });
      await writeOldFundamentals(other.dir, 'gb');
      const status = await migrateCatalog(other.dir);
      expect(status.applied).toEqual([
        '3-forensic-columns',
        '4-real-data-columns',
        '5-involvement-columns',
        '6-methodology-texts',
        '7-domicile-column',
      ]);
      const rows = await withDuckDB(catalogPath(other.dir), { readOnly: true }, async (c) =>
        (await c.runAndReadAll(`SELECT ticker, total_assets, ppe_net, sga_expense FROM fundamentals`)).getRowObjectsJS(),
      );
      expect(rows).toEqual([{ ticker: 'OLDCO', total_assets: 1000, ppe_net: null, sga_expense: null }]);
      expect(FORENSIC_SEED_FILE).toMatch(/\.parquet$/);
    } finally {
      await other.cleanup();
    }
  });
});
