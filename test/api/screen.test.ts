import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAMEWORK_IDS } from '../../engine/index.ts';
import { type FixtureTickers, type ServedLakeApi, daysAgo, serveLakeApi } from './support/lake-fixture.ts';
import { catalogQuery } from '../support/pipeline-env.ts';
import { sql } from '../../warehouse/sql.ts';

// Response bodies are read as loosely typed JSON: the assertions check their shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON under test
type Json = Record<string, any>;

describe('GET /api/screen/{market}/{ticker} over a real lake', () => {
  let lake: ServedLakeApi;
  let server: ServedLakeApi['server'];
  let t: FixtureTickers;
  const get = async (path: string) => {
    const response = await fetch(`${server.url}${path}`);
    return { status: response.status, headers: response.headers, body: (await response.json()) as Json };
  };

  beforeAll(async () => {
    lake = await serveLakeApi();
    ({ t, server } = lake);
  }, 120_000);
  afterAll(() => lake?.close());

  it('when the snapshot is fresh, then the cached report has every framework with reasons, financial data and synthetic provenance', async () => {
    const { status, body } = await get(`/api/screen/us/${t.fresh[0]}`);
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['ticker', 'market', 'report', 'from_cache', 'cache_age_days', 'stale']);
    expect(body).toMatchObject({ ticker: t.fresh[0], market: 'us', from_cache: true, cache_age_days: 0, stale: false });
    const report = body.report;
    expect(report.frameworks_returned).toEqual([...FRAMEWORK_IDS]);
    for (const id of FRAMEWORK_IDS) {
      expect(['compliant', 'non_compliant', 'questionable', 'insufficient_data']).toContain(report[id].status);
      expect(Array.isArray(report[id].reasons)).toBe(true);
    }
    expect(report.service_consensus.components.length).toBeGreaterThan(0);
    expect(typeof report.service_consensus.coverage).toBe('number');
    expect(report.madhhab_views).toBeDefined();
    expect(report.financial_data).toMatchObject({ currency: 'USD', ratios: expect.any(Object) });
    expect(report.financial_data.provenance.synthetic).toBe(true);
    expect(report.financial_data.provenance.notice).toMatch(/Synthetic sample data/);
    expect(typeof report.company_name).toBe('string');
  });

  it('when the framework filter names only faith screens, then madhhab_views and the other frameworks are left out', async () => {
    const { status, body } = await get(`/api/screen/us/${t.fresh[0]!.toLowerCase()}?framework=christian_bri,lds_mormon`);
    expect(status).toBe(200);
    expect(body.report.frameworks_returned).toEqual(['christian_bri', 'lds_mormon']);
    expect(body.report.madhhab_views).toBeUndefined();
    expect(body.report.shariah_aaoifi).toBeUndefined();
    expect(body.report.financial_data.purification_per_share).toBeNull();
  });

  it('when a shariah framework is returned, then madhhab_views is included', async () => {
    const { body } = await get(`/api/screen/us/${t.fresh[1]}?framework=shariah_djim`);
    expect(body.report.frameworks_returned).toEqual(['shariah_djim']);
    expect(body.report.madhhab_views.by_framework).toBeDefined();
  });

  it('when the snapshot is 3 days old and no refresh can run, then it is served stale saying the refresh is unavailable', async () => {
    const { status, headers, body } = await get(`/api/screen/us/${t.stale}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ from_cache: true, stale: true, cache_age_days: 3, refresh: 'unavailable' });
    expect(headers.get('x-refresh')).toBe('unavailable');
    expect(body.report.financial_data.provenance.snapshot_date).toBe(daysAgo(3));
  });

  it('when the snapshot is beyond the stale window and no refresh can run, then the old data is still served, marked stale', async () => {
    const { status, body } = await get(`/api/screen/us/${t.expired}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ from_cache: true, stale: true, cache_age_days: 30, refresh: 'unavailable' });
  });

  it('when a listed ticker was never screened and no refresh can run, then 503 says so', async () => {
    const { status, body } = await get(`/api/screen/us/${t.unscreened}`);
    expect(status).toBe(503);
    expect(body.detail).toMatch(/could not be re-screened/);
  });

  it('when force_refresh=true and no refresh can run, then 503 says so', async () => {
    const { status, body } = await get(`/api/screen/us/${t.fresh[0]}?force_refresh=true`);
    expect(status).toBe(503);
    expect(body.detail).toMatch(/re-screen/);
  });

  it('when the ticker is a fund, then 400 names the fund endpoint at once, with force_refresh too, and starts no re-screen', async () => {
    for (const query of ['', '?force_refresh=true']) {
      const { status, body } = await get(`/api/screen/us/${t.fund.ticker}${query}`);
      expect(status).toBe(400);
      expect(body.detail).toContain(`'${t.fund.ticker}' in market 'us' is a fund`);
      expect(body.detail).toContain('POST /api/screen/etf');
    }
    const batch = await fetch(`${server.url}/api/screen/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        tickers: [
          { market: 'us', ticker: t.fund.ticker },
          { market: 'us', ticker: t.fresh[0] },
        ],
      }),
    });
    const answered = (await batch.json()) as Json;
    expect(answered).toMatchObject({ requested: 2, succeeded: 1, failed: 1 });
    expect(answered.errors[0]).toMatchObject({ index: 0, status: 400 });
    expect(answered.errors[0].detail).toMatch(/is a fund/);
  });

  it('when the ticker is not listed, then 404 names it', async () => {
    const { status, body } = await get('/api/screen/us/ZZZZ9');
    expect(status).toBe(404);
    expect(body.detail).toMatch(/ZZZZ9/);
  });

  it('when as_of is given, then the point-in-time snapshot of that date or earlier is returned with the legacy warning', async () => {
    const { status, body } = await get(`/api/screen/us/${t.withHistory}?as_of=2016-01-15`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ as_of: '2016-01-15', snapshot_date: '2015-06-30', source: 'backfill', era: 'legacy', historical: true });
    expect(body.screened_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$/);
    expect(body.data_quality).toEqual({ warning: expect.stringMatching(/2026-07-04/), engine_current_since: '2026-07-04' });
    expect(Object.keys(body.frameworks)).toEqual([...FRAMEWORK_IDS]);
    expect(body.frameworks.shariah_djim.key_ratios).toHaveProperty('debt_to_market_cap_24m');
    expect(body.frameworks.shariah_msci.key_ratios).toHaveProperty('debt_to_assets');
  });

  it('when as_of is read without reasons=true, then the answer comes from memory: statuses and key ratios, no reasons', async () => {
    const { body } = await get(`/api/screen/us/${t.withHistory}?as_of=2016-01-15`);
    expect(body.reasons_kept).toBeUndefined();
    expect(body.provenance.filing).toBeUndefined();
    for (const id of FRAMEWORK_IDS) expect(Object.keys(body.frameworks[id]), id).toEqual(['status', 'key_ratios']);
  });

  it('when as_of reads a backfill snapshot with reasons=true, then each verdict carries the deciding reasons stored with it', async () => {
    // The 2020-12-31 backfill snapshot: some of its verdicts are not compliant, so deciding reasons exist.
    const { body } = await get(`/api/screen/us/${t.withHistory}?as_of=2021-01-15&reasons=true`);
    expect(body.reasons_kept).toBe('deciding');
    expect(body.provenance.filing).toMatchObject({
      source_ref: expect.any(String),
      period_end: expect.any(String),
      filed_on: expect.any(String),
    });
    const [stored] = await catalogQuery(
      lake.dataDir,
      sql`SELECT result_json FROM snapshots WHERE ticker = ${t.withHistory} AND snapshot_date = DATE '2020-12-31'`,
    );
    const frameworks = (JSON.parse(String(stored!.result_json)) as Json).frameworks as Json;
    for (const id of FRAMEWORK_IDS) {
      const entry = body.frameworks[id];
      expect(entry.methodology_version, id).toBe(frameworks[id].methodology_version);
      expect(entry.reasons, id).toEqual(frameworks[id].reasons);
      // Passing checks are dropped from backfill history; a verdict other than compliant keeps what decided it.
      for (const reason of entry.reasons) expect(['pass', 'info'], `${id} ${reason.code}`).not.toContain(reason.result);
      expect(entry.status === 'compliant' || entry.reasons.length > 0, id).toBe(true);
    }
    expect(Object.values(body.frameworks as Record<string, Json>).some((f) => f.status !== 'compliant')).toBe(true);
  });

  it('when as_of reads a nightly snapshot with reasons=true, then every stored reason is returned, passing checks included', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const { body } = await get(`/api/screen/us/${t.fresh[0]}?as_of=${today}&framework=shariah_aaoifi&reasons=true`);
    expect(body.reasons_kept).toBe('all');
    const reasons = body.frameworks.shariah_aaoifi.reasons as Array<{ code: string; result: string }>;
    expect(reasons.map((r) => r.code)).toContain('shariah_aaoifi.interest_bearing_debt');
    const report = await get(`/api/screen/us/${t.fresh[0]}?framework=shariah_aaoifi`);
    expect(reasons).toEqual(report.body.report.shariah_aaoifi.reasons);
  });

  it('when as_of is today, then the current snapshot is returned without a data_quality warning', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const { body } = await get(`/api/screen/us/${t.fresh[0]}?as_of=${today}&framework=lds_mormon`);
    expect(body).toMatchObject({ snapshot_date: today, era: 'current', historical: true });
    expect(body.data_quality).toBeUndefined();
    expect(Object.keys(body.frameworks)).toEqual(['lds_mormon']);
  });

  it('when as_of is before the first snapshot, then 404 names the first snapshot date', async () => {
    const { status, body } = await get(`/api/screen/us/${t.withHistory}?as_of=2012-03-01`);
    expect(status).toBe(404);
    expect(body.detail).toMatch(/2015-06-30/);
  });
});
