import { Validator } from '@seriousme/openapi-schema-validator';
import { tableFromIPC } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAMEWORK_IDS } from '../../engine/index.ts';
import { MARKETS } from '../../common/markets.ts';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { lakeRoot } from '../../warehouse/lake-paths.ts';
import { readSql, sql } from '../../warehouse/sql.ts';
import { type FixtureTickers, type ServedLakeApi, type TestApi, serveLakeApi } from './support/lake-fixture.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response JSON under test
type Json = Record<string, any>;

describe('batch, ETF, compare, reference lists, export and OpenAPI over real HTTP', () => {
  let lake: ServedLakeApi;
  let api: TestApi;
  let server: ServedLakeApi['server'];
  let t: FixtureTickers;
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${server.url}${path}`, { headers });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });
    return { status: response.status, body: (await response.json()) as Json };
  };

  beforeAll(async () => {
    lake = await serveLakeApi();
    ({ t, api, server } = lake);
  }, 120_000);
  afterAll(() => lake?.close());

  it('when a batch mixes good and bad items, then each bad item is an error entry and the others succeed', async () => {
    const { status, body } = await post('/api/screen/batch', {
      tickers: [
        { market: 'us', ticker: t.fresh[0] },
        { market: 'mars', ticker: 'X' },
        'AAPL',
        { market: 'us', ticker: 'NOPE9' },
        { market: 'us', ticker: t.fresh[1]!.toLowerCase() },
      ],
      frameworks: ['shariah_djim'],
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ requested: 5, succeeded: 2, failed: 3 });
    expect(body.results.map((r: Json) => r.ticker)).toEqual([t.fresh[0], t.fresh[1]]);
    expect(body.results[0].report.frameworks_returned).toEqual(['shariah_djim']);
    expect(body.errors).toEqual([
      { index: 1, market: 'mars', ticker: 'X', status: 400, detail: expect.stringMatching(/unknown market/) },
      { index: 2, market: null, ticker: null, status: 422, detail: expect.stringMatching(/expected object/) },
      { index: 3, market: 'us', ticker: 'NOPE9', status: 404, detail: expect.stringMatching(/not listed/) },
    ]);
  });

  it('when a fund is screened, then its top holdings are those of its latest report, heaviest first, each with its current verdicts, and framework_stats count them', async () => {
    // The fund's latest report read straight from the lake's Parquet files, not through the API's reads.
    const report = await withDuckDB(':memory:', {}, async (c) =>
      (
        await readSql(
          c,
          sql`WITH h AS (SELECT * FROM read_parquet(${`${lakeRoot(lake.dataDir)}/fund_holdings/fund_market=us/**/*.parquet`})
                WHERE fund_ticker = ${t.fund.ticker})
              SELECT CAST(market AS VARCHAR) AS market, ticker, weight FROM h
              WHERE as_of = (SELECT max(as_of) FROM h) ORDER BY weight DESC, market, ticker`,
        )
      ).getRowObjectsJS(),
    );
    // The fixture fund holds more than the top-5 cut, so both the cut and the count are tested.
    expect(report.length).toBeGreaterThan(5);
    const top = report.slice(0, 5);

    const { status, body } = await post('/api/screen/etf', { etf_ticker: t.fund.ticker, max_holdings: 5 });

    expect(status).toBe(200);
    expect(body).toMatchObject({ etf_ticker: t.fund.ticker, market: 'us', holdings_in_report: report.length, holdings_screened: 5 });
    expect(body.holdings.map((h: Json) => [h.market, h.ticker])).toEqual(top.map((h) => [h.market, h.ticker]));
    body.holdings.forEach((h: Json, i: number) => expect(h.weight).toBeCloseTo(Number(top[i]!.weight), 6));
    expect(body.covered_weight).toBeCloseTo(
      top.reduce((sum, h) => sum + Number(h.weight), 0),
      5,
    );
    for (const h of body.holdings) {
      const row = api.reads.current(h.market, h.ticker);
      expect(h.verdicts).toEqual(row ? Object.fromEntries(FRAMEWORK_IDS.map((id) => [id, row.statuses[id]])) : null);
      expect(h.snapshot_date).toBe(row?.snapshotDate ?? null);
    }
    // Most fixture stocks are screened today, so a look-through that drops every verdict fails here.
    expect(body.holdings.filter((h: Json) => h.verdicts !== null).length).toBeGreaterThan(0);
    const BUCKETS = { compliant: 'pass', non_compliant: 'fail', questionable: 'questionable', insufficient_data: 'unknown' } as const;
    for (const id of FRAMEWORK_IDS) {
      const expected: Json = {
        pass: 0,
        fail: 0,
        questionable: 0,
        unknown: 0,
        pass_weight: 0,
        fail_weight: 0,
        questionable_weight: 0,
        unknown_weight: 0,
      };
      for (const h of body.holdings) {
        const bucket = h.verdicts ? BUCKETS[h.verdicts[id] as keyof typeof BUCKETS] : 'unknown';
        expected[bucket] += 1;
        expected[`${bucket}_weight`] += h.weight;
      }
      const s = body.framework_stats[id];
      expect([s.pass, s.fail, s.questionable, s.unknown]).toEqual([expected.pass, expected.fail, expected.questionable, expected.unknown]);
      for (const bucket of ['pass', 'fail', 'questionable', 'unknown'])
        expect(s[`${bucket}_weight`]).toBeCloseTo(expected[`${bucket}_weight`], 5);
    }
  });

  it('when two tickers are compared, then statuses sit side by side with agree flags and a differences list', async () => {
    const [a, b] = [t.fresh[0]!, t.fresh[1]!];
    const { status, body } = await get(`/api/screen/compare?tickers=${a},${b.toLowerCase()}`);
    expect(status).toBe(200);
    expect(body.tickers).toEqual([a, b]);
    for (const id of FRAMEWORK_IDS) {
      const row = body.frameworks[id];
      expect(row.agree).toBe(row[a] === row[b]);
    }
    expect(body.differences.map((d: Json) => d.framework)).toEqual(FRAMEWORK_IDS.filter((id) => !body.frameworks[id].agree));
    expect(Object.keys(body.ratios.debt_to_assets)).toEqual([a, b]);
  });

  it('lists the 10 frameworks publicly', async () => {
    const { body } = await get('/api/screen/frameworks');
    expect(body.count).toBe(10);
    expect(body.frameworks.map((f: Json) => f.id)).toEqual([...FRAMEWORK_IDS]);
    expect(body.frameworks[0]).toEqual({ id: 'shariah_aaoifi', label: expect.any(String), tradition: 'Islamic' });
    expect(body.key_scope).toBeUndefined();
  });

  it('lists the markets with live listing counts and exchange codes', async () => {
    const { body } = await get('/api/markets');
    expect(body.count).toBe(MARKETS.length);
    const us = body.markets.find((m: Json) => m.market_key === 'us');
    expect(us).toMatchObject({ slug: 'united-states', name: 'United States', exchange_codes: expect.arrayContaining(['XNYS', 'XNAS']) });
    expect(us.total_listed).toBe(api.reads.listingCounts().get('us'));
    expect(us.total_listed).toBeGreaterThan(0);
    expect(body.markets.find((m: Json) => m.market_key === 'jp').total_listed).toBe(0);
  });

  it('searches by ticker prefix and by name, case-insensitively, within a market and a limit', async () => {
    const listing = api.reads.listing('us', t.fresh[0]!)!;
    const byTicker = await get(`/api/universe/search?q=${listing.ticker.slice(0, 2).toLowerCase()}&market=us`);
    expect(byTicker.body.results[0].ticker.startsWith(listing.ticker.slice(0, 2))).toBe(true);
    const word = listing.name.split(' ')[0]!;
    const byName = await get(`/api/universe/search?q=${encodeURIComponent(word.toUpperCase())}&limit=3`);
    expect(byName.body).toMatchObject({ query: word.toUpperCase(), count: expect.any(Number) });
    expect(byName.body.results.length).toBeLessThanOrEqual(3);
    expect(byName.body.results.some((r: Json) => r.name === listing.name)).toBe(true);
    expect(byName.body.results[0]).toEqual({
      ticker: expect.any(String),
      name: expect.any(String),
      market: expect.any(String),
      exchange: expect.any(String),
      kind: expect.any(String),
    });
  });

  it('exports current verdicts as an Arrow IPC stream that reads back with the right rows', async () => {
    const response = await fetch(`${server.url}/api/export/verdicts?market=us`, {
      headers: { accept: 'application/vnd.apache.arrow.stream' },
    });
    expect(response.headers.get('content-type')).toBe('application/vnd.apache.arrow.stream');
    const table = tableFromIPC(new Uint8Array(await response.arrayBuffer()));
    const expected = (await api.reads.verdicts('us', null)).length;
    expect(table.numRows).toBe(expected);
    expect(table.numRows).toBe(t.fresh.length + 3);
    expect(table.schema.fields.map((f) => f.name)).toEqual(
      expect.arrayContaining(['ticker', 'shariah_aaoifi_status', 'debt_to_assets', 'synthetic']),
    );
    expect(table.getChild('synthetic')?.get(0)).toBe(true);
  });

  it("exports a day's snapshots as JSON lines", async () => {
    const response = await fetch(`${server.url}/api/export/verdicts?market=us&date=2015-06-30`, {
      headers: { accept: 'application/x-ndjson' },
    });
    const lines = (await response.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Json);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ ticker: t.withHistory, snapshot_date: '2015-06-30', era: 'legacy', source: 'backfill' });
  });

  it('serves an OpenAPI 3.1 document that a real validator accepts, and a docs page with local assets', async () => {
    const { body } = await get('/openapi.json');
    const result = await new Validator().validate(body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(body.openapi).toBe('3.1.0');
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining([
        '/api/screen/{market}/{ticker}',
        '/api/screen/{market}/{ticker}/timeline',
        '/api/screen/batch',
        '/api/screen/etf',
        '/api/screen/compare',
        '/api/markets',
        '/api/universe/search',
      ]),
    );
    const page = await (await fetch(`${server.url}/docs`)).text();
    expect(page).toContain('/docs/assets/swagger-ui-bundle.js');
    expect(page).not.toMatch(/https?:\/\//);
    const asset = await fetch(`${server.url}/docs/assets/swagger-ui-bundle.js`);
    expect(asset.status).toBe(200);
    expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });

  it('picks up snapshots published after start without a restart', async () => {
    const before = api.reads.stats().snapshots;
    const { writeSnapshots } = await import('../../warehouse/snapshot-writer.ts');
    const { snapshotRowFrom } = await import('../../activities/snapshot-rows.ts');
    const { screenCompany } = await import('../../engine/index.ts');
    const { withDuckDB } = await import('../../warehouse/duckdb.ts');
    const { loadScreeningInputs } = await import('../../warehouse/screening-inputs.ts');
    const today = new Date().toISOString().slice(0, 10);
    const [input] = await withDuckDB(':memory:', {}, (c) =>
      loadScreeningInputs(c, lake.dataDir, { market: 'us', date: today, tickers: [t.unscreened] }),
    );
    await writeSnapshots(
      lake.dataDir,
      [snapshotRowFrom(input!, screenCompany(input!), { source: 'nightly', runId: 'late', screenedAt: `${today}T05:00:00.000` })],
      { fileStem: 'late' },
    );
    await api.reads.sync();
    expect(api.reads.stats().snapshots).toBe(before + 1);
    const { status, body } = await get(`/api/screen/us/${t.unscreened}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ from_cache: true, stale: false });
  });

  it('when a snapshot was computed by an earlier engine version, then it is served with that version and its reasons as stored', async () => {
    const { writeSnapshots } = await import('../../warehouse/snapshot-writer.ts');
    const { snapshotRowFrom } = await import('../../activities/snapshot-rows.ts');
    const { screenCompany, ENGINE_VERSION } = await import('../../engine/index.ts');
    const { withDuckDB } = await import('../../warehouse/duckdb.ts');
    const { loadScreeningInputs } = await import('../../warehouse/screening-inputs.ts');
    const today = new Date().toISOString().slice(0, 10);
    const ticker = t.fresh[2]!;
    const [input] = await withDuckDB(':memory:', {}, (c) =>
      loadScreeningInputs(c, lake.dataDir, { market: 'us', date: today, tickers: [ticker] }),
    );
    // A result as engine 1.0.0 stored it: its version, and a tolerance band on a ratio check.
    const result = screenCompany(input!);
    const legacy = structuredClone(result);
    legacy.engine_version = '1.0.0';
    const debt = legacy.frameworks.shariah_ftse!.reasons.find((r) => r.code === 'shariah_ftse.debt')!;
    delete debt.margin;
    delete debt.near_limit;
    Object.assign(debt, {
      band_low: 0.32333,
      band_high: 0.34333,
      band_basis: 'service tolerance ±1 percentage point (data and definitional uncertainty)',
    });
    const row = snapshotRowFrom(input!, legacy, { source: 'nightly', runId: 'engine-1', screenedAt: `${today}T06:00:00.000` });
    expect(row.engine_version).toBe('1.0.0');
    await writeSnapshots(lake.dataDir, [row], { fileStem: 'engine-1' });
    await api.reads.sync();
    const { status, body } = await get(`/api/screen/us/${ticker}?framework=shariah_ftse`);
    expect(status).toBe(200);
    expect(ENGINE_VERSION).not.toBe('1.0.0');
    expect(body.report.financial_data.provenance.engine_version).toBe('1.0.0');
    expect(body.report.shariah_ftse.status).toBe(result.frameworks.shariah_ftse!.status);
    expect(body.report.shariah_ftse.reasons.find((r: Json) => r.code === 'shariah_ftse.debt')).toMatchObject({
      band_low: 0.32333,
      band_high: 0.34333,
    });
  });
});
