import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactResult, snapshotRowFrom } from '../../activities/snapshot-rows.ts';
import type { AccessSetup } from '../../access/open-access.ts';
import { unavailableRefresher } from '../../api/refresher.ts';
import { screenCompany, SHARIAH_FRAMEWORK_IDS, type ScreeningInput, type ScreeningResult } from '../../engine/index.ts';
import { ingestSource } from '../../sources/ingest.ts';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { loadScreeningInputsForDates } from '../../warehouse/screening-inputs.ts';
import { writeSnapshots } from '../../warehouse/snapshot-writer.ts';
import { keyFor, meterUsed, openTestAccess } from '../support/access.ts';
import { listen } from '../support/http.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { createTestApi, TODAY, type TestApi } from './support/lake-fixture.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON under test
type Json = Record<string, any>;

/** Quarter-end backfill snapshots the fixture writes for every US stock of the sample. */
const QUARTERS = ['2019-12-31', '2020-03-31', '2020-06-30', '2020-09-30', '2020-12-31', '2021-03-31'];

interface Screened {
  input: ScreeningInput;
  result: ScreeningResult;
}

/** The figures a hand computation needs from one quarter's screen of the chosen stock under AAOIFI. */
function figures(s: Screened) {
  const f = s.input.fundamentals!;
  return {
    status: s.result.frameworks.shariah_aaoifi!.status,
    npi: s.result.frameworks.shariah_aaoifi!.purification!.non_permissible_income_ratio!,
    dps: f.dividendsPerShare!,
    revenue: f.totalRevenue!,
    shares: f.sharesOutstanding!,
    filing: f.sourceRef,
  };
}

