import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fundamentalsFromCompanyFacts, type EdgarFundamentals } from '../../sources/edgar/companyfacts.ts';
import { createEdgarSource } from '../../sources/edgar/edgar-source.ts';
import { CompanyFactsSchema, parseEdgarJson, type CompanyFacts } from '../../sources/edgar/edgar-formats.ts';
import { makeTempDir } from '../support/temp-dir.ts';

/** Real companyfacts (test/fixtures/realdata/PROVENANCE.md), read as the SEC serves them. */
function realFacts(cik: string): CompanyFacts {
  const file = path.resolve(`test/fixtures/realdata/companyfacts/CIK${cik}.json.gz`);
  return parseEdgarJson(CompanyFactsSchema, gunzipSync(readFileSync(file)).toString('utf8'), file);
}

const rowsByCik = new Map<string, EdgarFundamentals[]>();

/** The row a screen on `date` uses: the latest filed on or before it. */
function rowAt(cik: string, ticker: string, date: string): EdgarFundamentals {
  let rows = rowsByCik.get(cik);
  if (!rows) rowsByCik.set(cik, (rows = fundamentalsFromCompanyFacts(realFacts(cik), ticker)));
  return rows.filter((r) => r.filed_on <= date).at(-1)!;
}

const sourcesOf = (row: EdgarFundamentals): Record<string, string> => JSON.parse(row.figure_sources) as Record<string, string>;

