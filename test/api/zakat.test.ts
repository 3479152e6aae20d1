import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessSetup } from '../../access/open-access.ts';
import { errorSchema } from '../../api/schemas/responses.ts';
import { zakatResponseSchema } from '../../api/schemas/zakat.ts';
import { unavailableRefresher } from '../../api/refresher.ts';
import { ingestSource } from '../../sources/ingest.ts';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { lakeRoot } from '../../warehouse/lake-paths.ts';
import { keyFor, meterUsed, openTestAccess } from '../support/access.ts';
import { listen } from '../support/http.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { createTestApi, TODAY, type TestApi } from './support/lake-fixture.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON under test
type Json = Record<string, any>;

interface Filing {
  ticker: string;
  source_ref: string;
  cash: number;
  receivables: number;
  inventory: number;
  liabilities: number;
  shares: number;
  close: number;
}

/** The sample filing in force today and today's close of the first US stock, read straight from the lake's Parquet files. */
async function firstStock(dataDir: string): Promise<Filing> {
  const root = lakeRoot(dataDir);
  return withDuckDB(':memory:', {}, async (c) => {
    const rows = (
      await c.runAndReadAll(`
      WITH l AS (SELECT ticker FROM read_parquet('${root}/listings/market=us/**/*.parquet') WHERE kind = 'stock' ORDER BY ticker LIMIT 1),
      f AS (SELECT * FROM read_parquet('${root}/fundamentals/market=us/**/*.parquet') WHERE ticker = (SELECT ticker FROM l)
        AND filed_on <= DATE '${TODAY}' ORDER BY filed_on DESC LIMIT 1),
      p AS (SELECT close FROM read_parquet('${root}/prices/market=us/**/*.parquet') WHERE ticker = (SELECT ticker FROM l)
        AND date = DATE '${TODAY}')
      SELECT f.ticker, f.source_ref, f.cash_and_equivalents AS cash, f.accounts_receivable AS receivables, f.inventory,
        f.current_liabilities AS liabilities, f.shares_outstanding AS shares, (SELECT close FROM p) AS close FROM f`)
    ).getRowObjectsJS();
    return rows[0] as unknown as Filing;
  });
}

