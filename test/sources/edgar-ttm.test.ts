/**
 * Twelve months from what is filed, and figures a filer leaves untagged (docs/data/sources.md,
 * "edgar"): TTM chains of reported and derived periods, one missing quarter estimated, a debt of
 * 0 proven by the balance sheet, receivables under other concepts. Real filers from
 * test/fixtures/realdata/ and realdata-heldout/ (PROVENANCE.md); fictional ones written here in the companyfacts format.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fundamentalsFromCompanyFacts, type EdgarFundamentals } from '../../sources/edgar/companyfacts.ts';
import { CompanyFactsSchema, parseEdgarJson, type CompanyFacts } from '../../sources/edgar/edgar-formats.ts';

function realRowAt(folder: 'realdata' | 'realdata-heldout', cik: string, filed: string): EdgarFundamentals {
  const file = path.resolve(`test/fixtures/${folder}/companyfacts/CIK${cik}.json.gz`);
  const facts = parseEdgarJson(CompanyFactsSchema, gunzipSync(readFileSync(file)).toString('utf8'), file);
  return fundamentalsFromCompanyFacts(facts, 'X')
    .filter((r) => r.filed_on <= filed)
    .at(-1)!;
}

type FactRow = { val: number; start?: string; end: string; form: string; filed: string; accn: string };

function fictional(facts: Record<string, FactRow[]>): CompanyFacts {
  const usGaap = Object.fromEntries(Object.entries(facts).map(([concept, list]) => [concept, { label: concept, units: { USD: list } }]));
  return parseEdgarJson(
    CompanyFactsSchema,
    JSON.stringify({ cik: 9999908, entityName: 'FICTIONAL QUARTER WORKS', facts: { 'us-gaap': usGaap } }),
    'fictional',
  );
}

const sources = (row: EdgarFundamentals): Record<string, unknown> => JSON.parse(row.figure_sources) as Record<string, unknown>;

const K23 = { form: '10-K', filed: '2024-02-20', accn: '0009999908-24-000001' };
const Q124 = { form: '10-Q', filed: '2024-05-01', accn: '0009999908-24-000002' };
const Q224 = { form: '10-Q', filed: '2024-08-01', accn: '0009999908-24-000003' };
const Q324 = { form: '10-Q', filed: '2024-11-01', accn: '0009999908-24-000004' };
const assets = [
  { val: 9_000, end: '2023-12-31', ...K23 },
  { val: 9_100, end: '2024-03-31', ...Q124 },
  { val: 9_200, end: '2024-06-30', ...Q224 },
  { val: 9_300, end: '2024-09-30', ...Q324 },
];
const lastRow = (facts: CompanyFacts): EdgarFundamentals => fundamentalsFromCompanyFacts(facts, 'QZQW').at(-1)!;

describe('EDGAR trailing twelve months from any chain of filed periods', () => {
  it('when a filer tags only discrete quarters, then TTM is the four quarters, each accession named', () => {
    const row = lastRow(
      fictional({
        Assets: assets,
        Revenues: [
          { val: 100, start: '2023-10-01', end: '2023-12-31', ...K23 },
          { val: 110, start: '2024-01-01', end: '2024-03-31', ...Q124 },
          { val: 120, start: '2024-04-01', end: '2024-06-30', ...Q224 },
          { val: 130, start: '2024-07-01', end: '2024-09-30', ...Q324 },
        ],
      }),
    );
    expect(row.total_revenue).toBe(460);
    expect(sources(row).total_revenue).toBe(
      'us-gaap:Revenues @ 0009999908-24-000001, 0009999908-24-000002, 0009999908-24-000003, 0009999908-24-000004 ' +
        '(TTM = 2023-10-01..2023-12-31 + 2024-01-01..2024-03-31 + 2024-04-01..2024-06-30 + 2024-07-01..2024-09-30)',
    );
    expect(sources(row).total_revenue_estimated).toBeUndefined();
  });

  it('when the fourth quarter is tagged nowhere but the year and nine months are, then it is derived as their difference', () => {
    const row = lastRow(
      fictional({
        Assets: assets,
        InvestmentIncomeInterest: [
          { val: 40, start: '2023-01-01', end: '2023-09-30', form: '10-Q', filed: '2023-11-01', accn: '0009999908-23-000009' },
          { val: 55, start: '2023-01-01', end: '2023-12-31', ...K23 },
          { val: 14, start: '2024-01-01', end: '2024-03-31', ...Q124 },
          { val: 16, start: '2024-04-01', end: '2024-06-30', ...Q224 },
          { val: 18, start: '2024-07-01', end: '2024-09-30', ...Q324 },
        ],
      }),
    );
    expect(row.interest_income).toBe(55 - 40 + 14 + 16 + 18);
    expect(sources(row).interest_income).toContain('(2023-01-01..2023-12-31 − 2023-01-01..2023-09-30) + 2024-01-01..2024-03-31');
    expect(sources(row).interest_income_estimated).toBeUndefined();
  });

  it('when one quarter is reported in no filing, then TTM is an estimate: the known nine months pro rata, the rule in the source, the known part its lower bound', () => {
    const row = lastRow(
      fictional({
        Assets: assets,
        InvestmentIncomeInterest: [
          { val: 30, start: '2024-01-01', end: '2024-03-31', ...Q124 },
          { val: 60, start: '2024-01-01', end: '2024-06-30', ...Q224 },
          { val: 90, start: '2024-01-01', end: '2024-09-30', ...Q324 },
        ],
      }),
    );
    // 2023-10-01..2023-12-31 is 92 days; 2024-01-01..2024-09-30 is 274 days reported.
    expect(row.interest_income).toBeCloseTo(90 + (90 * 92) / 274, 9);
    const text = sources(row);
    expect(text.interest_income_estimated).toBe(true);
    expect(text.interest_income_at_least).toBe(90);
    expect(text.interest_income).toContain('@ 0009999908-24-000004');
    expect(text.interest_income).toContain('2023-10-01..2023-12-31 is reported in no filing: estimated as the 274 days reported, pro rata');
  });

  it('when two quarters are missing, then nothing is estimated: interest income stays unknown with its year to date as a lower bound', () => {
    const row = lastRow(
      fictional({
        Assets: assets,
        InvestmentIncomeInterest: [
          { val: 16, start: '2024-04-01', end: '2024-06-30', ...Q224 },
          { val: 18, start: '2024-07-01', end: '2024-09-30', ...Q324 },
        ],
      }),
    );
    expect(row.interest_income).toBeNull();
    expect(sources(row).interest_income_estimated).toBeUndefined();
    expect(sources(row).interest_income).toMatch(/^not reported: interest income is reported .* but not for twelve months/);
  });

  it("when Home Depot's 10-Ks tag no interest income, then its TTM on 2020-11-30 is the nine months to date plus their pro rata quarter, an estimate", () => {
    // 37 M for 2020-02-03..2020-11-01 (273 days); 2019-11-04..2020-02-02 (91 days) is tagged in no filing.
    const row = realRowAt('realdata-heldout', '0000354950', '2020-11-30');
    expect(row.interest_income).toBeCloseTo(37_000_000 + (37_000_000 * 91) / 273, 0);
    const text = sources(row);
    expect(text.interest_income_estimated).toBe(true);
    expect(text.interest_income_at_least).toBe(37_000_000);
    expect(text.interest_income).toMatch(
      /^us-gaap:InvestmentIncomeInterestAndDividend @ 0000354950-20-000103 \(estimate: .*2019-11-04\.\.2020-02-02 is reported in no filing/,
    );
  });

  it('when Nike tags interest income in its 10-Qs and not in its 10-K (fiscal 2024), then its TTM of January 2024 is an estimate too', () => {
    const row = realRowAt('realdata-heldout', '0000320187', '2024-01-05');
    expect(sources(row).interest_income_estimated).toBe(true);
    expect(sources(row).interest_income).toMatch(/^us-gaap:InvestmentIncomeInterest @ .*0000320187-24-000004/);
  });
});

describe('EDGAR debt a filer leaves untagged', () => {
  it('when National Beverage tags no debt and its liability lines make up its total liabilities, then debt is a proven 0 naming those lines', () => {
    const row = realRowAt('realdata', '0000069891', '2024-02-29');
    expect(row.total_debt).toBe(0);
    expect(sources(row).total_debt).toBe(
      'no concept @ 0001437749-23-033873 (no debt or finance lease line; the liability lines us-gaap:AccountsPayableCurrent + ' +
        'us-gaap:AccruedLiabilitiesCurrent + us-gaap:AccruedIncomeTaxesCurrent + us-gaap:OperatingLeaseLiabilityCurrent + ' +
        'us-gaap:OperatingLeaseLiabilityNoncurrent + us-gaap:DeferredIncomeTaxLiabilitiesNet + us-gaap:OtherLiabilitiesNoncurrent ' +
        'make up total liabilities, none a borrowing: 0)',
    );
    expect(sources(row).total_debt_estimated).toBeUndefined();
  });

  it('when a debt-free filer also reports interest expense in the year (National Beverage 2020, MiMedx 2017), then the balance sheet still proves 0', () => {
    for (const [folder, cik, filed] of [
      ['realdata', '0000069891', '2020-03-05'],
      ['realdata-heldout', '0001376339', '2017-10-31'],
    ] as const) {
      const row = realRowAt(folder, cik, filed);
      expect(row.total_debt, cik).toBe(0);
      expect(sources(row).total_debt, cik).toMatch(
        /make up total liabilities, none a borrowing: 0; the interest expense of the year \(us-gaap:InterestExpense/,
      );
    }
  });

  const balanceSheet = (lines: Record<string, number>, extra: Record<string, FactRow[]> = {}): CompanyFacts =>
    fictional({
      Assets: [{ val: 1_000, end: '2024-12-31', form: '10-K', filed: '2025-02-20', accn: '0009999908-25-000001' }],
      ...Object.fromEntries(
        Object.entries(lines).map(([concept, val]) => [
          concept,
          [{ val, end: '2024-12-31', form: '10-K', filed: '2025-02-20', accn: '0009999908-25-000001' }],
        ]),
      ),
      ...extra,
    });
  const interestExpense = {
    InterestExpense: [{ val: 7, start: '2024-01-01', end: '2024-12-31', form: '10-K', filed: '2025-02-20', accn: '0009999908-25-000001' }],
  };

  it('when the liability lines fall short of total liabilities and no interest expense is reported, then debt is an estimated 0, marked as such', () => {
    const row = lastRow(
      balanceSheet({ Liabilities: 300, LiabilitiesCurrent: 200, AccountsPayableCurrent: 150, OtherLiabilitiesNoncurrent: 100 }),
    );
    expect(row.total_debt).toBe(0);
    expect(sources(row).total_debt_estimated).toBe(true);
    expect(sources(row).total_debt).toContain('do not add up to total liabilities of 300: a line may be a borrowing');
  });

  it('when they fall short and interest expense is reported, then debt is unknown', () => {
    const row = lastRow(balanceSheet({ Liabilities: 300, LiabilitiesCurrent: 200, AccountsPayableCurrent: 150 }, interestExpense));
    expect(row.total_debt).toBeNull();
    expect(sources(row).total_debt).toMatch(/^not reported: no us-gaap debt concept .* interest expense is reported/);
  });

  it('when a total and a line inside it would make the sum, then that is no proof (the line would be counted twice)', () => {
    const row = lastRow(
      balanceSheet(
        { Liabilities: 300, LiabilitiesCurrent: 300, AccountsPayableAndAccruedLiabilitiesCurrent: 200, AccruedLiabilitiesCurrent: 100 },
        interestExpense,
      ),
    );
    expect(row.total_debt).toBeNull();
  });

  it('when the lines add up but the filing reports the fair value of a debt, then it is no proof', () => {
    const row = lastRow(
      balanceSheet({ Liabilities: 300, LiabilitiesCurrent: 300, AccountsPayableCurrent: 300, LongTermDebtFairValue: 80 }, interestExpense),
    );
    expect(row.total_debt).toBeNull();
    expect(sources(row).total_debt).toContain('us-gaap:LongTermDebtFairValue (80), a borrowing');
  });

  it('when National Beverage (2011) tags no liabilities total, then total liabilities and equity less equity is what its lines make up: a proven 0', () => {
    const row = realRowAt('realdata', '0000069891', '2011-09-08');
    expect(row.period_end).toBe('2011-07-30');
    expect(row.total_debt).toBe(0);
    expect(sources(row).total_debt).toContain(
      'us-gaap:DeferredTaxLiabilitiesNoncurrent + us-gaap:OtherLiabilitiesNoncurrent make up total liabilities',
    );
  });

  it('when the balance sheet has no liabilities total, then total liabilities and equity less equity is the total the lines must make', () => {
    const proven = lastRow(
      balanceSheet(
        { LiabilitiesAndStockholdersEquity: 1_000, StockholdersEquity: 800, LiabilitiesCurrent: 200, AccountsPayableCurrent: 200 },
        interestExpense,
      ),
    );
    expect(proven.total_debt).toBe(0);
    const mezzanine = lastRow(
      balanceSheet(
        {
          LiabilitiesAndStockholdersEquity: 1_000,
          StockholdersEquity: 700,
          TemporaryEquityCarryingAmountAttributableToParent: 100,
          LiabilitiesCurrent: 200,
          AccountsPayableCurrent: 200,
        },
        interestExpense,
      ),
    );
    expect(mezzanine.total_debt).toBeNull();
  });

  it('when the lines add up, then debt is a proven 0 even with interest expense in the year', () => {
    const row = lastRow(
      balanceSheet(
        { Liabilities: 300, LiabilitiesCurrent: 200, AccountsPayableCurrent: 200, DeferredIncomeTaxLiabilitiesNet: 100 },
        interestExpense,
      ),
    );
    expect(row.total_debt).toBe(0);
    expect(sources(row).total_debt_estimated).toBeUndefined();
  });
});

describe('EDGAR receivables under other concepts', () => {
  it("when First Hawaiian's 10-Q of 2022-09-30 reports its loans as financing receivables after allowance, then they are its receivables", () => {
    const row = realRowAt('realdata', '0000036377', '2022-11-07');
    expect(row.period_end).toBe('2022-09-30');
    expect(row.accounts_receivable).toBe(13_552_211_000);
    expect(sources(row).accounts_receivable).toBe(
      'us-gaap:FinancingReceivableExcludingAccruedInterestAfterAllowanceForCreditLoss @ 0001558370-22-016633',
    );
  });

  it('when a filer reports receivables under another net line (accounts and notes together, the 2023 credit-loss names), then that line is its receivables', () => {
    for (const concept of [
      'AccountsAndNotesReceivableNet',
      'AccountsReceivableAfterAllowanceForCreditLossCurrent',
      'ContractWithCustomerReceivableAfterAllowanceForCreditLossCurrent',
      'AccountsAndOtherReceivablesNetCurrent',
    ]) {
      const row = lastRow(fictional({ Assets: assets, [concept]: [{ val: 700, end: '2024-09-30', ...Q324 }] }));
      expect(row.accounts_receivable, concept).toBe(700);
      expect(sources(row).accounts_receivable, concept).toBe(`us-gaap:${concept} @ 0009999908-24-000004`);
    }
  });
});

describe('EDGAR interest reported with other income', () => {
  it("when Costco's 10-K of 2010 reports only non-operating investment income, then it is the stated proxy (gains and losses netted in), never interest proper", () => {
    const row = realRowAt('realdata', '0000909832', '2010-10-18');
    expect(row.interest_income).toBe(23_000_000);
    expect(sources(row).interest_income).toBe(
      'us-gaap:InvestmentIncomeNonoperating @ 0001193125-10-230379 ' +
        '(proxy: net non-operating income (interest income not reported apart); fiscal year 2009-08-31..2010-08-29)',
    );
  });

  it('when Costco reports interest and other income in one line and Disney its net investment income, then that line is the figure, said to include other income', () => {
    for (const [cik, concept] of [
      ['0000909832', 'InterestAndOtherIncome'],
      ['0001744489', 'InvestmentIncomeNet'],
    ] as const) {
      const row = realRowAt('realdata', cik, '2024-02-29');
      expect(row.interest_income, cik).toBeGreaterThan(0);
      expect(sources(row).interest_income, cik).toMatch(
        new RegExp(`^us-gaap:${concept} @ .*\\(interest and other income together; TTM = `),
      );
    }
  });
});
