import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fundamentalsFromCompanyFacts } from '../../sources/edgar/companyfacts.ts';
import { CompanyFactsSchema, parseEdgarJson } from '../../sources/edgar/edgar-formats.ts';

/** A 10-K of a fictional company in the companyfacts format, with only the facts a test names. */
function tenK(facts: Record<string, Array<{ val: number; start?: string; end?: string }>>) {
  const base = { accn: '0009999902-26-000001', fy: 2025, fp: 'FY', form: '10-K', filed: '2026-02-20' };
  const usGaap = Object.fromEntries(
    Object.entries({ Assets: [{ val: 5_000 }], ...facts }).map(([concept, values]) => [
      concept,
      { label: concept, units: { USD: values.map((v) => ({ ...base, end: '2025-12-31', ...v })) } },
    ]),
  );
  return parseEdgarJson(
    CompanyFactsSchema,
    JSON.stringify({ cik: 9999902, entityName: 'FICTIONAL TEST WORKS', facts: { 'us-gaap': usGaap } }),
    'companyfacts',
  );
}

const year = { start: '2025-01-01', end: '2025-12-31' };

describe('EDGAR concepts for the forensic inputs', () => {
  it('when the recorded fixture reports LongTermDebtNoncurrent, then long_term_debt is that non-current amount and unreported inputs stay null', () => {
    const facts = parseEdgarJson(
      CompanyFactsSchema,
      readFileSync(path.resolve('test/fixtures/edgar/folder/companyfacts/CIK0009999901.json'), 'utf8'),
      'companyfacts',
    );
    const rows = fundamentalsFromCompanyFacts(facts, 'QZQT');
    expect(rows.map((r) => r.long_term_debt)).toEqual([420_000_000, 415_000_000, 410_000_000, 610_000_000]);
    expect(rows.map((r) => [r.ppe_net, r.depreciation, r.sga_expense, r.long_term_investments])).toEqual(
      rows.map(() => [null, null, null, null]),
    );
  });

  it('when a 10-K reports PP&E, securities, D&A and SG&A, then they map to ppe_net, long_term_investments, depreciation and sga_expense', () => {
    const [row] = fundamentalsFromCompanyFacts(
      tenK({
        PropertyPlantAndEquipmentNet: [{ val: 1_200 }],
        LongTermInvestments: [{ val: 300 }],
        DepreciationDepletionAndAmortization: [{ val: 150, ...year }],
        SellingGeneralAndAdministrativeExpense: [{ val: 640, ...year }],
      }),
      'QZFT',
    );
    expect(row).toMatchObject({ ppe_net: 1_200, long_term_investments: 300, depreciation: 150, sga_expense: 640 });
  });

  it('when SG&A is reported as G&A and selling expense apart, then sga_expense is their sum; depreciation falls back to DepreciationAndAmortization', () => {
    const [row] = fundamentalsFromCompanyFacts(
      tenK({
        GeneralAndAdministrativeExpense: [{ val: 400, ...year }],
        SellingAndMarketingExpense: [{ val: 250, ...year }],
        DepreciationAndAmortization: [{ val: 90, ...year }],
        MarketableSecuritiesNoncurrent: [{ val: 75 }],
      }),
      'QZFT',
    );
    expect(row).toMatchObject({ sga_expense: 650, depreciation: 90, long_term_investments: 75 });
  });
});
