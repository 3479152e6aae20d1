import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { SourceAdapter, SourceChunk, SourceTable, StageTarget } from '../source.ts';
import { stageJsRows, type StagedValue } from '../stage-rows.ts';
import { fundamentalsFromCompanyFacts } from './companyfacts.ts';
import { CompanyFactsSchema, CompanyTickersExchangeSchema, SubmissionsSchema, paddedCik, parseEdgarJson } from './edgar-formats.ts';
import { listingsFromCompanyTickers, listingsFromSubmissions, type EdgarListing } from './submissions.ts';

async function readOptional(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return null;
  }
}

/**
 * US listings and fundamentals from EDGAR files saved in a folder (as fetched with
 * `createEdgarClient`): `company_tickers_exchange.json`, `submissions/CIK##########.json`,
 * `companyfacts/CIK##########.json`. EDGAR has no prices, activity exposures or fund holdings:
 * pair it with a feed for those. One chunk, `edgar-us`.
 */
export function createEdgarSource(folder: string): SourceAdapter {
  let listings: EdgarListing[] = [];
  const fundamentals: Array<Record<string, StagedValue>> = [];

  async function load(): Promise<void> {
    const tickersText = await readOptional(path.join(folder, 'company_tickers_exchange.json'));
    const byTicker = new Map<string, EdgarListing>();
    if (tickersText) for (const l of listingsFromCompanyTickers(parseEdgarJson(CompanyTickersExchangeSchema, tickersText, 'company_tickers_exchange.json'))) byTicker.set(l.ticker, l);
    const submissionFiles = (await readdir(path.join(folder, 'submissions')).catch(() => [] as string[])).filter((f) => /^CIK\d{10}\.json$/.test(f));
    for (const name of submissionFiles.sort()) {
      const parsed = parseEdgarJson(SubmissionsSchema, await readFile(path.join(folder, 'submissions', name), 'utf8'), `submissions/${name}`);
      for (const l of listingsFromSubmissions(parsed)) byTicker.set(l.ticker, { ...byTicker.get(l.ticker), ...l, exchange_mic: l.exchange_mic ?? byTicker.get(l.ticker)?.exchange_mic ?? null });
    }
    listings = [...byTicker.values()].sort((a, b) => a.ticker.localeCompare(b.ticker));
    const tickerOfCik = new Map<string, string>();
    for (const l of listings) if (!tickerOfCik.has(l.cik)) tickerOfCik.set(l.cik, l.ticker);
    const factFiles = (await readdir(path.join(folder, 'companyfacts')).catch(() => [] as string[])).filter((f) => /^CIK\d{10}\.json$/.test(f));
    for (const name of factFiles.sort()) {
      const facts = parseEdgarJson(CompanyFactsSchema, await readFile(path.join(folder, 'companyfacts', name), 'utf8'), `companyfacts/${name}`);
      const ticker = tickerOfCik.get(paddedCik(facts.cik));
      if (ticker) fundamentals.push(...fundamentalsFromCompanyFacts(facts, ticker));
    }
  }

  const rowsOf = (table: SourceTable): Array<Record<string, StagedValue>> => {
    if (table === 'fundamentals') return fundamentals.map((row) => ({ ...row, data_source: 'edgar', synthetic: false }));
    if (table !== 'listings') return [];
    return listings.map((l) => ({
      ticker: l.ticker,
      name: l.name,
      exchange_mic: l.exchange_mic,
      kind: 'stock',
      currency: 'USD',
      sic: l.sic,
      sic_description: l.sic_description,
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
