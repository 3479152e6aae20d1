import { rm } from 'node:fs/promises';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessSetup } from '../../access/open-access.ts';
import { FRAMEWORK_IDS } from '../../engine/index.ts';
import { UNSCOPED_KEY_FRAMEWORKS } from '../../common/grants.ts';
import { portfolioResponseSchema } from '../../api/schemas/portfolio.ts';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { lakeRoot } from '../../warehouse/lake-paths.ts';
import { readSql, sql } from '../../warehouse/sql.ts';
import { keyFor, meterUsed, openTestAccess } from '../support/access.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { daysAgo, type FixtureTickers, type ServedLakeApi, serveLakeApi, TODAY } from './support/lake-fixture.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response JSON under test
type Json = Record<string, any>;

describe('POST /api/portfolio over real HTTP on the sample universe', () => {
  let serviceDir: Awaited<ReturnType<typeof makeTempDir>>;
  let access: AccessSetup;
  let lake: ServedLakeApi;
  let t: FixtureTickers;
  let key: { key: string; keyId: string };

  const post = async (body: unknown, apiKey: string | null = key.key, type = 'application/json') => {
    const headers: Record<string, string> = { 'content-type': type };
    if (apiKey !== null) headers['X-API-Key'] = apiKey;
    const response = await fetch(`${lake.server.url}/api/portfolio`, {
      method: 'POST',
      headers,
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const used = async (keyId: string) => {
    await access.meter.returnSpare();
    return meterUsed(access, keyId);
  };
  /** The fund's latest report read straight from the lake's Parquet files. */
  const fundReport = async (market: string, ticker: string) =>
    withDuckDB(':memory:', {}, async (c) =>
      (
        await readSql(
          c,
          sql`WITH h AS (SELECT * FROM read_parquet(${`${lakeRoot(lake.dataDir)}/fund_holdings/fund_market=${market}/**/*.parquet`})
                WHERE fund_ticker = ${ticker})
              SELECT CAST(market AS VARCHAR) AS market, ticker, weight FROM h WHERE as_of = (SELECT max(as_of) FROM h)`,
        )
      ).getRowObjectsJS(),
    );
  const latestClose = async (ticker: string) =>
    withDuckDB(':memory:', {}, async (c) => {
      const rows = (
        await readSql(
          c,
          sql`SELECT close FROM read_parquet(${`${lakeRoot(lake.dataDir)}/prices/market=us/**/*.parquet`})
              WHERE ticker = ${ticker} AND date <= ${TODAY}::DATE ORDER BY date DESC LIMIT 1`,
        )
      ).getRowObjectsJS();
      return Number(rows[0]!.close);
    });

  /** How a company counts: a verdict older than the 7-day stale window, insufficient data or none is unknown. */
  const current = (market: string, ticker: string, framework: 'shariah_aaoifi' | 'christian_bri') => {
    const row = lake.api.reads.current(market, ticker);
    const status = row && row.snapshotDate >= daysAgo(7) ? row.statuses[framework] : 'insufficient_data';
    return status === 'insufficient_data' ? 'unknown' : status;
  };

  beforeAll(async () => {
    serviceDir = await makeTempDir();
    access = await openTestAccess(serviceDir.dir);
    lake = await serveLakeApi(undefined, access.middleware);
    t = lake.t;
    key = await keyFor(access, 'pro');
  }, 180_000);
  afterAll(async () => {
    await lake?.close();
    await access?.close();
    await serviceDir?.cleanup();
  });

  it('when a portfolio holds stocks and a fund by value, then each framework splits its value by status with the fund looked through, failing companies named with why, and the unscreened and expired parts unknown', async () => {
    const [a, b] = t.fresh as [string, string];
    const holdings = [
      { market: 'us', ticker: a, value: 1000 },
      { market: 'us', ticker: b.toLowerCase(), value: 2000 },
      { ticker: t.fund.ticker, value: 4000 },
      { ticker: t.unscreened, value: 500 },
      { ticker: t.expired, value: 500 },
    ];
    const { status, body } = await post({ holdings });
    expect(status).toBe(200);
    expect(portfolioResponseSchema.safeParse(body).error?.issues ?? []).toEqual([]);
    expect(body).toMatchObject({ as_of: TODAY, sized_by: 'value', total_value: 8000, frameworks_returned: [...UNSCOPED_KEY_FRAMEWORKS] });
    expect(body.holdings.map((h: Json) => [h.ticker, h.kind, h.weight])).toEqual([
      [a, 'stock', 0.125],
      [b, 'stock', 0.25],
      [t.fund.ticker, 'fund', 0.5],
      [t.unscreened, 'stock', 0.0625],
      [t.expired, 'stock', 0.0625],
    ]);
    const report = await fundReport('us', t.fund.ticker);
    const covered = report.reduce((sum, h) => sum + Number(h.weight), 0);
    expect(body.holdings[2].look_through).toMatchObject({ holdings_in_report: report.length, holdings_read: report.length });
    expect(body.holdings[2].look_through.covered_weight).toBeCloseTo(covered, 6);
    expect(body.coverage).toEqual({ funds: 1, fund_weight: 0.5, fund_weight_covered: expect.closeTo(0.5 * covered, 5) });
    // The expected split worked from the fund's report and each company's current verdict.
    for (const framework of ['shariah_aaoifi', 'christian_bri'] as const) {
      const expected = { compliant: 0, non_compliant: 0, questionable: 0, unknown: 0 };
      const add = (ticker: string, weight: number, market = 'us') => {
        expected[current(market, ticker, framework)] += weight;
      };
      add(a, 0.125);
      add(b, 0.25);
      add(t.unscreened, 0.0625);
      add(t.expired, 0.0625);
      for (const h of report) add(String(h.ticker), 0.5 * Number(h.weight), String(h.market));
      expected.unknown += 0.5 * (1 - covered); // the part of the fund its report does not cover
      const got = body.frameworks[framework];
      for (const bucket of ['compliant', 'non_compliant', 'questionable', 'unknown'] as const)
        expect(got[bucket]).toBeCloseTo(expected[bucket], 5);
      expect(got.compliant + got.non_compliant + got.questionable + got.unknown).toBeCloseTo(1, 5);
      const failing = [['us', a], ['us', b], ...report.map((h) => [String(h.market), String(h.ticker)])].filter(
        ([m, x]) => current(m!, x!, framework) === 'non_compliant',
      );
      expect(got.failing_count).toBe(new Set(failing.map(([m, x]) => `${m}:${x}`)).size);
      for (const entry of got.failing) expect(entry.why.length).toBeGreaterThan(0);
    }
    const expired = body.holdings[4];
    expect(expired).toMatchObject({ expired: true, counted_as: { shariah_aaoifi: 'unknown' } });
    expect(body.frameworks.shariah_aaoifi.not_decided).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ ticker: t.unscreened, status: 'unknown', why: ['never screened: no verdict'] }),
        expect.objectContaining({ ticker: t.expired, status: 'unknown', why: [expect.stringMatching(/older than the stale window/)] }),
        expect.objectContaining({ ticker: null, via: t.fund.ticker, why: [expect.stringMatching(/does not cover/)] }),
      ]),
    );
  });

  it('when a holding is insufficient_data under a framework, then it counts as unknown there, never compliant, with the reasons that decided it', async () => {
    const ticker = t.fresh.find((x) => lake.api.reads.current('us', x)!.statuses.shariah_aaoifi === 'insufficient_data');
    expect(ticker).toBeDefined();
    const { status, body } = await post({ holdings: [{ ticker, weight: 1 }], frameworks: ['shariah_aaoifi'] });
    expect(status).toBe(200);
    expect(body.frameworks.shariah_aaoifi).toMatchObject({ compliant: 0, unknown: 1 });
    expect(body.holdings[0].counted_as).toEqual({ shariah_aaoifi: 'unknown' });
    expect(body.holdings[0].deciding_reasons.shariah_aaoifi.length).toBeGreaterThan(0);
    for (const r of body.holdings[0].deciding_reasons.shariah_aaoifi) expect(r.result).toBe('insufficient_data');
  });

  it('when holdings are given in shares with a period, then each is valued at its latest close and the purification owed matches POST /api/purification for the same lot', async () => {
    const [a, b] = t.fresh.slice(2) as [string, string];
    // Today: the fixture's current snapshots cover it, so the amounts are known.
    const from = TODAY;
    const { status, body } = await post({
      holdings: [
        { ticker: a, shares: 10 },
        { ticker: b, shares: 30 },
      ],
      frameworks: ['shariah_aaoifi', 'christian_bri'],
      period: { from },
    });
    expect(status).toBe(200);
    expect(portfolioResponseSchema.safeParse(body).error?.issues ?? []).toEqual([]);
    const [pa, pb] = [await latestClose(a), await latestClose(b)];
    expect(body.holdings[0].value).toBeCloseTo(10 * pa, 4);
    expect(body.holdings[1].value).toBeCloseTo(30 * pb, 4);
    expect(body.holdings[0].weight).toBeCloseTo((10 * pa) / (10 * pa + 30 * pb), 5);
    expect(Object.keys(body.purification.frameworks)).toEqual(['shariah_aaoifi']);
    const one = await fetch(`${lake.server.url}/api/purification`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-API-Key': key.key },
      body: JSON.stringify({ market: 'us', ticker: a, framework: 'shariah_aaoifi', lots: [{ shares: 10, bought_on: from }] }),
    });
    const single = (await one.json()) as Json;
    const mine = body.purification.frameworks.shariah_aaoifi.holdings[0];
    expect(mine).toMatchObject({ ticker: a, amount: single.amount_to_purify, complete: single.complete });
  });

  it('when zakat is asked for, then each stock held directly owes what GET /api/zakat answers for it, totalled per currency only when every one is computed; a fund is left out and said so', async () => {
    const stocks = t.fresh.slice(4, 7);
    const { status, body } = await post({
      holdings: [...stocks.map((ticker, i) => ({ ticker, shares: 10 * (i + 1) })), { ticker: t.fund.ticker, shares: 5 }],
      frameworks: ['shariah_aaoifi'],
      zakat: { method: 'long_term', year: 'solar' },
    });
    expect(status).toBe(200);
    expect(portfolioResponseSchema.safeParse(body).error?.issues ?? []).toEqual([]);
    expect(body.zakat).toMatchObject({ as_of: TODAY, method: 'long_term', year: 'solar', rate: 0.025775, computed: true });
    expect(body.zakat.note).toBe('1 fund(s) not included: zakat is computed on the balance sheets of stocks held directly');
    const single = await Promise.all(
      stocks.map(async (ticker, i) => {
        const response = await fetch(`${lake.server.url}/api/zakat/us/${ticker}?shares=${10 * (i + 1)}&year=solar`, {
          headers: { 'X-API-Key': key.key },
        });
        expect(response.status).toBe(200);
        return (await response.json()) as Json;
      }),
    );
    expect(body.zakat.holdings).toEqual(
      single.map((z) => ({
        market: 'us',
        ticker: z.ticker,
        currency: z.currency,
        status: z.status,
        zakat_due: z.zakat_due,
        missing: z.missing,
        filing: z.filing?.source_ref ?? null,
      })),
    );
    const complete = single.every((z) => z.status === 'computed');
    const known = Math.round(single.reduce((sum, z) => sum + (z.zakat_due ?? 0), 0) * 100) / 100;
    expect(body.zakat.totals).toEqual([{ currency: 'USD', zakat_due: complete ? known : null, zakat_due_known: known, complete }]);
    const weighted = await post({ holdings: [{ ticker: stocks[0], weight: 1 }], zakat: {} });
    expect(weighted.body.zakat).toMatchObject({
      computed: false,
      note: 'zakat needs shares or values; these holdings are sized by weight',
    });
  });

  it('charges 1 unit per stock line and 5 per fund line, plus 2 per stock and Shariah framework with a period and 2 per stock for zakat; a refused portfolio costs nothing', async () => {
    const payer = await keyFor(access, 'pro');
    const before = await used(payer.keyId);
    expect(
      (
        await post(
          {
            holdings: [
              { ticker: t.fresh[0], value: 1 },
              { ticker: t.fund.ticker, value: 1 },
            ],
          },
          payer.key,
        )
      ).status,
    ).toBe(200);
    expect(await used(payer.keyId)).toBe(before + 1 + 5);
    const body = {
      holdings: [{ ticker: t.fresh[0], shares: 1 }],
      frameworks: ['shariah_aaoifi', 'shariah_djim', 'lds_mormon'],
      period: { from: TODAY },
    };
    expect((await post(body, payer.key)).status).toBe(200);
    expect(await used(payer.keyId)).toBe(before + 6 + 1 + 2 * 2);
    // Value-sized holdings cannot be purified: the purification units declared are given back.
    expect((await post({ ...body, holdings: [{ ticker: t.fresh[0], value: 5 }] }, payer.key)).status).toBe(200);
    expect(await used(payer.keyId)).toBe(before + 11 + 1);
    expect(
      (
        await post(
          {
            holdings: [
              { ticker: t.fresh[0], value: 5 },
              { ticker: t.fund.ticker, value: 5 },
            ],
            zakat: {},
          },
          payer.key,
        )
      ).status,
    ).toBe(200);
    expect(await used(payer.keyId)).toBe(before + 12 + 1 + 5 + 2);
    expect((await post({ holdings: [{ ticker: 'NOPE9', value: 1 }] }, payer.key)).status).toBe(404);
    expect(await used(payer.keyId)).toBe(before + 20);
  });

  describe('every refusal names what is wrong and what is valid', () => {
    it('400 when the list is empty', async () => {
      const { status, body } = await post({ holdings: [] });
      expect(status).toBe(400);
      expect(body.detail).toMatch(/send at least one holding/);
    });

    it('400 when there are more holdings than the limit, before any line is read', async () => {
      const holdings = Array.from({ length: 501 }, (_, i) => ({ ticker: `T${i}`, value: 1 }));
      const { status, body } = await post({ holdings });
      expect(status).toBe(400);
      expect(body.detail).toBe('holdings: 501 holdings; a portfolio takes at most 500: split it into several requests');
    });

    it('404 naming every unknown ticker, not only the first', async () => {
      const { status, body } = await post({
        holdings: [
          { ticker: 'NOPE1', value: 1 },
          { ticker: t.fresh[0], value: 1 },
          { market: 'gb', ticker: 'NOPE2', value: 1 },
        ],
      });
      expect(status).toBe(404);
      expect(body.detail.message).toMatch(/^2 ticker\(s\) not listed: us:NOPE1, gb:NOPE2;/);
      expect(body.detail.unknown_tickers).toEqual([
        { market: 'us', ticker: 'NOPE1' },
        { market: 'gb', ticker: 'NOPE2' },
      ]);
    });

    it('400 when weights do not add up to 1 within the stated tolerance', async () => {
      const { status, body } = await post({
        holdings: [
          { ticker: t.fresh[0], weight: 0.5 },
          { ticker: t.fresh[1], weight: 0.3 },
        ],
      });
      expect(status).toBe(400);
      expect(body.detail).toMatch(/^weights add up to 0.8; they must add up to 1 within ±0.01 \(0.99 to 1.01\)/);
      const within = await post({
        holdings: [
          { ticker: t.fresh[0], weight: 0.5 },
          { ticker: t.fresh[1], weight: 0.495 },
        ],
      });
      expect(within.status).toBe(200);
      expect(within.body.holdings[0].weight).toBeCloseTo(0.5 / 0.995, 6);
    });

    it('400 when units are mixed, or a line gives none or two', async () => {
      const mixed = await post({
        holdings: [
          { ticker: t.fresh[0], value: 100 },
          { ticker: t.fresh[1], weight: 0.5 },
        ],
      });
      expect(mixed.status).toBe(400);
      expect(mixed.body.detail).toMatch(/^mixed units: .*value on 1 \(holdings 0\); weight on 1 \(holdings 1\)/);
      const none = await post({ holdings: [{ ticker: t.fresh[0] }, { ticker: t.fresh[1], value: 1, shares: 2 }] });
      expect(none.status).toBe(400);
      expect(none.body.detail).toMatch(/holdings.0 \(us:\w+\) gives none; holdings.1 \(us:\w+\) gives shares and value/);
    });

    it('400 for an unknown framework, a repeated ticker, an unknown market or a future period', async () => {
      const framework = await post({ holdings: [{ ticker: t.fresh[0], value: 1 }], frameworks: ['shariah_aaoifi', 'halal_maybe'] });
      expect(framework.status).toBe(400);
      expect(framework.body.detail).toBe(`frameworks: unknown framework id(s) halal_maybe; valid ids: ${FRAMEWORK_IDS.join(', ')}`);
      const repeated = await post({
        holdings: [
          { ticker: t.fresh[0], value: 1 },
          { ticker: t.fresh[0]!.toLowerCase(), value: 2 },
        ],
      });
      expect(repeated.status).toBe(400);
      expect(repeated.body.detail).toBe(`each ticker once: add up its lines into one; repeated: us:${t.fresh[0]} (holdings 0 and 1)`);
      const market = await post({ holdings: [{ market: 'mars', ticker: t.fresh[0], value: 1 }] });
      expect(market.status).toBe(400);
      expect(market.body.detail).toMatch(/body.holdings.0.market: unknown market 'mars'; valid markets: .*us/);
      const future = await post({ holdings: [{ ticker: t.fresh[0], shares: 1 }], period: { from: '2999-01-01' } });
      expect(future.status).toBe(400);
      expect(future.body.detail).toMatch(/from: 2999-01-01 is in the future/);
    });

    it('422 naming each line in shares with no recent close, and each fund without a holdings report', async () => {
      const gbFund = lake.api.reads.listings('gb').find((l) => l.kind === 'fund')!;
      const gbStock = lake.api.reads.listings('gb').find((l) => l.kind === 'stock')!;
      // The lake loses its gb prices and fund reports: nothing left to value or look through.
      await rm(`${lakeRoot(lake.dataDir)}/prices/market=gb`, { recursive: true, force: true });
      await rm(`${lakeRoot(lake.dataDir)}/fund_holdings/fund_market=gb`, { recursive: true, force: true });
      // Fund reports are served from the serving store: files removed by hand leave it at the next sync from the lake (every start).
      await lake.api.reads.syncFromLake();
      const unpriced = await post({
        holdings: [
          { market: 'gb', ticker: gbStock.ticker, shares: 3 },
          { ticker: t.fresh[0], shares: 3 },
        ],
      });
      expect(unpriced.status).toBe(422);
      expect(unpriced.body.detail).toBe(
        `no close in the last 45 days to value the shares of 1 holding(s): gb:${gbStock.ticker}; size the portfolio by value or weight instead`,
      );
      const empty = await post({
        holdings: [
          { market: 'gb', ticker: gbFund.ticker, value: 1 },
          { ticker: t.fund.ticker, value: 1 },
        ],
      });
      expect(empty.status).toBe(422);
      expect(empty.body.detail).toMatchObject({
        message: expect.stringMatching(new RegExp(`^1 fund\\(s\\) with no holdings report to look through: gb:${gbFund.ticker};`)),
        funds_without_holdings: [{ market: 'gb', ticker: gbFund.ticker }],
      });
    });

    it('401 without a key, 403 for a market the key does not cover, 415 for a body neither JSON nor CSV, 422 for a malformed body', async () => {
      const holdings = [{ ticker: t.fresh[0], value: 1 }];
      expect((await post({ holdings }, null)).status).toBe(401);
      const gbOnly = await keyFor(access, 'partner', { markets: ['gb'] });
      const market = await post({ holdings }, gbOnly.key);
      expect(market.status).toBe(403);
      expect(market.body.detail).toBe("this key is not provisioned for market 'us'; it may use: gb");
      const plain = await post('AAPL 10', key.key, 'text/plain');
      expect(plain.status).toBe(415);
      expect(plain.body.detail).toBe('send the portfolio as application/json, or as text/csv (a broker export)');
      const malformed = await post({ holdings: 'AAPL' });
      expect(malformed.status).toBe(422);
      expect(malformed.body.detail).toBe('body.holdings: expected array');
    });
  });

  it('documents the route in /openapi.json with its tag, unit cost, both body types and every answer', async () => {
    const doc = (await (await fetch(`${lake.server.url}/openapi.json`)).json()) as Json;
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    const op = doc.paths['/api/portfolio'].post;
    expect(op).toMatchObject({ 'x-endpoint-tag': 'screen/batch', security: [{ apiKey: [] }] });
    expect(op['x-unit-cost']).toMatch(/^1 per stock line, 5 per fund line/);
    expect(Object.keys(op.requestBody.content)).toEqual(['application/json', 'text/csv']);
    expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '401', '403', '404', '413', '415', '422', '429']);
    expect(op.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/PortfolioResponse' });
    expect(doc.components.schemas.PortfolioResponse.properties.frameworks).toBeDefined();
  });
});
