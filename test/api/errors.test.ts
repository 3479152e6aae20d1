import type { Middleware } from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAMEWORK_IDS } from '../../engine/index.ts';
import { MARKET_KEYS } from '../../common/markets.ts';
import { type FixtureTickers, type ServedLakeApi, serveLakeApi } from './support/lake-fixture.ts';

/** Stands in for access control (docs/access.md): a grant from test headers. */
const testGrant: Middleware = async (ctx, next) => {
  const frameworks = ctx.get('x-test-frameworks');
  const markets = ctx.get('x-test-markets');
  if (frameworks || markets)
    ctx.state.grant = { allowedFrameworks: frameworks ? frameworks.split(',') : null, allowedMarkets: markets ? markets.split(',') : null };
  await next();
};

describe('every 4xx path answers JSON with a detail naming what is wrong', () => {
  let lake: ServedLakeApi;
  let server: ServedLakeApi['server'];
  let t: FixtureTickers;
  const call = async (path: string, init?: RequestInit) => {
    const response = await fetch(`${server.url}${path}`, init);
    const text = await response.text();
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      detail: (JSON.parse(text) as { detail: unknown }).detail,
    };
  };
  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    call(path, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

  beforeAll(async () => {
    lake = await serveLakeApi(undefined, [testGrant]);
    ({ t, server } = lake);
  }, 120_000);
  afterAll(() => lake?.close());

  it.each([
    ['/api/screen/xx/AAPL', /unknown market 'xx'.*us, ca/],
    ['/api/screen/us/BAD$TICKER', /invalid ticker/],
    ['/api/screen/us/AAPL?framework=shariah_djim,halal_x', /halal_x.*valid ids: shariah_aaoifi/],
    ['/api/screen/us/AAPL?framework=,', /at least one framework id/],
    ['/api/screen/us/AAPL?as_of=2020-13-01', /not a calendar date/],
    ['/api/screen/us/AAPL?as_of=2020-02-30', /not a calendar date/],
    ['/api/screen/us/AAPL?as_of=20200101', /YYYY-MM-DD/],
    ['/api/screen/us/AAPL?as_of=2008-12-31', /before 2009-01-01/],
    ['/api/screen/us/AAPL?as_of=2999-01-01', /in the future/],
    ['/api/screen/us/AAPL?force_refresh=maybe', /force_refresh/],
    ['/api/screen/us/AAPL?as_of=2020-12-31&reasons=maybe', /reasons/],
    ['/api/screen/us/AAPL?reasons=true', /reasons: valid only with as_of.*as_of=YYYY-MM-DD&reasons=true/],
    ['/api/universe/search?q=', /q must not be empty/],
    ['/api/universe/search?q=a&limit=0', /limit/],
    ['/api/universe/search?q=a&limit=51', /limit/],
    ['/api/universe/search?q=a&market=zz', /unknown market 'zz'/],
    ['/api/screen/compare?tickers=AAA', /2 to 4/],
    ['/api/screen/compare?tickers=A,B,C,D,E', /2 to 4/],
    ['/api/screen/compare?tickers=AAA,aaa', /repeated: AAA/],
    ['/api/export/verdicts?market=qq', /unknown market/],
  ])('GET %s → 400', async (path, pattern) => {
    const { status, type, detail } = await call(path);
    expect(status).toBe(400);
    expect(type).toMatch(/application\/json/);
    expect(String(detail)).toMatch(pattern);
  });

  it('names every valid market and framework id in the details', async () => {
    expect(String((await call('/api/screen/xx/AAPL')).detail)).toContain(MARKET_KEYS.join(', '));
    expect(String((await call('/api/screen/us/AAPL?framework=nope')).detail)).toContain(FRAMEWORK_IDS.join(', '));
  });

  it.each([
    ['/api/universe/search', /q/],
    ['/api/screen/compare', /tickers/],
  ])('GET %s without its required parameter → 422', async (path, pattern) => {
    const { status, detail } = await call(path);
    expect(status).toBe(422);
    expect(String(detail)).toMatch(pattern);
  });

  it('when a query parameter is repeated, then 422 (malformed shape)', async () => {
    const { status } = await call('/api/screen/us/AAPL?framework=lds_mormon&framework=christian_bri');
    expect(status).toBe(422);
  });

  it.each([
    ['[]', /body: expected object/],
    ['"text"', /malformed|expected object/],
    ['{"tickers": "AAPL"}', /body.tickers: expected array/],
    ['{"tickers": [{"market": "us", "ticker": "A"}], "force_refresh": "yes"}', /force_refresh: expected boolean/],
    ['{"tickers": [', /malformed request body/],
    ['{}', /tickers/],
  ])('POST /api/screen/batch %s → 422', async (body, pattern) => {
    const { status, detail } = await post('/api/screen/batch', body);
    expect(status).toBe(422);
    expect(String(detail)).toMatch(pattern);
  });

  it('when a batch has more than 100 tickers, then 400 names the limit', async () => {
    const tickers = Array.from({ length: 101 }, () => ({ market: 'us', ticker: t.fresh[0] }));
    const { status, detail } = await post('/api/screen/batch', JSON.stringify({ tickers }));
    expect(status).toBe(400);
    expect(String(detail)).toMatch(/at most 100 tickers/);
  });

  it('when a batch names an unknown framework, then 400 lists the valid ids', async () => {
    const { status, detail } = await post(
      '/api/screen/batch',
      JSON.stringify({ tickers: [{ market: 'us', ticker: 'A' }], frameworks: ['x'] }),
    );
    expect(status).toBe(400);
    expect(String(detail)).toContain('valid ids');
  });

  it('when the body is larger than 64 kB, then 413', async () => {
    const { status, detail } = await post('/api/screen/batch', JSON.stringify({ tickers: [], pad: 'x'.repeat(70_000) }));
    expect(status).toBe(413);
    expect(String(detail)).toMatch(/too large/);
  });

  it.each([
    ['{"etf_ticker": "X", "max_holdings": 0}', 400, /max_holdings/],
    ['{"etf_ticker": "X", "max_holdings": 51}', 400, /max_holdings/],
    ['{"etf_ticker": "X", "max_holdings": "15"}', 422, /expected number/],
    ['{"etf_ticker": "X", "market": "mars"}', 400, /unknown market/],
    ['{"market": "us"}', 422, /etf_ticker/],
    ['{"etf_ticker": "NOFUND"}', 404, /NOFUND/],
  ])('POST /api/screen/etf %s → %i', async (body, expected, pattern) => {
    const { status, detail } = await post('/api/screen/etf', body);
    expect(status).toBe(expected);
    expect(String(detail)).toMatch(pattern);
  });

  it('when the grant lacks a framework named explicitly, then 403 names the denied ids', async () => {
    const { status, detail } = await call(`/api/screen/us/${t.fresh[0]}?framework=shariah_djim,service_consensus`, {
      headers: { 'x-test-frameworks': 'shariah_djim' },
    });
    expect(status).toBe(403);
    expect(String(detail)).toMatch(/service_consensus/);
    expect(String(detail)).not.toMatch(/framework\(s\) shariah_djim/);
  });

  it('when the grant lists frameworks and no filter is sent, then only the granted ones are returned', async () => {
    const response = await fetch(`${server.url}/api/screen/us/${t.fresh[0]}`, { headers: { 'x-test-frameworks': 'lds_mormon' } });
    const body = (await response.json()) as { report: { frameworks_returned: string[]; madhhab_views?: unknown } };
    expect(body.report.frameworks_returned).toEqual(['lds_mormon']);
    expect(body.report.madhhab_views).toBeUndefined();
  });

  it('when the grant lacks the market, then 403 names it', async () => {
    const { status, detail } = await call(`/api/screen/gb/ABC`, { headers: { 'x-test-markets': 'us' } });
    expect(status).toBe(403);
    expect(String(detail)).toMatch(/market 'gb'/);
  });

  it('when the export is asked for in a format it does not produce, then 406', async () => {
    const { status, detail } = await call('/api/export/verdicts?market=us', { headers: { accept: 'text/html' } });
    expect(status).toBe(406);
    expect(String(detail)).toMatch(/arrow/);
  });

  it('when the route does not exist, then 404 JSON; a wrong method gives 405 JSON', async () => {
    expect(await call('/api/nothing-here')).toMatchObject({ status: 404, detail: expect.stringMatching(/no route/) });
    expect(await call('/api/screen/batch')).toMatchObject({ status: 405, detail: expect.stringMatching(/allowed: POST/) });
    expect(await call('/api/screen/frameworks', { method: 'DELETE' })).toMatchObject({
      status: 405,
      detail: expect.stringMatching(/not allowed.*GET/),
    });
  });
});