describe('GET /api/zakat/{market}/{ticker} over real HTTP on the sample universe', () => {
  let lakeDir: Awaited<ReturnType<typeof makeTempDir>>;
  let serviceDir: Awaited<ReturnType<typeof makeTempDir>>;
  let access: AccessSetup;
  let api: TestApi;
  let server: { url: string; close: () => Promise<void> };
  let key: { key: string; keyId: string };
  let stock: Filing;
  let fund: string;

  const get = async (path: string, apiKey: string | null = key.key, method = 'GET') => {
    const headers: Record<string, string> = apiKey === null ? {} : { 'X-API-Key': apiKey };
    const response = await fetch(`${server.url}${path}`, { method, headers });
    return { status: response.status, type: response.headers.get('content-type'), body: (await response.json()) as Json };
  };

  beforeAll(async () => {
    lakeDir = await makeTempDir();
    serviceDir = await makeTempDir();
    await ingestSource({ source: 'sample', scale: 0.002, dataDir: lakeDir.dir, asOf: TODAY, markets: ['us'], concurrency: 2 });
    stock = await firstStock(lakeDir.dir);
    const funds = await withDuckDB(':memory:', {}, async (c) =>
      (
        await c.runAndReadAll(
          `SELECT ticker FROM read_parquet('${lakeRoot(lakeDir.dir)}/listings/market=us/**/*.parquet') WHERE kind = 'fund' LIMIT 1`,
        )
      ).getRowObjectsJS(),
    );
    fund = String(funds[0]!.ticker);
    access = await openTestAccess(serviceDir.dir);
    api = await createTestApi(lakeDir.dir, unavailableRefresher, access.middleware);
    server = await listen(api.app);
    key = await keyFor(access, 'pro');
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await api?.reads.close();
    await api?.forensic.close();
    await api?.purification.close();
    await access?.close();
    await lakeDir?.cleanup();
    await serviceDir?.cleanup();
  });

  it('when shares are held for the long term, then zakat is 2.5% of their share of the net zakatable assets, as worked by hand', async () => {
    const { status, body } = await get(`/api/zakat/us/${stock.ticker.toLowerCase()}?shares=120`);
    expect(status).toBe(200);
    expect(zakatResponseSchema.safeParse(body).error?.issues ?? []).toEqual([]);
    const net = stock.cash + stock.receivables + stock.inventory - stock.liabilities;
    const perShare = Math.max(0, net / stock.shares);
    expect(body).toMatchObject({ market: 'us', ticker: stock.ticker, method: 'long_term', year: 'lunar', rate: 0.025, status: 'computed' });
    expect(body.net_zakatable_assets).toBe(net);
    expect(body.zakatable_assets_per_share).toBeCloseTo(perShare, 6);
    expect(body.zakat_due).toBeCloseTo(120 * perShare * 0.025, 2);
    expect(body.zakat_due).toBeGreaterThan(0);
    expect(body.filing.source_ref).toBe(stock.source_ref);
    expect(body.figures.map((f: Json) => [f.name, f.value])).toEqual([
      ['cash_and_equivalents', stock.cash],
      ['accounts_receivable', stock.receivables],
      ['inventory', stock.inventory],
      ['current_liabilities', stock.liabilities],
      ['shares_outstanding', stock.shares],
    ]);
    expect(body.holding).toMatchObject({ shares: 120, price: { date: TODAY, close: stock.close } });
    expect(body.provenance).toMatchObject({ synthetic: true, data_sources: ['sample'] });
    expect(body.provenance.notice).toMatch(/Synthetic sample data/);
  });

  it('when the value held is sent with the trading method and a solar year, then zakat is 2.5775% of that value', async () => {
    const { status, body } = await get(`/api/zakat/us/${stock.ticker}?value=10000&method=trading&year=solar`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'computed', zakat_base: 10000, zakat_due: 257.75, rate: 0.025775, filing: null, figures: [] });
    expect(body.holding.shares).toBeCloseTo(10000 / stock.close, 6);
  });

  it('when the zakat date has no close within 7 days, then shares cannot be valued and the answer is insufficient_data naming the close', async () => {
    const { status, body } = await get(`/api/zakat/us/${stock.ticker}?shares=5&method=trading&as_of=2009-01-01`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'insufficient_data', zakat_due: null });
    expect(body.missing.join(' ')).toMatch(/close price on the as-of date/);
  });

  it('costs 2 units (tag screen/history); a refused request costs nothing', async () => {
    const own = await keyFor(access, 'pro');
    expect((await get(`/api/zakat/us/${stock.ticker}?shares=1`, own.key)).status).toBe(200);
    await access.meter.returnSpare();
    expect(await meterUsed(access, own.keyId)).toBe(2);
    expect((await get(`/api/zakat/us/${stock.ticker}?shares=0`, own.key)).status).toBe(400);
    await access.meter.returnSpare();
    expect(await meterUsed(access, own.keyId)).toBe(2);
  });

  describe('refusals', () => {
    it.each([
      ['shares and value', '?shares=1&value=2', /shares, value: send one of them, not both/],
      ['neither shares nor value', '', /shares or value: send the shares held/],
      ['shares 0', '?shares=0', /query\.shares: shares must be greater than 0/],
      ['shares not a number', '?shares=ten', /query\.shares: shares must be a positive decimal number/],
      ['a negative value', '?value=-5', /query\.value: value must be a positive decimal number/],
      ['an unknown method', '?shares=1&method=hawl', /query\.method: .*long_term.*trading/],
      ['an unknown year', '?shares=1&year=gregorian', /query\.year: .*lunar.*solar/],
      ['a malformed as_of', '?shares=1&as_of=2020/01/01', /query\.as_of: expected a date YYYY-MM-DD/],
      ['an as_of in the future', '?shares=1&as_of=2999-01-01', /as_of: 2999-01-01 is in the future/],
      ['an as_of before history', '?shares=1&as_of=2008-12-31', /as_of: 2008-12-31 is before 2009-01-01/],
    ])('when the query has %s, then 400 names the problem', async (_what, query, pattern) => {
      const answer = await get(`/api/zakat/us/${stock.ticker}${query}`);
      expect(answer.status).toBe(400);
      expect(answer.type).toMatch(/application\/json/);
      expect(errorSchema.safeParse(answer.body).success).toBe(true);
      expect(String(answer.body.detail)).toMatch(pattern);
    });

    it('when the market or ticker is malformed, then 400 names the valid forms', async () => {
      expect((await get(`/api/zakat/xx/${stock.ticker}?shares=1`)).body.detail).toMatch(/market: unknown market 'xx'; valid markets: us/);
      const bad = await get('/api/zakat/us/BAD$?shares=1');
      expect(bad.status).toBe(400);
      expect(bad.body.detail).toMatch(/ticker: invalid ticker 'BAD\$'/);
    });

    it('when a query parameter is repeated, then 422 names it', async () => {
      const answer = await get(`/api/zakat/us/${stock.ticker}?shares=1&shares=2`);
      expect(answer.status).toBe(422);
      expect(answer.body.detail).toMatch(/query\.shares: expected string/);
    });

    it('when the ticker is a fund, then 400 says zakat is per company and names the fund endpoint', async () => {
      const answer = await get(`/api/zakat/us/${fund}?shares=1`);
      expect(answer.status).toBe(400);
      expect(answer.body.detail).toContain('POST /api/screen/etf');
      expect(answer.body.detail).toMatch(/is a fund: zakat is computed on a company's own balance sheet/);
    });

    it('when the ticker is not listed, then 404 says how to look it up', async () => {
      const answer = await get('/api/zakat/us/ZZZZ9?shares=1');
      expect(answer.status).toBe(404);
      expect(answer.body.detail).toMatch(/ticker 'ZZZZ9' is not listed in market 'us'; look it up with GET \/api\/universe\/search/);
    });

    it('when the route is asked with POST, then 405 naming GET', async () => {
      const answer = await get(`/api/zakat/us/${stock.ticker}?shares=1`, key.key, 'POST');
      expect(answer.status).toBe(405);
    });

    it('when no key is sent, then 401', async () => {
      const answer = await get(`/api/zakat/us/${stock.ticker}?shares=1`, null);
      expect(answer.status).toBe(401);
      expect(answer.body.detail).toMatch(/X-API-Key/);
    });

    it('when the key is not granted the market or the history tag, then 403 names what it may use', async () => {
      const gbOnly = await keyFor(access, 'partner', { markets: ['gb'] });
      const market = await get(`/api/zakat/us/${stock.ticker}?shares=1`, gbOnly.key);
      expect(market.status).toBe(403);
      expect(market.body.detail).toBe("this key is not provisioned for market 'us'; it may use: gb");
      const screenOnly = await keyFor(access, 'partner', { endpoints: ['screen'] });
      const endpoint = await get(`/api/zakat/us/${stock.ticker}?shares=1`, screenOnly.key);
      expect(endpoint.status).toBe(403);
      expect(endpoint.body.detail).toBe("this key is not provisioned for endpoint 'screen/history'; it may use: screen");
    });
  });

  it('documents the route in /openapi.json with its tag, unit cost and answers', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as Json;
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    const op = doc.paths['/api/zakat/{market}/{ticker}'].get;
    expect(op).toMatchObject({ 'x-endpoint-tag': 'screen/history', 'x-unit-cost': '2', security: [{ apiKey: [] }] });
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404', '422', '429']));
    expect(op.parameters.map((p: Json) => p.name)).toEqual(['market', 'ticker', 'shares', 'value', 'method', 'year', 'as_of']);
    expect(doc.components.schemas.ZakatResponse).toBeDefined();
  });
});