describe('POST /api/purification over real HTTP on the sample universe', () => {
  let lakeDir: Awaited<ReturnType<typeof makeTempDir>>;
  let serviceDir: Awaited<ReturnType<typeof makeTempDir>>;
  let access: AccessSetup;
  let api: TestApi;
  let server: { url: string; close: () => Promise<void> };
  let key: { key: string; keyId: string };
  /** A US stock whose AAOIFI status is non_compliant in some quarter and compliant in another, with dividends. */
  let ticker: string;
  let q: Array<ReturnType<typeof figures>>;
  let fund: string;
  /** A stock re-screened on 2020-06-30 with a different AAOIFI ratio, and that ratio. */
  let rescreened: string;
  let rescreenedRatio: number;
  /** A stock re-screened on 2020-09-30 from a filing whose interest income is a net non-operating line. */
  let proxied: string;

  /** POSTs `body` with the test's key, another key, or none (null). */
  const post = async (body: unknown, apiKey: string | null = key.key) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (apiKey !== null) headers['X-API-Key'] = apiKey;
    const response = await fetch(`${server.url}/api/purification`, {
      method: 'POST',
      headers,
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: response.status, type: response.headers.get('content-type'), body: (await response.json()) as Json };
  };
  const used = async (keyId: string) => {
    await access.meter.returnSpare();
    return meterUsed(access, keyId); // a self-serve key spends its account's window
  };

  beforeAll(async () => {
    lakeDir = await makeTempDir();
    serviceDir = await makeTempDir();
    await ingestSource({ source: 'sample', scale: 0.002, dataDir: lakeDir.dir, asOf: TODAY, markets: ['us'], concurrency: 2 });
    const inputs = await withDuckDB(':memory:', {}, (c) =>
      loadScreeningInputsForDates(c, lakeDir.dir, { market: 'us', dates: QUARTERS, kind: 'stock' }),
    );
    const byTicker = new Map<string, Screened[]>();
    for (const input of inputs) {
      const list = byTicker.get(input.listing.ticker) ?? [];
      list.push({ input, result: screenCompany(input) });
      byTicker.set(input.listing.ticker, list);
    }
    // Backfill rows keep the compact result, as the pipelines write them.
    const rows = [...byTicker.values()].flat().map(({ input, result }) =>
      snapshotRowFrom(input, compactResult(result), {
        source: 'backfill',
        runId: `backfill-${input.screeningDate}`,
        screenedAt: `${input.screeningDate}T02:00:00.000`,
      }),
    );
    const chosen = [...byTicker.entries()].find(([, screens]) => {
      if (screens.length !== QUARTERS.length) return false;
      const first4 = screens.slice(0, 4).map(figures);
      const statuses = first4.map((f) => f.status);
      return (
        statuses.includes('non_compliant') &&
        statuses.includes('compliant') &&
        first4.every((f) => f.npi > 0 && f.dps > 0 && f.revenue > 0 && f.shares > 0)
      );
    });
    if (!chosen) throw new Error('the sample has no stock whose AAOIFI status changes between 2019-12-31 and 2020-09-30');
    ticker = chosen[0];
    q = chosen[1].map(figures);
    // A same-day re-screen of another stock (a refresh after a corrected filing): the newest screen of the day must win.
    const other = [...byTicker.entries()].find(
      ([candidate, list]) => candidate !== ticker && list.length === QUARTERS.length && list.every((x) => figures(x).npi > 0),
    );
    if (!other) throw new Error('the sample has no second stock with a known AAOIFI ratio every quarter');
    rescreened = other[0];
    const june = other[1][2]!;
    const corrected = structuredClone(compactResult(june.result));
    rescreenedRatio = figures(june).npi * 2;
    corrected.frameworks.shariah_aaoifi!.purification!.non_permissible_income_ratio = rescreenedRatio;
    rows.push(snapshotRowFrom(june.input, corrected, { source: 'refresh', runId: 'refresh-june', screenedAt: '2020-06-30T09:00:00.000' }));
    const third = [...byTicker.entries()].find(
      ([candidate, list]) =>
        candidate !== ticker && candidate !== rescreened && list.length === QUARTERS.length && list.every((x) => figures(x).npi > 0),
    );
    if (!third) throw new Error('the sample has no third stock with a known AAOIFI ratio every quarter');
    proxied = third[0];
    const september = structuredClone(third[1][3]!.input);
    september.fundamentals!.figureSources = {
      ...september.fundamentals!.figureSources,
      interest_income: 'us-gaap:OtherNonoperatingIncomeExpense @ 0000000000-20-000001 (proxy: net non-operating income)',
    };
    rows.push(
      snapshotRowFrom(september, compactResult(screenCompany(september)), {
        source: 'refresh',
        runId: 'refresh-september',
        screenedAt: '2020-09-30T09:00:00.000',
      }),
    );
    await writeSnapshots(lakeDir.dir, rows, { fileStem: 'purification-fixture' });
    const funds = await withDuckDB(':memory:', {}, (c) =>
      loadScreeningInputsForDates(c, lakeDir.dir, { market: 'us', dates: [TODAY], kind: 'fund' }),
    );
    fund = funds[0]!.listing.ticker;
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

  it('when the interest income of a snapshot is a net non-operating line, then its period says its amounts are estimates; the others do not', async () => {
    const { status, body } = await post({
      market: 'us',
      ticker: proxied,
      framework: 'shariah_aaoifi',
      lots: [{ shares: 10, bought_on: '2020-08-01', sold_on: '2020-12-01' }],
    });
    expect(status).toBe(200);
    const periods = body.lots[0].periods as Json[];
    expect(periods.map((p) => [p.snapshot.date, p.estimate === null])).toEqual([
      ['2020-06-30', true],
      ['2020-09-30', false],
    ]);
    expect(periods[1]!.estimate).toMatch(/^an estimate: interest income is not reported apart; .*may be too low as well as too high$/);
    expect(periods[1]!.income_based).toEqual(expect.any(Number));
    expect(body.estimated_periods).toBe(1);
    // The main stock's filings report interest income as such.
    const plain = await post({ market: 'us', ticker, framework: 'shariah_aaoifi', lots: [{ shares: 1, bought_on: '2020-02-15' }] });
    expect(plain.body.estimated_periods).toBe(0);
  });

  it('when a lot spans a non-compliant quarter, then each period carries its evidence and the total matches a hand computation', async () => {
    const { status, body } = await post({
      market: 'us',
      ticker: ticker.toLowerCase(),
      framework: 'shariah_aaoifi',
      lots: [{ shares: 120, bought_on: '2020-02-15', sold_on: '2020-11-10' }],
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ market: 'us', ticker, framework: 'shariah_aaoifi', method: 'impermissible_income_per_share' });
    expect(body.currency).toBe('USD');
    const lot = body.lots[0];
    // Held 2020-02-15 up to, not including, 2020-11-10: the snapshots of 2019-12-31, 03-31, 06-30 and 09-30 in force.
    expect(lot.periods.map((p: Json) => [p.from, p.through, p.days, p.snapshot.date])).toEqual([
      ['2020-02-15', '2020-03-30', 45, '2019-12-31'],
      ['2020-03-31', '2020-06-29', 91, '2020-03-31'],
      ['2020-06-30', '2020-09-29', 92, '2020-06-30'],
      ['2020-09-30', '2020-11-09', 41, '2020-09-30'],
    ]);
    expect(lot).toMatchObject({ held_through: '2020-11-09', days: 269, sold_on: '2020-11-10' });
    expect(lot.periods.map((p: Json) => p.snapshot.status)).toEqual(q.slice(0, 4).map((f) => f.status));
    expect(lot.periods.map((p: Json) => p.snapshot.status)).toContain('non_compliant');
    lot.periods.forEach((p: Json, i: number) => {
      expect(p.filing.source_ref).toBe(q[i]!.filing);
      expect(p.non_permissible_income_ratio).toBe(q[i]!.npi);
      expect(p.dividends_per_share_ttm).toBe(q[i]!.dps);
      expect(p.currency).toBe('USD');
      expect(p.missing).toEqual([]);
    });

    // By hand: shares × (ratio × revenue ÷ shares outstanding) × days ÷ 365, and shares × dividends × ratio × days ÷ 365.
    const income = (f: (typeof q)[number], days: number) => (120 * ((f.npi * f.revenue) / f.shares) * days) / 365;
    const dividend = (f: (typeof q)[number], days: number) => (120 * (f.dps * f.npi) * days) / 365;
    const byIncome = income(q[0]!, 45) + income(q[1]!, 91) + income(q[2]!, 92) + income(q[3]!, 41);
    const byDividend = dividend(q[0]!, 45) + dividend(q[1]!, 91) + dividend(q[2]!, 92) + dividend(q[3]!, 41);
    expect(byIncome).toBeGreaterThan(0);
    expect(body.amount_to_purify).toBeCloseTo(byIncome, 10);
    expect(body.complete).toBe(true);
    expect(body.totals.income_based).toMatchObject({ complete: true, periods_missing: 0 });
    expect(body.totals.income_based.amount).toBeCloseTo(byIncome, 10);
    expect(body.totals.dividend_based.amount).toBeCloseTo(byDividend, 10);
    expect(body.provenance).toMatchObject({ data_sources: ['sample (synthetic sample universe)'], synthetic: true });
    expect(body.provenance.notice).toMatch(/Synthetic sample data/);
    expect(body.rules.dividend_based).toMatch(/not dividend events with ex-dates/);
  });

  it('when a day was screened twice, then the newest screen of the day is the one in force', async () => {
    const { status, body } = await post({
      market: 'us',
      ticker: rescreened,
      framework: 'shariah_aaoifi',
      lots: [{ shares: 1, bought_on: '2020-07-01', sold_on: '2020-07-11' }],
    });
    expect(status).toBe(200);
    expect(body.lots[0].periods).toHaveLength(1);
    expect(body.lots[0].periods[0].snapshot.date).toBe('2020-06-30');
    expect(body.lots[0].periods[0].non_permissible_income_ratio).toBe(rescreenedRatio);
  });

  it('when several lots are sent, then the totals add up across lots and a DJIM request uses the dividend method', async () => {
    const lots = [
      { shares: 10, bought_on: '2020-01-01', sold_on: '2020-07-01' },
      { shares: 5.5, bought_on: '2020-04-01', sold_on: '2021-01-01' },
    ];
    const { status, body } = await post({ market: 'us', ticker, framework: 'shariah_djim', lots });
    expect(status).toBe(200);
    expect(body.method).toBe('dividend_ratio');
    const sum = body.lots[0].totals.dividend_based.amount + body.lots[1].totals.dividend_based.amount;
    expect(body.totals.dividend_based.amount).toBeCloseTo(sum, 12);
    expect(body.amount_to_purify).toBeCloseTo(body.totals.dividend_based.amount, 12);
  });

  it('when a lot is still held past the last snapshot it may carry, then those days say so and the totals are null, not 0', async () => {
    const { status, body } = await post({
      market: 'us',
      ticker,
      framework: 'shariah_aaoifi',
      lots: [{ shares: 10, bought_on: '2021-01-15' }],
    });
    expect(status).toBe(200);
    const periods = body.lots[0].periods as Json[];
    expect(body.lots[0].held_through).toBe(TODAY);
    const gap = periods.at(-1)!;
    expect(gap).toMatchObject({ from: '2022-04-02', through: TODAY, snapshot: null, income_based: null, dividend_based: null });
    expect(gap.missing[0]).toMatch(/no snapshot within 366 days \(the latest before is dated 2021-03-31\)/);
    expect(body).toMatchObject({ amount_to_purify: null, complete: false });
    expect(body.totals.income_based).toMatchObject({ amount: null, complete: false, periods_missing: 1 });
    expect(body.totals.income_based.amount_known).toBeGreaterThan(0);
  });

  it('when a lot costs units, then each lot costs 2 (tag screen/history) and a refused request costs nothing', async () => {
    const own = await keyFor(access, 'pro');
    const lot = { shares: 1, bought_on: '2020-01-01', sold_on: '2020-02-01' };
    expect((await post({ market: 'us', ticker, framework: 'shariah_aaoifi', lots: [lot, lot, lot] }, own.key)).status).toBe(200);
    expect(await used(own.keyId)).toBe(6);
    expect((await post({ market: 'us', ticker, framework: 'shariah_aaoifi', lots: [{ ...lot, shares: 0 }] }, own.key)).status).toBe(400);
    expect(await used(own.keyId)).toBe(6);
  });

  describe('refusals', () => {
    const lot = { shares: 10, bought_on: '2020-01-01', sold_on: '2020-06-01' };
    const body = (over: Json = {}) => ({ market: 'us', ticker, framework: 'shariah_aaoifi', lots: [lot], ...over });

    it.each([
      ['shares 0', { lots: [{ ...lot, shares: 0 }] }, /lots\.0\.shares: shares must be greater than 0/],
      ['negative shares', { lots: [{ ...lot, shares: -3 }] }, /lots\.0\.shares: shares must be greater than 0/],
      ['not a calendar date', { lots: [{ ...lot, bought_on: '2020-02-30' }] }, /lots\.0\.bought_on: '2020-02-30' is not a calendar date/],
      ['not YYYY-MM-DD', { lots: [{ ...lot, sold_on: '2020/06/01' }] }, /lots\.0\.sold_on: expected a date YYYY-MM-DD/],
      [
        'sold before bought',
        { lots: [{ ...lot, sold_on: '2019-12-01' }] },
        /lots\.0\.sold_on: 2019-12-01 is not after bought_on 2020-01-01/,
      ],
      ['sold the day bought', { lots: [{ ...lot, sold_on: '2020-01-01' }] }, /is not after bought_on/],
      ['bought in the future', { lots: [{ shares: 1, bought_on: '2999-01-01' }] }, /lots\.0\.bought_on: 2999-01-01 is in the future/],
      ['unknown framework', { framework: 'halal_x' }, /framework: unknown framework id\(s\) halal_x; valid ids: shariah_aaoifi/],
      ['two frameworks', { framework: 'shariah_aaoifi,shariah_djim' }, /framework: name exactly one framework id, got 2/],
      ['no lots', { lots: [] }, /send at least one lot/],
      ['51 lots', { lots: Array.from({ length: 51 }, () => lot) }, /at most 50 lots/],
      ['unknown market', { market: 'xx' }, /body\.market: unknown market 'xx'; valid markets: us/],
      ['invalid ticker', { ticker: 'BAD$' }, /ticker: invalid ticker 'BAD\$'/],
    ])('when the body has %s, then 400 names the problem', async (_what, over, pattern) => {
      const answer = await post(body(over));
      expect(answer.status).toBe(400);
      expect(answer.type).toMatch(/application\/json/);
      expect(String(answer.body.detail)).toMatch(pattern);
    });

    it('when the framework has no purification, then 422 names the frameworks that have it', async () => {
      const answer = await post(body({ framework: 'christian_bri' }));
      expect(answer.status).toBe(422);
      expect(answer.body.detail).toBe(
        `framework: christian_bri has no purification (it screens by exclusion, not by income); ` +
          `frameworks with purification: ${SHARIAH_FRAMEWORK_IDS.join(', ')}`,
      );
    });

    it('when a lot starts before 2009-01-01, then 422 says where history starts', async () => {
      const answer = await post(body({ lots: [{ shares: 1, bought_on: '2008-06-30', sold_on: '2010-01-01' }] }));
      expect(answer.status).toBe(422);
      expect(answer.body.detail).toMatch(/lots\.0\.bought_on: 2008-06-30 is before 2009-01-01, where compliance history starts/);
    });

    it('when no snapshot covers a lot, or the listing has none, then 422 no_history says where its snapshots start', async () => {
      const early = await post(body({ lots: [{ shares: 1, bought_on: '2012-01-01', sold_on: '2013-01-01' }] }));
      expect(early.status).toBe(422);
      expect(early.body.detail).toBe(
        `lots.0: no compliance snapshot of us/${ticker} is in force from 2012-01-01 to 2012-12-31; its ` +
          `snapshots run from 2019-12-31 to 2021-03-31, each in force for at most 366 days`,
      );
      const late = await post(body({ lots: [{ shares: 1, bought_on: '2023-01-01', sold_on: '2023-06-01' }] }));
      expect(late.status).toBe(422);
      expect(late.body.detail).toMatch(/in force from 2023-01-01 to 2023-05-31; its snapshots run from 2019-12-31 to 2021-03-31/);
      const unscreened = await post(body({ ticker: fund }));
      expect(unscreened.status).toBe(422);
      expect(unscreened.body.detail).toMatch(/it has no snapshots yet/);
    });

    it('when the body has the wrong types, then 422 names the field', async () => {
      const answer = await post(body({ lots: [{ ...lot, shares: '10' }] }));
      expect(answer.status).toBe(422);
      expect(answer.body.detail).toMatch(/lots\.0\.shares: expected number/);
      expect((await post('[1, 2]')).status).toBe(422);
    });

    it('when the ticker is not listed, then 404 says how to look it up', async () => {
      const answer = await post(body({ ticker: 'ZZZZ9' }));
      expect(answer.status).toBe(404);
      expect(answer.body.detail).toMatch(/ticker 'ZZZZ9' is not listed in market 'us'; look it up with GET \/api\/universe\/search/);
    });

    it('when the body is over 64 kB, then 413; when the route is asked with GET, then 405 naming POST', async () => {
      const big = await post(body({ note: 'x'.repeat(70_000) }));
      expect(big.status).toBe(413);
      expect(big.body.detail).toMatch(/the limit is 64 kB/);
      const get = await fetch(`${server.url}/api/purification`, { headers: { 'X-API-Key': key.key } });
      expect(get.status).toBe(405);
      expect(get.headers.get('allow')).toBe('POST');
    });

    it('when no key is sent, then 401', async () => {
      const answer = await post(body(), null);
      expect(answer.status).toBe(401);
      expect(answer.body.detail).toMatch(/X-API-Key/);
    });

    it('when the key is not granted the market, the framework or the history tag, then the same 403 the screen endpoint gives', async () => {
      const gbOnly = await keyFor(access, 'partner', { markets: ['gb'] });
      const market = await post(body(), gbOnly.key);
      expect(market.status).toBe(403);
      expect(market.body.detail).toBe("this key is not provisioned for market 'us'; it may use: gb");
      const djimOnly = await keyFor(access, 'partner', { frameworks: ['shariah_djim'] });
      const framework = await post(body(), djimOnly.key);
      expect(framework.status).toBe(403);
      expect(framework.body.detail).toBe('this key is not provisioned for framework(s) shariah_aaoifi; it may see: shariah_djim');
      const screen = await fetch(`${server.url}/api/screen/us/${ticker}?framework=shariah_aaoifi&as_of=2020-06-30`, {
        headers: { 'X-API-Key': djimOnly.key },
      });
      expect(((await screen.json()) as Json).detail).toBe(framework.body.detail);
      const screenOnly = await keyFor(access, 'partner', { endpoints: ['screen'] });
      const endpoint = await post(body(), screenOnly.key);
      expect(endpoint.status).toBe(403);
      expect(endpoint.body.detail).toBe("this key is not provisioned for endpoint 'screen/history'; it may use: screen");
    });
  });

  it('documents the route in /openapi.json with its tag, unit cost and answers', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as Json;
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    const op = doc.paths['/api/purification'].post;
    expect(op).toMatchObject({ 'x-endpoint-tag': 'screen/history', 'x-unit-cost': '2 per lot', security: [{ apiKey: [] }] });
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404', '413', '422', '429']));
    expect(doc.components.schemas.PurificationResponse).toBeDefined();
  });
});
