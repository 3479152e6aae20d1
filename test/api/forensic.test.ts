import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessSetup } from '../../access/open-access.ts';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { lakeRoot } from '../../warehouse/lake-paths.ts';
import { keyFor, meterUsed, openTestAccess } from '../support/access.ts';
import { type LakeStock, readLakeStocks } from '../support/lake-stocks.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { type FixtureTickers, type ServedLakeApi, TODAY, serveLakeApi } from './support/lake-fixture.ts';
import { copyToParquetSql } from '../../warehouse/lake-sql.ts';
import { readSql, runSql, sql } from '../../warehouse/sql.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON under test
type Json = Record<string, any>;

const SCORES = ['beneish_m_score', 'altman_z_score', 'piotroski_f_score', 'sloan_accrual_ratio', 'benford_first_digit'];

/** Extra feed listings in the lake: a ticker listed in two non-US markets, a US ticker also listed in gb, a stock with no SIC and no filings. */
async function addListings(dataDir: string, usTicker: string): Promise<void> {
  const rows: Array<[string, string, string | null]> = [
    ['gb', 'TWIN', '3560'],
    ['de', 'TWIN', '3560'],
    ['gb', usTicker, '3560'],
    ['us', 'NOFILE', null],
  ];
  await withDuckDB(':memory:', {}, async (c) => {
    for (const [market, ticker, sic] of rows) {
      const dir = path.join(lakeRoot(dataDir), 'listings', `market=${market}`);
      mkdirSync(dir, { recursive: true });
      const listing = sql`SELECT ${ticker} AS ticker, ${`Fictional ${ticker} Test Plc`} AS name, 'XLON' AS exchange_mic, 'stock' AS kind,
        'GBP' AS currency, CAST(${sic} AS VARCHAR) AS sic, 'test' AS sic_description,
        CAST(NULL AS BOOLEAN) AS heter_iska, CAST(NULL AS BOOLEAN) AS operates_on_shabbat,
        DATE '2000-01-01' AS listed_on, 'feed:test' AS source_ref, 'feed' AS data_source, false AS synthetic`;
      await runSql(c, copyToParquetSql(listing, path.join(dir, `forensic-extra-${ticker}.parquet`)));
    }
  });
}

