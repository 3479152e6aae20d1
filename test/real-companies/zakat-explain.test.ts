/**
 * Zakat and the explanation of a disagreement for real companies (test/fixtures/realdata), worked
 * by hand from the filings' figures and the recorded closes and compared with the API over real
 * HTTP: the lake is loaded through the real CLI and screened as of 2024-02-29 by the pipelines'
 * chunk work, as in real-companies.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainResponseSchema } from '../../api/schemas/explain.ts';
import { zakatResponseSchema } from '../../api/schemas/zakat.ts';
import { FRAMEWORK_IDS } from '../../engine/index.ts';
import { createTestApi, type TestApi } from '../api/support/lake-fixture.ts';
import { keyFor, openTestAccess } from '../support/access.ts';
import { listen } from '../support/http.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { ingestRealCompanies, screenUsOn } from './support/real-lake.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON under test
type Json = Record<string, any>;

const DATE = '2024-02-29';

interface Figure {
  concept: string;
  value: number;
}

interface RealFiling {
  ticker: string;
  accession: string;
  periodEnd: string;
  filedOn: string;
  closeOnDate: number;
  cash: Figure;
  receivables: Figure;
  inventory: Figure;
  currentLiabilities: Figure;
  shares: Figure;
  securities: readonly Figure[];
  totalAssets: Figure;
}

const NVIDIA_10K: RealFiling = {
  ticker: 'NVDA',
  accession: '0001045810-24-000029',
  periodEnd: '2024-01-28',
  filedOn: '2024-02-21',
  closeOnDate: 791.119995,
  cash: { concept: 'us-gaap:CashAndCashEquivalentsAtCarryingValue', value: 7_280_000_000 },
  receivables: { concept: 'us-gaap:AccountsReceivableNetCurrent', value: 9_999_000_000 },
  inventory: { concept: 'us-gaap:InventoryNet', value: 5_282_000_000 },
  currentLiabilities: { concept: 'us-gaap:LiabilitiesCurrent', value: 10_631_000_000 },
  shares: { concept: 'dei:EntityCommonStockSharesOutstanding', value: 2_500_000_000 },
  securities: [{ concept: 'us-gaap:MarketableSecuritiesCurrent', value: 18_704_000_000 }],
  totalAssets: { concept: 'us-gaap:Assets', value: 65_728_000_000 },
};

const APPLE_10Q: RealFiling = {
  ticker: 'AAPL',
  accession: '0000320193-24-000006',
  periodEnd: '2023-12-30',
  filedOn: '2024-02-02',
  closeOnDate: 180.75,
  cash: { concept: 'us-gaap:CashAndCashEquivalentsAtCarryingValue', value: 40_760_000_000 },
  receivables: { concept: 'us-gaap:AccountsReceivableNetCurrent', value: 23_194_000_000 },
  inventory: { concept: 'us-gaap:InventoryNet', value: 6_511_000_000 },
  currentLiabilities: { concept: 'us-gaap:LiabilitiesCurrent', value: 133_973_000_000 },
  shares: { concept: 'dei:EntityCommonStockSharesOutstanding', value: 15_441_881_000 },
  securities: [
    { concept: 'us-gaap:MarketableSecuritiesCurrent', value: 32_340_000_000 },
    { concept: 'us-gaap:MarketableSecuritiesNoncurrent', value: 99_475_000_000 },
  ],
  totalAssets: { concept: 'us-gaap:Assets', value: 353_514_000_000 },
};

const NVIDIA_ZAKAT_BY_HAND = {
  netZakatableAssets: 7_280_000_000 + 9_999_000_000 + 5_282_000_000 - 10_631_000_000,
  perShare: 11_930_000_000 / 2_500_000_000,
  lunarOn100Shares: 11.93,
  solarOn100Shares: 12.3,
};

const COSTCO_ZAKAT_BY_HAND = {
  accession: '0000909832-23-000065',
  receivablesConcept: 'us-gaap:ReceivablesNetCurrent',
  netZakatableAssets: 17_011_000_000 + 2_542_000_000 + 18_001_000_000 - 36_768_000_000,
  perShareTo6: 1.771354,
  lunarOn100Shares: 4.43,
};

describe('zakat and disagreements of real companies as of 2024-02-29, worked by hand', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let access: Awaited<ReturnType<typeof openTestAccess>>;
  let api: TestApi;
  let server: { url: string; close: () => Promise<void> };
  let key: string;

  const get = async (path: string): Promise<Json> => {
    const response = await fetch(`${server.url}${path}`, { headers: { 'X-API-Key': key } });
    const body = (await response.json()) as Json;
    expect(response.status, JSON.stringify(body).slice(0, 300)).toBe(200);
    return body;
  };

  beforeAll(async () => {
    temp = await makeTempDir();
    await ingestRealCompanies(temp.dir);
    await screenUsOn(temp.dir, DATE);
    access = await openTestAccess(temp.dir);
    key = (await keyFor(access, 'partner', { dailyLimit: 100_000, frameworks: [...FRAMEWORK_IDS] })).key;
    api = await createTestApi(temp.dir, undefined, access.middleware);
    server = await listen(api.app);
  }, 300_000);
  afterAll(async () => {
    await server?.close();
    await api?.reads.close();
    await api?.forensic.close();
    await api?.purification.close();
    await access?.close();
    await temp?.cleanup();
  });

  it("when 100 NVIDIA shares are held for the long term, then zakat is 2.5% of their share of its 10-K's cash, receivables and inventory less current liabilities", async () => {
    const f = NVIDIA_10K;
    const body = await get(`/api/zakat/us/NVDA?shares=100&as_of=${DATE}`);
    expect(zakatResponseSchema.safeParse(body).error?.issues ?? []).toEqual([]);
    expect(body).toMatchObject({
      status: 'computed',
      net_zakatable_assets: NVIDIA_ZAKAT_BY_HAND.netZakatableAssets,
      zakatable_assets_per_share: NVIDIA_ZAKAT_BY_HAND.perShare,
      zakat_base: 477.2,
      zakat_due: NVIDIA_ZAKAT_BY_HAND.lunarOn100Shares,
      filing: { source_ref: `edgar:${f.accession}`, period_end: f.periodEnd, filed_on: f.filedOn, splits_since_filing: 1 },
      holding: { shares: 100, price: { date: DATE, close: f.closeOnDate } },
      provenance: { data_sources: ['edgar', 'feed'], synthetic: false },
    });
    expect(body.figures.map((x: Json) => [x.name, x.value, x.source.replace(/ \(as of .*\)$/, '')])).toEqual([
      ['cash_and_equivalents', f.cash.value, `${f.cash.concept} @ ${f.accession}`],
      ['accounts_receivable', f.receivables.value, `${f.receivables.concept} @ ${f.accession}`],
      ['inventory', f.inventory.value, `${f.inventory.concept} @ ${f.accession}`],
      ['current_liabilities', f.currentLiabilities.value, `${f.currentLiabilities.concept} @ ${f.accession}`],
      ['shares_outstanding', f.shares.value, `${f.shares.concept} @ ${f.accession}`],
    ]);
    const solar = await get(`/api/zakat/us/NVDA?shares=100&as_of=${DATE}&year=solar`);
    expect(solar.zakat_due).toBe(NVIDIA_ZAKAT_BY_HAND.solarOn100Shares);
    const trading = await get(`/api/zakat/us/NVDA?shares=100&as_of=${DATE}&method=trading`);
    expect(trading).toMatchObject({ zakat_base: 79112, zakat_due: 1977.8 });
  });

  it("when Apple's current liabilities exceed its cash, receivables and inventory, then no zakat is due on its assets, and Costco's is worked from its 10-Q", async () => {
    const f = APPLE_10Q;
    const apple = await get(`/api/zakat/us/AAPL?shares=100&as_of=${DATE}`);
    expect(apple).toMatchObject({
      status: 'computed',
      net_zakatable_assets: f.cash.value + f.receivables.value + f.inventory.value - f.currentLiabilities.value,
      zakatable_assets_per_share: 0,
      zakat_due: 0,
      filing: { source_ref: `edgar:${f.accession}` },
    });
    expect(apple.net_zakatable_assets).toBe(-63_508_000_000);
    expect(apple.notes).toEqual([expect.stringMatching(/current liabilities exceed cash, receivables and inventory/)]);
    const costco = await get(`/api/zakat/us/COST?shares=100&as_of=${DATE}`);
    expect(costco).toMatchObject({
      net_zakatable_assets: COSTCO_ZAKAT_BY_HAND.netZakatableAssets,
      zakatable_assets_per_share: COSTCO_ZAKAT_BY_HAND.perShareTo6,
      zakat_due: COSTCO_ZAKAT_BY_HAND.lunarOn100Shares,
      filing: { source_ref: `edgar:${COSTCO_ZAKAT_BY_HAND.accession}` },
    });
    expect(costco.figures[1].source).toBe(`${COSTCO_ZAKAT_BY_HAND.receivablesConcept} @ ${COSTCO_ZAKAT_BY_HAND.accession}`);
  });

  it.each([
    ['NVIDIA', NVIDIA_10K, '1.3%', '39.5%'],
    ['Apple', APPLE_10Q, '6.2%', '48.8%'],
  ] as const)(
    'when AAOIFI passes %s and FTSE fails it, then the denominator decides: cash and securities over market value against over total assets, as worked by hand',
    async (_company, f, spotWords, assetsWords) => {
      const body = await get(`/api/screen/us/${f.ticker}/explain?as_of=${DATE}`);
      expect(explainResponseSchema.safeParse(body).error?.issues ?? []).toEqual([]);
      expect(body).toMatchObject({ snapshot_date: DATE, reasons_kept: 'all', provenance: { synthetic: false } });
      const cashAndSecurities = f.cash.value + f.securities.reduce((sum, s) => sum + s.value, 0);
      const marketCap = f.closeOnDate * f.shares.value;
      const toMarketCap = cashAndSecurities / marketCap;
      const toAssets = cashAndSecurities / f.totalAssets.value;
      const pair = (body.disagreements as Json[]).find((p) => p.frameworks.join() === 'shariah_aaoifi,shariah_ftse');
      expect(pair).toMatchObject({ statuses: ['compliant', 'non_compliant'], agree: false });
      expect(pair!.checks).toHaveLength(1);
      const check = pair!.checks[0] as Json;
      expect(check).toMatchObject({ topic: 'cash', differences: ['denominator', 'threshold'] });
      expect(check.sides[0].check.value).toBeCloseTo(toMarketCap, 12);
      expect(check.sides[1].check.value).toBeCloseTo(toAssets, 12);
      expect(check.sides[0].check).toMatchObject({ threshold: 0.3, operator: '<=', window: 'spot', result: 'pass' });
      expect(check.sides[1].check).toMatchObject({ threshold: 0.33333, operator: '<', result: 'fail', filing_ref: `edgar:${f.accession}` });
      expect(check.sides[1].check.margin).toBeCloseTo(0.33333 - toAssets, 12);
      expect(check.explanation).toBe(
        `AAOIFI divides cash and interest-bearing securities by today's market value: ${spotWords} < 30%, passes; ` +
          `FTSE divides cash and interest-bearing securities by total assets: ${assetsWords} > 33.333%, fails.`,
      );
      expect(`${(toMarketCap * 100).toFixed(1)}%`).toBe(spotWords);
      expect(`${(toAssets * 100).toFixed(1)}%`).toBe(assetsWords);
      const djim = (body.disagreements as Json[]).find((p) => p.frameworks.join() === 'shariah_djim,shariah_ftse');
      expect(djim!.checks[0]).toMatchObject({ topic: 'cash', differences: ['rule_absent'] });
      expect(body.disagreements.map((p: Json) => p.frameworks.join('/'))).toEqual([
        'shariah_aaoifi/shariah_ftse',
        'shariah_aaoifi/shariah_msci',
        'shariah_djim/shariah_ftse',
        'shariah_djim/shariah_msci',
        'shariah_sp/shariah_ftse',
        'shariah_sp/shariah_msci',
      ]);
    },
  );
});
