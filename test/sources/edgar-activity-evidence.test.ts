/**
 * Business-activity evidence and stock splits read from real companies' SEC companyfacts
 * (test/fixtures/realdata/, PROVENANCE.md there), and the curated list's validation.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { curatedActivities, curatedExposureRows, parseCuratedActivities } from '../../sources/curated/curated-activities.ts';
import { annualReportDates, exposuresFromCompanyFacts } from '../../sources/edgar/activity-concepts.ts';
import { CompanyFactsSchema, type CompanyFacts } from '../../sources/edgar/edgar-formats.ts';
import { splitsFromCompanyFacts } from '../../sources/edgar/split-facts.ts';

const FACTS = path.join(import.meta.dirname, '..', 'fixtures', 'realdata', 'companyfacts');

function facts(cik: number): CompanyFacts {
  const text = gunzipSync(readFileSync(path.join(FACTS, `CIK${String(cik).padStart(10, '0')}.json.gz`))).toString('utf8');
  return CompanyFactsSchema.parse(JSON.parse(text));
}

describe('activity evidence from filing concepts', () => {
  it('when a bank reports deposits, then its operating interest income is conventional finance, as a share of interest plus non-interest income', () => {
    const rows = exposuresFromCompanyFacts(facts(36377)).filter((r) => r.activity === 'conventional_finance');
    const fy2023 = rows.find((r) => r.period_end === '2023-12-31')!;
    // First Hawaiian 2023: Revenues (net of interest expense) 836.9 M < interest income 923.6 M.
    expect(fy2023.revenue_share).toBeGreaterThan(0.75);
    expect(fy2023.revenue_share).toBeLessThanOrEqual(1);
    expect(fy2023.source_ref).toMatch(
      /us-gaap:InterestAndDividendIncomeOperating \/ us-gaap:InterestAndDividendIncomeOperating \+ NoninterestIncome FY2023$/,
    );
    expect(fy2023.evidence).toBe('filing_concept');
  });

  it('when an insurer reports interest and dividend income but no deposits, then it is insurance by its premiums, not a bank', () => {
    const rows = exposuresFromCompanyFacts(facts(64996));
    expect(rows.some((r) => r.activity === 'conventional_finance')).toBe(false);
    const fy2023 = rows.find((r) => r.activity === 'conventional_insurance' && r.period_end === '2023-12-31')!;
    expect(fy2023.revenue_share).toBeGreaterThan(0.8);
    expect(fy2023.source_ref).toContain('us-gaap:PremiumsEarnedNet');
  });

  it("when a casino operator's company-level CasinoRevenue ends in 2018, then its last share is dated the 10-K that filed it", () => {
    const rows = exposuresFromCompanyFacts(facts(1590895)).filter((r) => r.activity === 'gambling');
    const last = rows.at(-1)!;
    expect(last.period_end).toBe('2017-12-31');
    expect(last.as_of).toBe('2018-02-27');
    // 1,228.5 M of casino revenue in 1,473.5 M of revenues.
    expect(last.revenue_share).toBeCloseTo(1228.54 / 1473.504, 3);
  });

  it('when a company reports no activity concept, then no concept row is made', () => {
    expect(exposuresFromCompanyFacts(facts(320193))).toEqual([]);
    expect(exposuresFromCompanyFacts(facts(102037))).toEqual([]);
  });

  it('when listing annual reports, then every 10-K filing date is found even where Assets stops being tagged', () => {
    const dates = annualReportDates(facts(1385280));
    expect(dates.at(-1)! >= '2026-01-01').toBe(true);
    expect(dates).toContain('2024-02-16');
  });
});

describe('splits from filings', () => {
  it('when a split is tagged again in later filings, then it is one split; Apple has two (7-for-1 in 2014, 4-for-1 in 2020)', () => {
    expect(splitsFromCompanyFacts(facts(320193)).map((s) => [s.ex_date, s.ratio])).toEqual([
      ['2014-06-06', 7],
      ['2020-08-28', 4],
    ]);
  });

  it("when filings disagree on a split's date by weeks, then the latest filing's date is kept (NVIDIA 2021 and 2024)", () => {
    const splits = splitsFromCompanyFacts(facts(1045810));
    expect(splits.map((s) => [s.ex_date, s.ratio])).toEqual([
      ['2021-07-19', 4],
      ['2024-06-30', 10],
    ]);
    expect(splits[0]!.source_ref).toMatch(/^edgar:0001045810-22-000079 us-gaap:StockholdersEquityNoteStockSplitConversionRatio1$/);
  });

  it('when a company never split, then there are none', () => {
    expect(splitsFromCompanyFacts(facts(36377))).toEqual([]);
  });
});

describe('the curated list', () => {
  it('when the repository list is read, then every entry is cited and the leaf-tobacco merchant is classed tobacco', () => {
    const entries = curatedActivities();
    expect(entries.find((e) => e.ticker === 'UVV' && e.activity === 'tobacco')?.revenue_share).toBeGreaterThan(0.5);
    for (const e of entries) expect(e.citation.length).toBeGreaterThan(10);
  });

  it('when rows are made for a company, then each entry holds on its first day and on every annual report after it', () => {
    const rows = curatedExposureRows(102037, ['2008-06-01', '2023-05-25', '2024-05-29']);
    const tobacco = rows.filter((r) => r.activity === 'tobacco').map((r) => r.as_of);
    expect(tobacco).toEqual(['2009-01-01', '2023-05-25', '2024-05-29']);
    expect(rows.every((r) => r.evidence === 'curated' && r.source_ref.startsWith('curated: '))).toBe(true);
  });

  it('when an entry is malformed, then reading the list fails naming the entry and what is wrong', () => {
    const entry = {
      cik: 1,
      ticker: 'X',
      activity: 'tobacco',
      revenue_share: 0.5,
      from: '2020-01-01',
      basis: 'a basis text',
      citation: 'a citation text',
    };
    const list = (e: object) => JSON.stringify({ about: 'test', entries: [entry, e] });
    expect(() => parseCuratedActivities(list({ ...entry, activity: 'smoking' }), 'list.json')).toThrow(/list\.json: entries\.1\.activity/);
    expect(() => parseCuratedActivities(list({ ...entry, revenue_share: 1.5 }), 'list.json')).toThrow(/entries\.1\.revenue_share/);
    expect(() => parseCuratedActivities(list({ ...entry, citation: '' }), 'list.json')).toThrow(/entries\.1\.citation/);
    expect(() => parseCuratedActivities(list({ ...entry, activity: 'none' }), 'list.json')).toThrow(
      /X 'none' entry must have revenue_share 0/,
    );
    expect(() => parseCuratedActivities(list({ ...entry, from: '2020-1-1' }), 'list.json')).toThrow(/entries\.1\.from/);
  });
});