describe('EDGAR figures of real filers, as of 2024-02-29', () => {
  it('when Apple filed its 10-Q on 2024-02-02, then the row is that 10-Q with balance-sheet debt, cash and both kinds of marketable securities', () => {
    const row = rowAt('0000320193', 'AAPL', '2024-02-29');
    expect(row).toMatchObject({ period_end: '2023-12-30', filed_on: '2024-02-02', source_ref: 'edgar:0000320193-24-000006' });
    // LongTermDebtCurrent 10,954 + CommercialPaper 1,998 + LongTermDebtNoncurrent 95,088 ($M); LongTermDebt (106,000) not added again.
    expect(row.total_debt).toBe(108_040_000_000);
    expect(row.cash_and_equivalents).toBe(40_760_000_000);
    // MarketableSecuritiesCurrent 32,340 + MarketableSecuritiesNoncurrent 99,475.
    expect(row.interest_bearing_investments).toBe(131_815_000_000);
    expect(row.accounts_receivable).toBe(23_194_000_000);
    expect(row.shares_outstanding).toBe(15_441_881_000);
    expect(sourcesOf(row).total_debt).toBe(
      'us-gaap:LongTermDebtCurrent + us-gaap:CommercialPaper + us-gaap:LongTermDebtNoncurrent @ 0000320193-24-000006',
    );
  });

  it('when Apple reports revenue year to date, then TTM = FY2023 383,285 + Q1 FY2024 119,575 − Q1 FY2023 117,154, naming both accessions', () => {
    const row = rowAt('0000320193', 'AAPL', '2024-02-29');
    expect(row.total_revenue).toBe(385_706_000_000);
    expect(sourcesOf(row).total_revenue).toMatch(
      /^us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax @ 0000320193-23-000106, 0000320193-24-000006 \(TTM = fiscal year to 2023-09-30/,
    );
  });

  it('when Apple reports interest and dividend income only for the fiscal year, then that latest year is used and the source says so', () => {
    const row = rowAt('0000320193', 'AAPL', '2024-02-29');
    expect(row.interest_income).toBe(3_750_000_000);
    expect(sourcesOf(row).interest_income).toMatch(
      /InvestmentIncomeInterestAndDividend @ 0000320193-23-000106 .*latest twelve months reported, 2023-09-30 \(not 2023-12-30\)/,
    );
  });

  it('when NVIDIA files its 10-K, then debt is DebtCurrent + LongTermDebtNoncurrent and securities the current marketable ones', () => {
    const row = rowAt('0001045810', 'NVDA', '2024-02-29');
    expect(row).toMatchObject({
      period_end: '2024-01-28',
      total_debt: 9_709_000_000,
      cash_and_equivalents: 7_280_000_000,
      interest_bearing_investments: 18_704_000_000,
    });
    expect(row).toMatchObject({ total_revenue: 60_922_000_000, interest_income: 866_000_000 });
  });

  it('when a bank (First Hawaiian) reports interest and dividend income, then it is the interest income and gross income is interest + non-interest income', () => {
    const row = rowAt('0000036377', 'FHB', '2024-02-29');
    expect(row.interest_income).toBe(923_579_000);
    expect(row.total_revenue).toBe(1_124_394_000);
    expect(sourcesOf(row).total_revenue).toMatch(/^us-gaap:InterestAndDividendIncomeOperating \+ us-gaap:NoninterestIncome @/);
    // Unclassified balance sheet: available-for-sale 2,255,336 + held-to-maturity 4,041,449 ($k).
    expect(row.interest_bearing_investments).toBe(6_296_785_000);
    expect(row.total_debt).toBe(500_000_000);
  });

  it('when an insurer (Mercury General) has no current/non-current split, then debt is LongTermDebt + finance leases and securities its debt securities', () => {
    const row = rowAt('0000064996', 'MCY', '2024-02-29');
    expect(row.interest_income).toBe(234_630_000);
    expect(row.total_debt).toBe(575_000_000 + 2_841_000);
    expect(row.interest_bearing_investments).toBe(4_319_336_000 + 178_491_000);
    expect(sourcesOf(row).interest_bearing_investments).toMatch(
      /not counted, generic investments \(usually equity\): us-gaap:Investments 5,228,520,000/,
    );
  });

  it("when a filer reports DebtCurrent, CommercialPaper, LongTermDebt and certificates of deposit inside cash (McDonald's), then none is counted twice", () => {
    const row = rowAt('0000063908', 'MCD', '2024-02-29');
    // DebtCurrent 2,192.4 + LongTermDebtNoncurrent 37,152.9 + FinanceLeaseLiability 1,575.5 ($M); not CommercialPaper 347.6 nor LongTermDebt 39,345.3.
    expect(row.total_debt).toBe(40_920_800_000);
    expect(row.interest_bearing_investments).toBe(0);
    expect(row.interest_income).toBe(236_300_000);
    expect(sourcesOf(row).interest_income).toMatch(/^us-gaap:NonoperatingIncomeExpense @ .*proxy: net non-operating income/);
  });

  it('when Walmart reports short-term borrowings, current and non-current debt and finance leases, then they add up once (DebtLongtermAndShorttermCombinedAmount not added)', () => {
    const row = rowAt('0000104169', 'WMT', '2024-02-29');
    expect(row.total_debt).toBe(2_806_000_000 + 9_942_000_000 + 36_342_000_000 + 688_000_000 + 5_670_000_000);
  });

  it('when a debt-free filer (National Beverage) tags no debt, then debt is 0 because its liability lines make up its total liabilities', () => {
    const row = rowAt('0000069891', 'FIZZ', '2024-02-29');
    expect(row.total_debt).toBe(0);
    expect(sourcesOf(row).total_debt).toMatch(
      /^no concept @ 0001437749-23-033873 \(no debt or finance lease line; the liability lines .* make up total liabilities, none a borrowing: 0\)$/,
    );
  });

  it('when a combined filing has no us-gaap:Assets (Cinemark 2023), then it still gets its row, and figures needing the balance sheet stay null with a reason', () => {
    const row = rowAt('0001385280', 'CNK', '2024-02-29');
    expect(row).toMatchObject({ period_end: '2023-12-31', filed_on: '2024-02-16', total_assets: null, interest_bearing_investments: null });
    expect(sourcesOf(row).interest_bearing_investments).toBe(
      'not reported: no securities concept and no balance sheet (us-gaap:Assets) at the period end',
    );
    expect(sourcesOf(row).shares_outstanding).toMatch(/WeightedAverageNumberOfSharesOutstandingBasic/);
  });

  it('when a filer amends old quarters after a newer period (Universal, 2025), then the amendments get no row and every filing date has one row', () => {
    const rows = fundamentalsFromCompanyFacts(realFacts('0000102037'), 'UVV');
    const filedDates = rows.map((r) => r.filed_on);
    expect(new Set(filedDates).size).toBe(filedDates.length);
    for (let i = 1; i < rows.length; i += 1) expect(rows[i]!.period_end >= rows[i - 1]!.period_end).toBe(true);
    expect(rows.some((r) => r.filed_on === '2025-04-21' && r.period_end === '2024-03-31')).toBe(false);
  });
});

/** A fictional filer in the companyfacts format, written here: only the facts a test names. */
function fictional(
  facts: Record<string, Array<{ val: number; start?: string; end: string; form: string; filed: string; accn: string }>>,
): CompanyFacts {
  const usGaap = Object.fromEntries(Object.entries(facts).map(([concept, list]) => [concept, { label: concept, units: { USD: list } }]));
  return parseEdgarJson(
    CompanyFactsSchema,
    JSON.stringify({ cik: 9999906, entityName: 'FICTIONAL PERIOD WORKS', facts: { 'us-gaap': usGaap } }),
    'fictional',
  );
}

const K24 = { form: '10-K', filed: '2025-02-20', accn: '0009999906-25-000001' };
const Q125 = { form: '10-Q', filed: '2025-05-01', accn: '0009999906-25-000002' };
const KA24 = { form: '10-K/A', filed: '2025-06-10', accn: '0009999906-25-000003' };
const Q225 = { form: '10-Q', filed: '2025-08-01', accn: '0009999906-25-000004' };

describe('EDGAR trailing twelve months and restatements, point in time', () => {
  const facts = fictional({
    Assets: [
      { val: 5_000, end: '2024-12-31', ...K24 },
      { val: 5_100, end: '2025-03-31', ...Q125 },
      { val: 5_000, end: '2024-12-31', ...KA24 },
      { val: 5_200, end: '2025-06-30', ...Q225 },
    ],
    Revenues: [
      { val: 1_000, start: '2024-01-01', end: '2024-12-31', ...K24 },
      { val: 700, start: '2024-01-01', end: '2024-09-30', form: '10-Q', filed: '2024-11-01', accn: '0009999906-24-000009' },
      { val: 250, start: '2024-01-01', end: '2024-03-31', ...Q125 },
      { val: 280, start: '2025-01-01', end: '2025-03-31', ...Q125 },
      // The 10-K/A restates fiscal 2024 down to 900.
      { val: 900, start: '2024-01-01', end: '2024-12-31', ...KA24 },
      { val: 500, start: '2024-01-01', end: '2024-06-30', ...Q225 },
      { val: 590, start: '2025-01-01', end: '2025-06-30', ...Q225 },
    ],
  });
  const rows = fundamentalsFromCompanyFacts(facts, 'QZPW');
  const at = (filed: string): EdgarFundamentals => rows.find((r) => r.filed_on === filed)!;

  it('when a 10-Q follows a 10-K, then TTM = fiscal year + YTD − prior YTD, the same as the derived Q4 (FY − nine months) plus three quarters', () => {
    const q4Derived = 1_000 - 700;
    expect(at('2025-05-01').total_revenue).toBe(1_000 + 280 - 250);
    expect(at('2025-05-01').total_revenue).toBe(280 + q4Derived + (700 - 250));
  });

  it('when a 10-K/A restates the year later, then the earlier rows keep the figures known when they were filed', () => {
    expect(at('2025-02-20').total_revenue).toBe(1_000);
    expect(at('2025-05-01').total_revenue).toBe(1_030);
  });

  it('when a 10-K/A of an older period is filed after a newer 10-Q, then it gets no row of its own and the next 10-Q uses the restated year', () => {
    expect(rows.map((r) => [r.filed_on, r.period_end])).toEqual([
      ['2025-02-20', '2024-12-31'],
      ['2025-05-01', '2025-03-31'],
      ['2025-08-01', '2025-06-30'],
    ]);
    expect(at('2025-08-01').total_revenue).toBe(900 + 590 - 500);
    expect(sourcesOf(at('2025-08-01')).total_revenue).toContain('0009999906-25-000003');
  });
});

/** Held-out real companyfacts (test/fixtures/realdata-heldout/PROVENANCE.md). */
function heldOutRowAt(cik: string, ticker: string, date: string): EdgarFundamentals {
  const file = path.resolve(`test/fixtures/realdata-heldout/companyfacts/CIK${cik}.json.gz`);
  const facts = parseEdgarJson(CompanyFactsSchema, gunzipSync(readFileSync(file)).toString('utf8'), file);
  return fundamentalsFromCompanyFacts(facts, ticker)
    .filter((r) => r.filed_on <= date)
    .at(-1)!;
}

describe('EDGAR interest income that is unknown, and its lower bound', () => {
  it('when Home Depot tags interest income in its 10-Qs but in no 10-K of 2014-2020, then the TTM is an estimate and the nine months to date are its lower bound', () => {
    // Its 10-K for the fiscal year to 2020-02-02 tags no us-gaap interest income, so the fourth
    // quarter of that year is reported nowhere on 2020-11-30; 2020-02-03..2020-11-01 reports 37 M.
    const row = heldOutRowAt('0000354950', 'HD', '2020-11-30');
    expect(row.period_end).toBe('2020-11-01');
    const sources = JSON.parse(row.figure_sources) as Record<string, unknown>;
    expect(sources.interest_income_at_least).toBe(37_000_000);
    expect(sources.interest_income_estimated).toBe(true);
    expect(sources.interest_income).toContain('us-gaap:InvestmentIncomeInterestAndDividend @ 0000354950-20-000103 (estimate:');
  });

  it('when Nike and Under Armour report only interest net of interest expense, and it is negative, then interest income is unknown with no bound, and the non-operating proxy is not used', () => {
    for (const [cik, ticker, concept] of [
      ['0000320187', 'NKE', 'InterestIncomeExpenseNonoperatingNet'],
      ['0001336917', 'UA', 'InterestIncomeExpenseNet'],
    ] as const) {
      const row = heldOutRowAt(cik, ticker, '2020-11-30');
      const sources = JSON.parse(row.figure_sources) as Record<string, unknown>;
      expect(row.interest_income, ticker).toBeNull();
      expect(sources.interest_income_at_least, ticker).toBeUndefined();
      expect(sources.interest_income, ticker).toContain(`only interest net of interest expense is reported (us-gaap:${concept} @`);
      expect(sources.interest_income, ticker).toContain('no lower bound above 0');
    }
  });

  it('when a filer reports a positive net interest income and no interest income, then the net is a lower bound, not the figure', () => {
    const facts = fictional({
      Assets: [{ val: 5_000, end: '2024-12-31', ...K24 }],
      InterestIncomeExpenseNet: [{ val: 40, start: '2024-01-01', end: '2024-12-31', ...K24 }],
      OtherNonoperatingIncomeExpense: [{ val: 90, start: '2024-01-01', end: '2024-12-31', ...K24 }],
    });
    const [row] = fundamentalsFromCompanyFacts(facts, 'QZPW');
    const sources = JSON.parse(row!.figure_sources) as Record<string, unknown>;
    expect(row!.interest_income).toBeNull();
    expect(sources.interest_income_at_least).toBe(40);
    expect(sources.interest_income).toContain('at least 40 (us-gaap:InterestIncomeExpenseNet @ 0009999906-25-000001');
  });

  it('when a filer reports neither interest income nor net interest, then a positive net non-operating income is still the stated proxy', () => {
    const facts = fictional({
      Assets: [{ val: 5_000, end: '2024-12-31', ...K24 }],
      OtherNonoperatingIncomeExpense: [{ val: 90, start: '2024-01-01', end: '2024-12-31', ...K24 }],
    });
    const [row] = fundamentalsFromCompanyFacts(facts, 'QZPW');
    expect(row!.interest_income).toBe(90);
    expect((JSON.parse(row!.figure_sources) as Record<string, string>).interest_income).toContain('proxy: net non-operating income');
  });
});

describe('EDGAR files that cannot give figures', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    temp = await makeTempDir();
  });
  afterEach(() => temp.cleanup());

  it('when a filer reports only IFRS facts, then its rows have null figures, its currency, and sources that say IFRS is not mapped', () => {
    const file = path.resolve('test/fixtures/edgar/handmade-ifrs-only-companyfacts.json');
    const rows = fundamentalsFromCompanyFacts(parseEdgarJson(CompanyFactsSchema, readFileSync(file, 'utf8'), file), 'QZIF');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      period_end: '2024-12-31',
      filed_on: '2025-03-14',
      currency: 'EUR',
      total_assets: null,
      total_debt: null,
      total_revenue: null,
      interest_income: null,
      shares_outstanding: null,
    });
    expect(sourcesOf(rows[0]!).total_debt).toMatch(/^not mapped: the filer reports in IFRS/);
  });

  it('when a companyfacts file in the folder is not in the SEC format, then ingesting the folder fails naming that file', async () => {
    await mkdir(path.join(temp.dir, 'companyfacts'), { recursive: true });
    await writeFile(
      path.join(temp.dir, 'companyfacts', 'CIK0009999907.json'),
      JSON.stringify({ cik: '9999907', name: 'not companyfacts', filings: {} }),
    );
    const source = createEdgarSource(temp.dir);
    await expect(source.chunks(undefined as never, undefined)).rejects.toThrow(
      /companyfacts\/CIK0009999907\.json: not in the EDGAR format: cik/,
    );
  });
});
