import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { curatedExposureRows } from '../curated/curated-activities.ts';
import { annualReportDates, exposuresFromCompanyFacts } from './activity-concepts.ts';
import { splitsFromCompanyFacts } from './split-facts.ts';
import type { SourceAdapter, SourceChunk, SourceTable, StageTarget } from '../../warehouse/source-contract.ts';
import { stageJsRows, type StagedValue } from '../stage-rows.ts';
import { fundamentalsFromCompanyFacts } from './companyfacts.ts';
import { CompanyFactsSchema, CompanyTickersExchangeSchema, SubmissionsSchema, paddedCik, parseEdgarJson } from './edgar-formats.ts';
import { listingsFromCompanyTickers, listingsFromSubmissions, type EdgarListing } from './submissions.ts';
import { instanceExposureRows } from './xbrl-evidence.ts';

/** A saved EDGAR file, as `name` or gzip-compressed as `name.gz`; null when neither exists. */
async function readOptional(file: string): Promise<string | null> {
  for (const [candidate, gzipped] of [
    [file, false],
    [`${file}.gz`, true],
  ] as const) {
    try {
      const bytes = await readFile(candidate);
      return gzipped ? gunzipSync(bytes).toString('utf8') : bytes.toString('utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`${candidate}: cannot be read: ${(error as Error).message}`);
    }
  }
  return null;
}

/** `CIK##########.json` files of a folder (plain or `.json.gz`), by their plain name. */
async function cikFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return [...new Set(names.filter((f) => /^CIK\d{10}\.json(\.gz)?$/.test(f)).map((f) => f.replace(/\.gz$/, '')))].sort();
}

/**
 * US listings, fundamentals, business-activity evidence and stock splits from EDGAR files saved
 * in a folder (as `faithscreen fetch edgar` writes them, plain or gzip-compressed):
 * `company_tickers_exchange.json`, `submissions/CIK##########.json`,
 * `companyfacts/CIK##########.json`, `xbrl/CIK##########/<accession>.xml`. Exposures come from
 * revenue concepts that name an activity, from the revenue members of the XBRL instances (with
 * the filing's revenue accounting) and from the curated list (docs/data/real-companies.md).
 * EDGAR has no prices or fund holdings: pair it with a feed for those. One chunk, `edgar-us`.
 */
export function createEdgarSource(folder: string): SourceAdapter {
  let listings: EdgarListing[] = [];
  const fundamentals: Array<Record<string, StagedValue>> = [];
  const exposures: Array<Record<string, StagedValue>> = [];
  const splits: Array<Record<string, StagedValue>> = [];

  async function load(): Promise<void> {
    // Filing date per accession, per CIK: the XBRL instances' evidence is dated by it.
    const filedOn = new Map<string, Map<string, string>>();
    const tickersText = await readOptional(path.join(folder, 'company_tickers_exchange.json'));
    const byTicker = new Map<string, EdgarListing>();
    if (tickersText)
      for (const l of listingsFromCompanyTickers(
        parseEdgarJson(CompanyTickersExchangeSchema, tickersText, 'company_tickers_exchange.json'),
      ))
        byTicker.set(l.ticker, l);
    for (const name of await cikFiles(path.join(folder, 'submissions'))) {
      const parsed = parseEdgarJson(
        SubmissionsSchema,
        (await readOptional(path.join(folder, 'submissions', name)))!,
        `submissions/${name}`,
      );
      const recent = parsed.filings.recent;
      filedOn.set(paddedCik(parsed.cik), new Map(recent.accessionNumber.map((a, i) => [a, recent.filingDate[i] ?? ''])));
      for (const l of listingsFromSubmissions(parsed))
        byTicker.set(l.ticker, {
          ...byTicker.get(l.ticker),
          ...l,
          exchange_mic: l.exchange_mic ?? byTicker.get(l.ticker)?.exchange_mic ?? null,
        });
    }
    listings = [...byTicker.values()].sort((a, b) => a.ticker.localeCompare(b.ticker));
    // A company with several share classes lists a ticker per class; its filings count the
    // company as a whole, so every class gets the company's rows (docs/data/real-companies.md).
    const tickersOfCik = new Map<string, string[]>();
    for (const l of listings) tickersOfCik.set(l.cik, [...(tickersOfCik.get(l.cik) ?? []), l.ticker]);
    for (const name of await cikFiles(path.join(folder, 'companyfacts'))) {
      const facts = parseEdgarJson(
        CompanyFactsSchema,
        (await readOptional(path.join(folder, 'companyfacts', name)))!,
        `companyfacts/${name}`,
      );
      const tickers = tickersOfCik.get(paddedCik(facts.cik)) ?? [];
      if (tickers.length === 0) continue;
      const company = fundamentalsFromCompanyFacts(facts, tickers[0]!);
      const evidence = [
        ...exposuresFromCompanyFacts(facts).map((e) => ({
          as_of: e.as_of,
          activity: e.activity,
          revenue_share: e.revenue_share,
          source_ref: e.source_ref,
          evidence: e.evidence,
          involvement: e.involvement,
        })),
        ...curatedExposureRows(facts.cik, annualReportDates(facts)),
      ];
      const companySplits = splitsFromCompanyFacts(facts);
      for (const ticker of tickers) {
        fundamentals.push(...company.map((row) => ({ ...row, ticker })));
        for (const e of evidence) exposures.push({ ticker, ...e });
        for (const split of companySplits) splits.push({ ticker, ...split });
      }
    }
    // Only the companies with a folder of instances (a market-wide tickers list names thousands).
    const withInstances = new Set((await readdir(path.join(folder, 'xbrl')).catch(() => [] as string[])).map((n) => n.replace(/^CIK/, '')));
    for (const [cik, tickers] of tickersOfCik) {
      if (!withInstances.has(cik)) continue;
      const rows = await instanceExposureRows(folder, cik, filedOn.get(cik) ?? new Map<string, string>());
      for (const ticker of tickers) for (const row of rows) exposures.push({ ticker, ...row });
    }
  }

  const rowsOf = (table: SourceTable): Array<Record<string, StagedValue>> => {
    const provenance = { data_source: 'edgar', synthetic: false };
    if (table === 'fundamentals') return fundamentals.map((row) => ({ ...row, ...provenance }));
    if (table === 'exposures') return exposures.map((row) => ({ ...row, ...provenance }));
    if (table === 'splits') return splits.map((row) => ({ ...row, ...provenance }));
    if (table !== 'listings') return [];
    return listings.map((l) => ({
      ticker: l.ticker,
      name: l.name,
      exchange_mic: l.exchange_mic,
      kind: 'stock',
      currency: 'USD',
      sic: l.sic,
      sic_description: l.sic_description,
      domicile: l.domicile,
      source_ref: `edgar:CIK${l.cik}`,
      data_source: 'edgar',
      synthetic: false,
    }));
  };
  const stage = (table: SourceTable) => (_chunk: SourceChunk, target: StageTarget) => stageJsRows(target, table, 'us', rowsOf(table));

  return {
    name: 'edgar',
    synthetic: false,
    async chunks(_connection, markets) {
      if (markets && !markets.includes('us')) return [];
      await load();
      return [{ id: 'us', markets: ['us'], tickers: listings.length }];
    },
    listings: stage('listings'),
    fundamentals: stage('fundamentals'),
    prices: stage('prices'),
    exposures: stage('exposures'),
    fundHoldings: stage('fund_holdings'),
    splits: stage('splits'),
  };
}