describe('forensic endpoints over real HTTP and a real sample lake', () => {
  let lake: ServedLakeApi;
  let t: FixtureTickers;
  let access: AccessSetup;
  let serviceDir: Awaited<ReturnType<typeof makeTempDir>>;
  let key: string;
  let full: string;

  const call = async (url: string, apiKey: string | null = key) => {
    const response = await fetch(`${lake.server.url}${url}`, { headers: apiKey === null ? {} : { 'X-API-Key': apiKey } });
    return { status: response.status, body: (await response.json()) as Json };
  };
  /** Units spent by a key (the meter's spare units go back first, so the store shows exactly what was spent). */
  const used = async (keyId: string) => {
    await access.meter.returnSpare();
    return meterUsed(access, keyId); // a self-serve key spends its account's window
  };

  beforeAll(async () => {
    serviceDir = await makeTempDir();
    access = await openTestAccess(serviceDir.dir);
    lake = await serveLakeApi(undefined, access.middleware);
    t = lake.t;
    key = (await keyFor(access, 'enterprise')).key;
    await addListings(lake.dataDir, t.fresh[0]!);
    // Files written by hand are not in the serving store: a sync from the lake (as at every start) copies them.
    await lake.api.reads.syncFromLake();
    // A company whose every score computes (most sample companies; a few leave figures unreported).
    for (const ticker of t.fresh) {
      const { body } = await call(`/api/forensic/${ticker}`);
      if (SCORES.every((s) => body.scores?.[s]?.status !== 'insufficient_data')) {
        full = ticker;
        break;
      }
    }
  }, 180_000);
  afterAll(async () => {
    await lake?.close();
    await access?.close();
    await serviceDir?.cleanup();
  });

  describe('GET /api/forensic/{ticker}', () => {
    it('when a company has years of filings, then every score shows inputs from named filings, the periods a year apart, thresholds and a reading', async () => {
      expect(full).toBeDefined();
      const { status, body } = await call(`/api/forensic/${full.toLowerCase()}`);
      expect(status).toBe(200);
      expect(body).toMatchObject({ ticker: full, market: 'us', as_of: TODAY, currency: 'USD' });
      const { current, prior, prior2 } = body.periods;
      expect(Number(current.period_end.slice(0, 4)) - Number(prior.period_end.slice(0, 4))).toBe(1);
      expect(prior.period_end.slice(5)).toBe(current.period_end.slice(5));
      expect(prior2.period_end.slice(5)).toBe(current.period_end.slice(5));
      expect(current.source_ref).toBe(`sample:v1:us:${full}:${current.period_end}`);
      for (const name of SCORES) {
        const score = body.scores[name];
        expect(score.method.source).not.toBe('');
        expect(score.thresholds.length).toBeGreaterThan(0);
        if (score.status === 'not_applicable') continue;
        expect(score.status).toBe('ok');
        expect(typeof score.value).toBe('number');
        expect(typeof score.reading).toBe('string');
      }
      const beneish = body.scores.beneish_m_score;
      expect(Object.keys(beneish.components)).toEqual(['dsri', 'gmi', 'aqi', 'sgi', 'depi', 'sgai', 'lvgi', 'tata']);
      expect(beneish.reading).toBe(beneish.value > -1.78 ? 'likely manipulator' : 'unlikely manipulator');
      expect(beneish.inputs.every((i: Json) => i.source_ref.startsWith(`sample:v1:us:${full}:`) && i.filed_on <= TODAY)).toBe(true);
      expect(Object.keys(body.scores.piotroski_f_score.components)).toHaveLength(9);
      expect(body.scores.benford_first_digit.components.digits).toHaveLength(9);
      expect(body.provenance).toMatchObject({ synthetic: true, as_of: TODAY, notice: expect.stringMatching(/^Synthetic sample data/) });
      expect(body.health_score.status).toBe('ok');
      expect(body.history[0]).toMatchObject({
        period_end: current.period_end,
        source_ref: current.source_ref,
        beneish_m_score: { value: beneish.value, reading: beneish.reading },
        piotroski_f_score: { value: body.scores.piotroski_f_score.value },
      });
      expect(body.history.length).toBeGreaterThan(1);
      expect(body.history[1].period_end).toBe(prior.period_end);
    });

    it("when an input is shown, then it is the figure of the lake's Parquet file for that filing", async () => {
      const { body } = await call(`/api/forensic/${full}`);
      const used = body.scores.sloan_accrual_ratio.inputs.find((i: Json) => i.field === 'total_assets' && i.period === 'current');
      const [row] = await withDuckDB(':memory:', {}, async (c) =>
        (
          await readSql(
            c,
            sql`SELECT total_assets FROM read_parquet(${`${lakeRoot(lake.dataDir)}/fundamentals/market=us/**/*.parquet`})
              WHERE source_ref = ${String(used.source_ref)}`,
          )
        ).getRowObjectsJS(),
      );
      expect(row!.total_assets).toBe(used.value);
    });

    it("when the SIC code says which Altman model fits, then that variant is used (manufacturing 2000–3999: Z or Z'; finance 6000–6799: not applicable; else Z'')", async () => {
      const seen: Array<[string, string, string]> = [];
      for (const ticker of t.fresh.slice(0, 12)) {
        const { body } = await call(`/api/forensic/${ticker}`);
        const sic = Number(body.sic);
        const altman = body.scores.altman_z_score;
        const marketValue = altman.inputs.some((i: Json) => i.field === 'market_value_of_equity');
        const expected =
          sic >= 6000 && sic <= 6799
            ? 'not_applicable'
            : sic >= 2000 && sic <= 3999
              ? marketValue
                ? 'original'
                : 'private'
              : 'non_manufacturing';
        seen.push([ticker, altman.status === 'not_applicable' ? 'not_applicable' : altman.components.variant, expected]);
      }
      expect(seen.map(([ticker, actual]) => [ticker, actual])).toEqual(seen.map(([ticker, , expected]) => [ticker, expected]));
    });

    it('when as_of is given, then only filings filed by then count', async () => {
      const { status, body } = await call(`/api/forensic/${full}?as_of=2015-06-30`);
      expect(status).toBe(200);
      expect(body.as_of).toBe('2015-06-30');
      expect(body.periods.current.filed_on <= '2015-06-30').toBe(true);
      expect(body.scores.beneish_m_score.inputs.every((i: Json) => i.filed_on <= '2015-06-30')).toBe(true);
    });

    it('when a listed stock has no filings, then 200 with every score insufficient_data naming the missing periods', async () => {
      const { status, body } = await call('/api/forensic/NOFILE');
      expect(status).toBe(200);
      for (const name of SCORES) expect(body.scores[name].status).toBe('insufficient_data');
      expect(body.scores.beneish_m_score.missing).toContainEqual({
        field: 'period',
        period: 'current',
        period_end: null,
        reason: 'no current period in the filings',
      });
      expect(body.health_score).toMatchObject({ status: 'insufficient_data', value: null, coverage: 0 });
      expect(body.provenance).toMatchObject({ synthetic: false, filings_considered: 0 });
    });
  });

  describe('GET /api/forensic/{ticker}/health-score', () => {
    it('when asked, then the composite 0–100 and its five components equal the full report’s', async () => {
      const [health, report] = await Promise.all([call(`/api/forensic/${full}/health-score`), call(`/api/forensic/${full}`)]);
      expect(health.status).toBe(200);
      expect(health.body.health_score).toEqual(report.body.health_score);
      expect(health.body.health_score.value).toBeGreaterThanOrEqual(0);
      expect(health.body.health_score.value).toBeLessThanOrEqual(100);
      expect(health.body.health_score.components.map((c: Json) => c.component)).toEqual([
        'altman',
        'piotroski',
        'beneish',
        'sloan',
        'benford',
      ]);
      expect(health.body.scores).toBeUndefined();
      expect(health.body.provenance.synthetic).toBe(true);
    });
  });

  describe('GET /api/forensic/{ticker}/peers', () => {
    /** A fresh stock whose 4-digit SIC has fewer than 5 other members but whose major group has at least 5, and its major group. */
    const widenedCase = async () => {
      const stocks = await readLakeStocks(lake.dataDir, 'us', TODAY);
      const groupOf = (c: LakeStock) => stocks.filter((s) => s.ticker !== c.ticker && s.sic.slice(0, 2) === c.sic.slice(0, 2));
      const company = stocks.find((c) => {
        const same = groupOf(c).filter((s) => s.sic === c.sic).length;
        return t.fresh.includes(c.ticker) && same > 0 && same < 5 && groupOf(c).length >= 5;
      });
      expect(company).toBeDefined();
      return { company: company!, group: groupOf(company!) };
    };

    it('when n is left out, then the 5 closest same-industry peers come ranked: own SIC first, then the major group, each by size', async () => {
      const { company, group } = await widenedCase();
      // The ranking rule worked by hand on the lake's figures: |ln(peer assets / company assets)|, ties by ticker.
      const byCloseness = (members: LakeStock[]) =>
        members
          .map((s) => ({ s, d: Math.abs(Math.log(s.totalAssets / company.totalAssets)) }))
          .sort((a, b) => a.d - b.d || a.s.ticker.localeCompare(b.s.ticker));
      const expected = [
        ...byCloseness(group.filter((s) => s.sic === company.sic)).map((p) => ({ ...p, match: 'sic4' })),
        ...byCloseness(group.filter((s) => s.sic !== company.sic)).map((p) => ({ ...p, match: 'sic2' })),
      ].slice(0, 5);

      const { status, body } = await call(`/api/forensic/${company.ticker}/peers`);

      expect(status).toBe(200);
      expect(body).toMatchObject({ ticker: company.ticker, market: 'us', as_of: TODAY, n: 5, returned: 5 });
      expect(body.company).toMatchObject({ ticker: company.ticker, match: 'company', size_distance: 0, total_assets: company.totalAssets });
      expect(body.ranking).toMatchObject({ sic: company.sic, major_group: company.sic.slice(0, 2), widened_to_major_group: true });
      expect(body.ranking.note).toMatch(new RegExp(`fewer than 5 listings share SIC ${company.sic}`));
      expect(
        body.peers.map((p: Json) => ({
          rank: p.rank,
          ticker: p.ticker,
          sic: p.sic,
          match: p.match,
          total_assets: p.total_assets,
          total_assets_period_end: p.total_assets_period_end,
          size_distance: p.size_distance,
        })),
      ).toEqual(
        expected.map((p, i) => ({
          rank: i + 1,
          ticker: p.s.ticker,
          sic: p.s.sic,
          match: p.match,
          total_assets: p.s.totalAssets,
          total_assets_period_end: p.s.periodEnd,
          size_distance: Math.round(p.d * 1e4) / 1e4,
        })),
      );
      for (const peer of body.peers) expect(Object.keys(peer.scores)).toEqual([...SCORES, 'health_score']);
    });

    it('when n = 50, then every stock of the major group with filings is returned and the shortfall is said', async () => {
      const { company, group } = await widenedCase();

      const { status, body } = await call(`/api/forensic/${company.ticker}/peers?n=50`);

      expect(status).toBe(200);
      expect(body.returned).toBe(group.length);
      expect(body.peers.map((p: Json) => p.ticker).sort()).toEqual(group.map((s) => s.ticker).sort());
      expect(body.ranking.note).toMatch(new RegExp(`only ${group.length} stock\\(s\\) with filings`));
      expect(body.company_position.rank).toBeGreaterThanOrEqual(1);
      expect(body.company_position.rank).toBeLessThanOrEqual(body.company_position.of);
    });

    it('when the SIC code is unknown, then no peers are chosen and the note says why', async () => {
      const { status, body } = await call('/api/forensic/NOFILE/peers?n=3');
      expect(status).toBe(200);
      expect(body.peers).toEqual([]);
      expect(body.ranking.note).toMatch(/SIC code is unknown/);
    });
  });

  describe('which listing a market-less path means', () => {
    it('when the ticker is listed in the US and elsewhere, then the US listing is used; ?market= picks another', async () => {
      const us = await call(`/api/forensic/${t.fresh[0]}/health-score`);
      expect(us.body.market).toBe('us');
      const gb = await call(`/api/forensic/${t.fresh[0]}/health-score?market=gb`);
      expect(gb.status).toBe(200);
      expect(gb.body).toMatchObject({ market: 'gb', company_name: `Fictional ${t.fresh[0]} Test Plc` });
    });

    it('when the ticker is listed in several markets and none is the US, then 400 names the candidates; ?market= resolves it', async () => {
      const { status, body } = await call('/api/forensic/TWIN');
      expect(status).toBe(400);
      expect(body.detail).toMatch(/listed in several markets and none is us: de:TWIN, gb:TWIN; add \?market=<key>/);
      expect((await call('/api/forensic/TWIN?market=de')).body.market).toBe('de');
    });
  });

  describe('4xx', () => {
    it.each([
      ['/api/forensic/ZZZZZ', 404, /ticker 'ZZZZZ' is not listed in any market; look it up with GET \/api\/universe\/search\?q=ZZZZZ/],
      ['/api/forensic/TWIN/peers?market=fr', 404, /not listed in market 'fr'; it is listed as de:TWIN, gb:TWIN/],
      ['/api/forensic/%24%24%24', 400, /ticker: invalid ticker '\$\$\$'; use 1 to 20 letters, digits/],
      ['/api/forensic/ABCD?market=zz', 400, /unknown market 'zz'; valid markets: .*us/],
      ['/api/forensic/ABCD?as_of=2026-02-30', 400, /as_of: '2026-02-30' is not a calendar date/],
      ['/api/forensic/ABCD?as_of=2008-12-31', 400, /before 2009-01-01/],
      ['/api/forensic/ABCD?as_of=2999-01-01', 400, /in the future/],
      ['/api/forensic/ABCD?as_of=yesterday', 400, /as_of: expected a date YYYY-MM-DD/],
      ['/api/forensic/ABCD/peers?n=0', 400, /n: .*>=1/],
      ['/api/forensic/ABCD/peers?n=51', 400, /n: .*<=50/],
      ['/api/forensic/ABCD/peers?n=2.5', 422, /n: expected int/],
      ['/api/forensic/ABCD/peers?n=abc', 422, /n: expected number/],
      ['/api/forensic/ABCD/peers?n=1&n=2', 422, /n: expected number/],
    ])('GET %s → %i with a detail naming what is wrong and what is valid', async (url, code, pattern) => {
      const { status, body } = await call(url.replace('ABCD', full));
      expect(status).toBe(code);
      expect(body.detail).toMatch(pattern);
    });

    it('when the ticker is a fund, then 400 says funds have no forensic report and names the fund endpoint with its body', async () => {
      const { status, body } = await call(`/api/forensic/${t.fund.ticker}`);
      expect(status).toBe(400);
      expect(body.detail).toMatch(/is a fund: forensic scores are computed from a company's own filings.*POST \/api\/screen\/etf/);
      expect(body.detail).toContain(`{"etf_ticker": "${t.fund.ticker}", "market": "us"}`);
    });

    it('when a forensic path is asked with another method, then 405', async () => {
      const response = await fetch(`${lake.server.url}/api/forensic/${full}`, { method: 'POST', headers: { 'X-API-Key': key } });
      expect(response.status).toBe(405);
    });
  });

  describe('access control: tag forensic, costs 2 / 1 / 1 + ceil(n/5)', () => {
    it('when no key is sent, then 401 on each forensic route', async () => {
      for (const url of [`/api/forensic/${full}`, `/api/forensic/${full}/health-score`, `/api/forensic/${full}/peers`]) {
        const { status, body } = await call(url, null);
        expect(status).toBe(401);
        expect(body.detail).toMatch(/missing API key/);
      }
    });

    it("when the key's endpoint grant lacks forensic, then 403 names the endpoint", async () => {
      const screenOnly = await keyFor(access, 'partner', { endpoints: ['screen'] });
      const { status, body } = await call(`/api/forensic/${full}`, screenOnly.key);
      expect(status).toBe(403);
      expect(body.detail).toMatch(/not provisioned for endpoint 'forensic'; it may use: screen/);
      expect(await used(screenOnly.keyId)).toBe(0);
    });

    it("when the key's markets exclude the listing's, then 403, and it reaches its own market's listing", async () => {
      const gbOnly = await keyFor(access, 'partner', { markets: ['gb'], endpoints: ['forensic'] });
      const { status, body } = await call(`/api/forensic/${full}/health-score`, gbOnly.key);
      expect(status).toBe(403);
      expect(body.detail).toMatch(/not provisioned for market 'us'; it may use: gb/);
      expect((await call(`/api/forensic/${t.fresh[0]}/health-score?market=gb`, gbOnly.key)).status).toBe(200);
    });

    it('when requests are served, then the report costs 2, the health score 1, peers 1 + ceil(n/5); errors cost nothing', async () => {
      const metered = await keyFor(access, 'partner', { dailyLimit: 100 });
      await call(`/api/forensic/${full}`, metered.key);
      expect(await used(metered.keyId)).toBe(2);
      await call(`/api/forensic/${full}/health-score`, metered.key);
      expect(await used(metered.keyId)).toBe(3);
      await call(`/api/forensic/${full}/peers?n=12`, metered.key);
      expect(await used(metered.keyId)).toBe(3 + 1 + 3);
      expect((await call('/api/forensic/ZZZZZ', metered.key)).status).toBe(404);
      expect(await used(metered.keyId)).toBe(7);
    });

    it('when the quota cannot cover a report, then 429 says what the request costs', async () => {
      const small = await keyFor(access, 'partner', { dailyLimit: 3 });
      expect((await call(`/api/forensic/${full}`, small.key)).status).toBe(200);
      const refused = await call(`/api/forensic/${full}`, small.key);
      expect(refused.status).toBe(429);
      expect(refused.body.detail.message).toMatch(/this request costs 2 unit\(s\)/);
      expect((await call(`/api/forensic/${full}/health-score`, small.key)).status).toBe(200);
    });
  });

  it('documents the three routes in /openapi.json with tag forensic and their unit costs', async () => {
    const { body } = await call('/openapi.json', null);
    const report = body.paths['/api/forensic/{ticker}'].get;
    expect(report).toMatchObject({ 'x-endpoint-tag': 'forensic', 'x-unit-cost': '2', security: [{ apiKey: [] }] });
    expect(body.paths['/api/forensic/{ticker}/health-score'].get['x-unit-cost']).toBe('1');
    expect(body.paths['/api/forensic/{ticker}/peers'].get['x-unit-cost']).toMatch(/^1 \+ ceil\(n \/ 5\)/);
    expect(body.paths['/api/forensic/{ticker}/peers'].get.parameters.map((p: Json) => p.name)).toEqual(['ticker', 'market', 'as_of', 'n']);
    for (const id of ['ForensicReport', 'ForensicScore', 'ForensicHealthScore', 'ForensicPeersResponse'])
      expect(body.components.schemas[id]).toBeDefined();
  });
});
