import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fundamentalsFromCompanyFacts } from '../../sources/edgar/companyfacts.ts';
import { createEdgarClient } from '../../sources/edgar/edgar-client.ts';
import { CompanyFactsSchema, CompanyTickersExchangeSchema, SubmissionsSchema, parseEdgarJson } from '../../sources/edgar/edgar-formats.ts';
import { listingsFromCompanyTickers, listingsFromSubmissions } from '../../sources/edgar/submissions.ts';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { ingestSource } from '../../sources/ingest.ts';
import { loadScreeningInputs } from '../../warehouse/screening-inputs.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const folder = path.resolve('test/fixtures/edgar/folder');
const read = (file: string): string => readFileSync(path.join(folder, file), 'utf8');

describe('EDGAR parsers', () => {
  const facts = parseEdgarJson(CompanyFactsSchema, read('companyfacts/CIK0009999901.json'), 'companyfacts');
  const rows = fundamentalsFromCompanyFacts(facts, 'QZQT');

  it('when a companyfacts file has a 10-K and three 10-Qs, then there is one row per filing with its period end and filing date', () => {
    expect(rows.map((r) => [r.period_end, r.filed_on, r.source_ref])).toEqual([
      ['2024-12-31', '2025-02-21', 'edgar:0009999901-25-000004'],
      ['2025-03-31', '2025-05-02', 'edgar:0009999901-25-000011'],
      ['2025-06-30', '2025-08-01', 'edgar:0009999901-25-000019'],
      ['2025-09-30', '2025-10-31', 'edgar:0009999901-25-000027'],
    ]);
  });

  it('when a 10-Q reports year-to-date revenue, then revenue is trailing twelve months: last year + YTD − prior YTD', () => {
    expect(rows.map((r) => r.total_revenue)).toEqual([1_200_000_000, 1_220_000_000, 1_250_000_000, 1_280_000_000]);
    expect(rows[3]!.interest_income).toBe(9_600_000);
  });

  it('when LongTermDebt is absent, then debt falls back to noncurrent + current portions plus short-term borrowings', () => {
    expect(rows.map((r) => r.total_debt)).toEqual([450_000_000, 415_000_000, 460_000_000, 635_000_000]);
  });

  it('when CashAndCashEquivalentsAtCarryingValue is absent, then cash falls back to the restricted-cash total, and shares come from the cover page', () => {
    expect(rows[3]!.cash_and_equivalents).toBe(171_000_000);
    expect(rows.map((r) => r.shares_outstanding)).toEqual([41_200_000, 41_000_000, 40_800_000, 40_500_000]);
  });

  it('when submissions and company_tickers_exchange are read, then SIC, title, exchange MICs and the domicile come through', () => {
    const sub = listingsFromSubmissions(parseEdgarJson(SubmissionsSchema, read('submissions/CIK0009999901.json'), 's'));
    expect(sub).toEqual([
      {
        cik: '0009999901',
        ticker: 'QZQT',
        name: 'FICTIONAL QUARRY TOOLS CORP',
        exchange_mic: 'XNAS',
        sic: '3420',
        sic_description: 'Cutlery, Handtools & General Hardware',
        domicile: 'US',
      },
    ]);
    const tickers = listingsFromCompanyTickers(parseEdgarJson(CompanyTickersExchangeSchema, read('company_tickers_exchange.json'), 't'));
    expect(tickers.map((t) => [t.ticker, t.exchange_mic])).toEqual([
      ['QZQT', 'XNAS'],
      ['QZLV', 'XNYS'],
      ['QZOX', 'OTCM'],
      ['QZNX', null],
    ]);
  });

  it('when a file breaks the published format, then the error names the file and the field', () => {
    const bad = readFileSync(path.resolve('test/fixtures/edgar/bad-companyfacts.json'), 'utf8');
    expect(() => parseEdgarJson(CompanyFactsSchema, bad, 'bad-companyfacts.json')).toThrow(
      /bad-companyfacts.json: not in the EDGAR format: cik/,
    );
    expect(() => parseEdgarJson(CompanyFactsSchema, '{', 'x.json')).toThrow(/x.json: not JSON/);
  });
});

describe('EDGAR client', () => {
  it('when requests are made, then each carries the User-Agent and they are spaced under 10 per second', async () => {
    let clock = 0;
    const seen: Array<{ at: number; agent: string | null }> = [];
    const client = createEdgarClient({
      userAgent: 'Faithscreen Tests ops@example.com',
      maxPerSecond: 10,
      now: () => clock,
      sleep: async (ms) => {
        clock += ms;
      },
      fetch: async (_url, init) => {
        seen.push({ at: clock, agent: new Headers(init?.headers).get('User-Agent') });
        return new Response('{}', { status: 200 });
      },
    });
    for (let i = 0; i < 5; i += 1) await client.getJson('https://data.sec.gov/submissions/CIK0009999901.json');
    expect(seen.every((s) => s.agent === 'Faithscreen Tests ops@example.com')).toBe(true);
    for (let i = 1; i < seen.length; i += 1) expect(seen[i]!.at - seen[i - 1]!.at).toBeGreaterThanOrEqual(100);
    expect(() => createEdgarClient({ userAgent: 'anonymous' })).toThrow(/contact e-mail/);
  });
});

describe('EDGAR source', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    temp = await makeTempDir();
  });
  afterEach(() => temp.cleanup());

  it('when a folder of EDGAR files is ingested, then listings and point-in-time fundamentals reach the screening inputs', async () => {
    const summary = await ingestSource({ dataDir: temp.dir, source: 'edgar', path: folder });
    expect(summary.rows).toMatchObject({ listings: 4, fundamentals: 4, prices: 0 });
    const [input] = await withDuckDB(':memory:', {}, (c) =>
      loadScreeningInputs(c, temp.dir, { date: '2025-08-15', market: 'us', tickers: ['QZQT'] }),
    );
    expect(input!.listing).toMatchObject({ name: 'FICTIONAL QUARRY TOOLS CORP', sic: '3420', exchangeMic: 'XNAS' });
    expect(input!.fundamentals).toMatchObject({ periodEnd: '2025-06-30', sourceRef: 'edgar:0009999901-25-000019', totalDebt: 460_000_000 });
    expect(input!.fundamentals!.figureSources?.total_debt).toBe(
      'us-gaap:ShortTermBorrowings + us-gaap:LongTermDebtNoncurrent @ 0009999901-25-000019',
    );
    expect(input!.synthetic).toBe(false);
  });
});
