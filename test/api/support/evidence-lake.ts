/**
 * Crafted companies as a vendor would deliver them: one feed delivery (listings, fundamentals,
 * month-end prices, exposures) written to a temp folder, ingested through the feed source,
 * screened on one date by the pipelines' chunk work, and served by the API with a partner key
 * for every framework. Every company is fictional; each is clean (healthy ratios, a fresh
 * filing, a price on the screening date) except for what its case changes.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { createLakePipelineData } from '../../../activities/lake-pipeline-data.ts';
import { screenChunkWork } from '../../../activities/screen-chunk.ts';
import { FRAMEWORK_IDS } from '../../../engine/index.ts';
import { ingestSource } from '../../../sources/ingest.ts';
import { keyFor, openTestAccess } from '../../support/access.ts';
import { listen } from '../../support/http.ts';
import { makeTempDir } from '../../support/temp-dir.ts';
import { createTestApi } from './lake-fixture.ts';

// Response bodies are read as loosely typed JSON: the assertions check their shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON under test
export type Json = Record<string, any>;

export interface CraftedExposure {
  asOf: string;
  activity: string;
  share: number;
  involvement?: 'producer' | 'distributor' | 'retailer' | 'ancillary';
  /** What the figure rests on (default `reported`: a vendor's own figure, which covers the company). */
  evidence?: 'reported' | 'filing_concept';
}

export interface CraftedCompany {
  market?: 'us' | 'il';
  ticker: string;
  name: string;
  /** Empty when the vendor has no SIC code. */
  sic: string;
  /** Country of incorporation, in the listings' `domicile` column (empty when not given). */
  domicile?: string;
  exposures?: CraftedExposure[];
  /** Cash and equivalents (listing currency; default 200M of a 5B market cap). */
  cash?: number;
  /** The last month-end close is at this month (`YYYY-MM`), and the last price on `lastPriceOn`. */
  pricesEndMonth?: string;
  lastPriceOn?: string;
}

/** Close and share count of every company: a 5B market cap in the listing currency. */
const CLOSE = 50;
const SHARES = 100_000_000;

const LISTINGS = 'market,ticker,name,exchange_mic,kind,currency,sic,domicile';
const FUNDAMENTALS =
  'market,ticker,period_end,filed_on,source_ref,currency,total_assets,total_debt,cash_and_equivalents,interest_bearing_investments,' +
  'accounts_receivable,total_revenue,interest_income,shares_outstanding,dividends_per_share';
const PRICES = 'market,ticker,date,close,currency';
const EXPOSURES = 'market,ticker,as_of,activity,revenue_share,source_ref,evidence,involvement';

const MARKET_OF = { us: { mic: 'XNAS', currency: 'USD' }, il: { mic: 'XTAE', currency: 'ILS' } } as const;

