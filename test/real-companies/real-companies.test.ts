/**
 * True verdicts on real companies: the recorded SEC filings and month-end prices of 12 US
 * companies (test/fixtures/realdata/PROVENANCE.md), loaded through the real CLI, screened as of
 * 2024-02-29 by the pipelines' chunk work, and read back over real HTTP from the API. The
 * expectations are the clear-cut ones in PROVENANCE.md.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAMEWORK_IDS, SHARIAH_FRAMEWORK_IDS, type FrameworkId } from '../../engine/index.ts';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { loadScreeningInputs } from '../../warehouse/screening-inputs.ts';
import { ingestRealCompanies, screenUsOn } from './support/real-lake.ts';
import { serveRealLake, type Json, type ServedRealLake } from './support/served-real-lake.ts';

const DATE = '2024-02-29';
const FAITH_EXCLUSIONS = ['christian_bri', 'catholic_usccb'] as const;

describe('real companies screened as of 2024-02-29', () => {
  let lake: ServedRealLake;
  const status = (ticker: string, id: FrameworkId): Promise<string> => lake.status(ticker, id);
  const report = (ticker: string): Promise<Json> => lake.report(ticker);

  beforeAll(async () => {
    lake = await serveRealLake(DATE, async (dir) => {
      await ingestRealCompanies(dir);
      await screenUsOn(dir, DATE);
      await screenUsOn(dir, '2020-06-30');
    });
  }, 300_000);

  afterAll(() => lake?.close());

  it('when the casino operator is screened, then it is non-compliant under every Shariah methodology, BRI and USCCB 2021, on cited evidence', async () => {
    for (const id of [...SHARIAH_FRAMEWORK_IDS, ...FAITH_EXCLUSIONS]) expect(await status('CZR', id), id).toBe('non_compliant');
    const gambling = (await report('CZR')).shariah_aaoifi.reasons.find((r: Json) => r.code === 'shariah_aaoifi.business.gambling');
    expect(gambling).toMatchObject({ result: 'fail' });
    expect(gambling.filing_ref).toMatch(/^curated: Caesars Entertainment/);
  });

  it('when the bank is screened, then conventional finance from its own interest-income concept excludes it under every Shariah methodology', async () => {
    for (const id of SHARIAH_FRAMEWORK_IDS) expect(await status('FHB', id), id).toBe('non_compliant');
    const finance = (await report('FHB')).shariah_djim.reasons.find((r: Json) => r.code === 'shariah_djim.business.conventional_finance');
    expect(finance.result).toBe('fail');
    expect(finance.filing_ref).toMatch(/^edgar:\d{10}-\d{2}-\d{6} us-gaap:InterestAndDividendIncomeOperating/);
    // FY2023 in the 10-K 0001558370-24-001995: InterestAndDividendIncomeOperating 923,579,000 over
    // itself plus NoninterestIncome 200,815,000 = 923,579,000 / 1,124,394,000 = 0.821402.
    expect(finance.value).toBeCloseTo(923_579_000 / 1_124_394_000, 6);
    expect(finance.value).toBeCloseTo(0.821402, 6);
  });

  it('when the insurer is screened, then premiums earned make it conventional insurance under every Shariah methodology', async () => {
    for (const id of SHARIAH_FRAMEWORK_IDS) expect(await status('MCY', id), id).toBe('non_compliant');
    const insurance = (await report('MCY')).shariah_sp.reasons.find((r: Json) => r.code === 'shariah_sp.business.conventional_insurance');
    expect(insurance.filing_ref).toContain('us-gaap:PremiumsEarnedNet');
  });

  it('when the leaf-tobacco merchant is screened, then the curated list excludes it under Shariah, BRI, the Word of Wisdom and USCCB 2021', async () => {
    for (const id of [...SHARIAH_FRAMEWORK_IDS, ...FAITH_EXCLUSIONS, 'lds_mormon'] as const)
      expect(await status('UVV', id), id).toBe('non_compliant');
  });

  it('when Apple and NVIDIA are screened, then they are compliant under AAOIFI, DJIM and S&P', async () => {
    for (const ticker of ['AAPL', 'NVDA']) {
      for (const id of ['shariah_aaoifi', 'shariah_djim', 'shariah_sp'] as const)
        expect(await status(ticker, id), `${ticker} ${id}`).toBe('compliant');
    }
    const business = (await report('AAPL')).shariah_aaoifi.reasons.find((r: Json) => r.code === 'shariah_aaoifi.business.none_reported');
    expect(business).toMatchObject({ result: 'pass', evidence_level: 'industry_code' });
    expect(business.message).toContain('SIC 3571');
  });

  it('when a company has complete filings and prices, then every Shariah methodology gives a decided verdict', async () => {
    for (const ticker of ['AAPL', 'NVDA', 'WMT', 'COST', 'MCD', 'DIS', 'CZR', 'FHB', 'MCY', 'UVV', 'FIZZ']) {
      for (const id of SHARIAH_FRAMEWORK_IDS) expect(await status(ticker, id), `${ticker} ${id}`).not.toBe('insufficient_data');
    }
  });

  it("when McDonald's and National Beverage report interest income nowhere apart, then AAOIFI's income limit rests on their non-operating line and is questionable, never a pass", async () => {
    for (const ticker of ['MCD', 'FIZZ']) {
      const income = ((await report(ticker)).shariah_aaoifi.reasons as Json[]).find(
        (r) => r.code === 'shariah_aaoifi.non_permissible_income',
      )!;
      expect(income, ticker).toMatchObject({ result: 'questionable', doubt: 'proxy' });
      const interest = (income.inputs as Json[]).find((i) => i.name === 'interest_income')!;
      expect(interest.source, ticker).toMatch(/us-gaap:(Other)?NonoperatingIncomeExpense/);
      expect(await status(ticker, 'shariah_aaoifi'), ticker).not.toBe('compliant');
    }
  });

  it('when no filing, SIC code, vendor row or curated entry covers a listed company, then every framework is insufficient_data', async () => {
    // Amazon is in the SEC's ticker list but its filings were not part of the delivery: absent
    // evidence is neither a pass nor a presumed failure.
    for (const id of FRAMEWORK_IDS) expect(await status('AMZN', id), id).toBe('insufficient_data');
  });

  it("when a verdict rests on a filing, then the report names the filing's accession", async () => {
    const debt = (await report('AAPL')).shariah_aaoifi.reasons.find((r: Json) => r.metric?.startsWith('debt_to'));
    expect(debt.filing_ref).toMatch(/^edgar:0000320193-24-000006/);
  });

  it('when a verdict is read with as_of, then it carries the reasons stored with it, each ratio check with its filing and the accession of every figure', async () => {
    const [current, stored] = [await report('AAPL'), await lake.stored('AAPL')];
    for (const id of SHARIAH_FRAMEWORK_IDS) expect(current[id].reasons, id).toEqual(stored[id].reasons);
    // The snapshot of 2020-06-30 rests on the 10-Q filed 2020-05-01 (accession 0000320193-20-000052).
    const past = await lake.verdicts('AAPL', '2020-06-30');
    expect(past).toMatchObject({ snapshot_date: '2020-06-30', reasons_kept: 'all' });
    expect(past.provenance.filing.source_ref).toBe('edgar:0000320193-20-000052');
    const debt = (past.frameworks.shariah_aaoifi.reasons as Json[]).find((r) => r.code === 'shariah_aaoifi.interest_bearing_debt')!;
    expect(debt.filing_ref).toBe('edgar:0000320193-20-000052');
    const totalDebt = (debt.inputs as Json[]).find((i) => i.name === 'total_debt')!;
    expect(totalDebt.source).toMatch(/^us-gaap:.* @ 0000320193-20-000052$/);
  });

  it('when prices are split-adjusted and the filing counts shares before the split, then the market cap is on one split basis', async () => {
    // Apple on 2020-06-30: the recorded close 91.199997 (adjusted for the 4-for-1 split of August 2020),
    // dei:EntityCommonStockSharesOutstanding 4,334,335,000 on the cover of the 10-Q 0000320193-20-000052
    // (filed 2020-05-01, before the split): 91.199997 × 4 × 4,334,335,000 = 1,581,165,355,987.98 USD.
    const [input] = await withDuckDB(':memory:', {}, (c) =>
      loadScreeningInputs(c, lake.dataDir, { market: 'us', date: '2020-06-30', tickers: ['AAPL'] }),
    );
    expect(input!.marketCap.spot!).toBeCloseTo(1_581_165_355_987.98, 0);
    // Walmart's 3-for-1 split of February 2024 falls between its last 10-Q and 2024-02-29: the recorded
    // close 58.610001 × 3 × 2,692,233,703 shares on the cover of the 10-Q 0000104169-23-000132 (filed
    // 2023-11-30) = 473,375,460,075.19 USD; without the split factor it would be a third of that.
    const [wmt] = await withDuckDB(':memory:', {}, (c) =>
      loadScreeningInputs(c, lake.dataDir, { market: 'us', date: DATE, tickers: ['WMT'] }),
    );
    expect(wmt!.marketCap.spot!).toBeCloseTo(473_375_460_075.19, 0);
  });
});