/** The last weekday of a month, `YYYY-MM-DD`. */
function lastWeekday(year: number, month: number): string {
  const d = new Date(Date.UTC(year, month, 0));
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

/** Month-end closes for the 40 months up to `endMonth` (`YYYY-MM`), the last one on `lastOn` when given. */
function monthEnds(endMonth: string, lastOn?: string): string[] {
  const [year, month] = endMonth.split('-').map(Number) as [number, number];
  const dates: string[] = [];
  for (let back = 39; back >= 0; back -= 1) {
    const index = year * 12 + (month - 1) - back;
    dates.push(lastWeekday(Math.floor(index / 12), (index % 12) + 1));
  }
  if (lastOn !== undefined) dates.push(lastOn);
  return dates;
}

function rowsOf(c: CraftedCompany, screenDate: string): { listing: string; fundamentals: string[]; prices: string[]; exposures: string[] } {
  const market = c.market ?? 'us';
  const { mic, currency } = MARKET_OF[market];
  const cash = c.cash ?? 200_000_000;
  const figures = [4_000_000_000, 200_000_000, cash, 0, 200_000_000, 2_000_000_000, 2_000_000, SHARES, 0.5];
  // A filing each year for four years: every month-end close has a share count in force (a market cap).
  const year = Number(screenDate.slice(0, 4));
  const filings = [3, 2, 1, 0].map((back) => [
    `${year - back - 1}-12-31`,
    `${year - back}-02-20`,
    `vendor:${c.ticker}:FY${year - back - 1}`,
  ]);
  filings.push([`${year}-03-31`, `${year}-05-09`, `vendor:${c.ticker}:Q1-${year}`]);
  return {
    listing: [market, c.ticker, c.name, mic, 'stock', currency, c.sic, c.domicile ?? ''].join(','),
    fundamentals: filings.map((filing) => [market, c.ticker, ...filing, currency, ...figures].join(',')),
    prices: monthEnds(c.pricesEndMonth ?? screenDate.slice(0, 7), c.lastPriceOn).map((d) =>
      [market, c.ticker, d, CLOSE, currency].join(','),
    ),
    exposures: (c.exposures ?? []).map((e) =>
      [
        market,
        c.ticker,
        e.asOf,
        e.activity,
        e.share,
        `${e.evidence === 'filing_concept' ? 'edgar' : 'vendor'}:${c.ticker}:${e.activity}:${e.asOf}`,
        e.evidence ?? 'reported',
        e.involvement ?? '',
      ].join(','),
    ),
  };
}

/** Writes the companies as one feed delivery folder and returns it. */
export async function writeDelivery(folder: string, companies: readonly CraftedCompany[], screenDate: string): Promise<string> {
  await mkdir(folder, { recursive: true });
  const rows = companies.map((c) => rowsOf(c, screenDate));
  const file = (name: string, header: string, lines: string[]) => writeFile(path.join(folder, name), [header, ...lines].join('\n') + '\n');
  await file(
    'listings.csv',
    LISTINGS,
    rows.map((r) => r.listing),
  );
  await file(
    'fundamentals.csv',
    FUNDAMENTALS,
    rows.flatMap((r) => r.fundamentals),
  );
  await file(
    'prices.csv',
    PRICES,
    rows.flatMap((r) => r.prices),
  );
  await file(
    'exposures.csv',
    EXPOSURES,
    rows.flatMap((r) => r.exposures),
  );
  return folder;
}

export interface ServedEvidenceLake {
  /** The `as_of` answer with reasons for a ticker on the screening date; asserts 200. */
  verdicts(market: string, ticker: string): Promise<Json>;
  /** The full screen report (consensus components included) of the latest snapshot; asserts 200. */
  report(market: string, ticker: string): Promise<Json>;
  close(): Promise<void>;
}

/** Ingests the companies as a feed delivery, screens them on `date` and serves them over real HTTP. */
export async function serveEvidenceLake(companies: readonly CraftedCompany[], date: string): Promise<ServedEvidenceLake> {
  const temp = await makeTempDir('faithscreen-evidence-');
  const folder = await writeDelivery(path.join(temp.dir, 'deliveries', 'evidence-table'), companies, date);
  await ingestSource({ dataDir: temp.dir, source: 'feed', path: folder });
  const data = createLakePipelineData(temp.dir);
  for (const market of new Set(companies.map((c) => c.market ?? 'us'))) {
    const chunk = { index: 0, market, offset: 0, limit: 1_000 };
    await screenChunkWork(
      { dataDir: temp.dir, data },
      { runId: `evidence-${date}`, source: 'refresh', chunk, dates: [date] },
      () => undefined,
    );
  }
  const access = await openTestAccess(temp.dir);
  const key = (await keyFor(access, 'partner', { dailyLimit: 100_000, frameworks: [...FRAMEWORK_IDS] })).key;
  const api = await createTestApi(temp.dir, undefined, access.middleware);
  const server = await listen(api.app);
  const served = new Map<string, Json>();
  return {
    async verdicts(market, ticker) {
      const seen = served.get(`${market}/${ticker}`);
      if (seen) return seen;
      const response = await fetch(`${server.url}/api/screen/${market}/${ticker}?as_of=${date}&reasons=true`, {
        headers: { 'X-API-Key': key },
      });
      const body = (await response.json()) as Json;
      expect(response.status, JSON.stringify(body).slice(0, 300)).toBe(200);
      expect(body.provenance).toMatchObject({ data_source: 'feed', synthetic: false });
      served.set(`${market}/${ticker}`, body);
      return body;
    },
    async report(market, ticker) {
      // The snapshot is older than the cache window and no re-screen can run: the stored report is served, marked stale.
      const response = await fetch(`${server.url}/api/screen/${market}/${ticker}`, { headers: { 'X-API-Key': key } });
      const body = (await response.json()) as Json;
      expect(response.status, JSON.stringify(body).slice(0, 300)).toBe(200);
      return body.report as Json;
    },
    async close() {
      await server.close();
      await api.reads.close();
      await api.forensic.close();
      await api.purification.close();
      await access.close();
      await temp.cleanup();
    },
  };
}
