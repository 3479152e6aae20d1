import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portfolioResponseSchema } from '../../api/schemas/portfolio.ts';
import { meterUsed } from '../support/access.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { buildLake, TODAY, type FixtureTickers } from './support/lake-fixture.ts';
import { serveCustomScreensApi, type CustomScreensApi, type Json } from './support/custom-screens-server.ts';

describe('framework=custom:<slug> on GET /api/screen, live and as_of, over real HTTP on a real lake', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let api: CustomScreensApi;
  let t: FixtureTickers;
  let owner: Awaited<ReturnType<CustomScreensApi['newKey']>>;
  /** A fresh ticker AAOIFI passes whose debt / market cap is above 0: a stricter limit can fail it. */
  let target: { ticker: string; debt: number };

  const create = (body: Json, key = owner.key) => api.call('/api/screens', key, { method: 'POST', body });
  const screen = (ticker: string, query: string, key = owner.key) => api.call(`/api/screen/us/${ticker}?${query}`, key);

  beforeAll(async () => {
    temp = await makeTempDir('faithscreen-custom-screen-use-');
    t = await buildLake(temp.dir);
    api = await serveCustomScreensApi(temp.dir);
    owner = await api.newKey();
    for (const ticker of t.fresh) {
      const { body } = await screen(ticker, 'framework=shariah_aaoifi');
      const debt = (body.report?.shariah_aaoifi?.reasons as Json[] | undefined)?.find((r) => r.metric === 'debt_to_market_cap_spot');
      if (body.report?.shariah_aaoifi?.status === 'compliant' && (debt?.value ?? 0) > 0.001) {
        target = { ticker, debt: debt!.value as number };
        break;
      }
    }
  }, 180_000);
  afterAll(async () => {
    await api?.close();
    await temp?.cleanup();
  });

  it("when the base passes a figure the screen's stricter limit does not, then the custom verdict is non_compliant, names its version and says which rule came from where", async () => {
    expect(target).toBeDefined();
    const limit = Math.floor(target.debt * 1000) / 2000;
    expect((await create({ slug: 'tight-debt', base: 'shariah_aaoifi', thresholds: { debt_to_market_cap_spot: limit } })).status).toBe(201);
    await api.access.meter.returnSpare();
    const before = await meterUsed(api.access, owner.keyId);
    const answer = await screen(target.ticker, 'framework=custom:tight-debt');
    expect(answer.status).toBe(200);
    const verdict = answer.body.report['custom:tight-debt'];
    expect(verdict).toMatchObject({
      id: 'custom:tight-debt',
      base: 'shariah_aaoifi',
      base_status: 'compliant',
      status: 'non_compliant',
      custom_screen: { slug: 'tight-debt', version: 1, effective_from: TODAY },
    });
    expect(answer.body.report.frameworks_returned).toEqual(['custom:tight-debt']);
    const onDebt = (verdict.reasons as Json[]).filter((r) => r.metric === 'debt_to_market_cap_spot');
    expect(onDebt.map((r) => [r.origin, r.result, r.threshold])).toEqual([
      ['base', 'pass', 0.3],
      ['custom', 'fail', limit],
    ]);
    expect(answer.body).toMatchObject({ from_cache: true, stale: false });
    await api.access.meter.returnSpare();
    expect((await meterUsed(api.access, owner.keyId)) - before).toBe(1);
  });

  it('when a ticker is on the excluded list, then it is non_compliant on the custom reason; a ticker on neither list keeps the base verdict', async () => {
    const other = t.fresh.find((ticker) => ticker !== target.ticker)!;
    await create({ slug: 'no-target', base: 'shariah_aaoifi', exclude_tickers: [`us/${target.ticker}`] });
    const excluded = (await screen(target.ticker, 'framework=custom:no-target')).body.report['custom:no-target'];
    expect(excluded.status).toBe('non_compliant');
    expect((excluded.reasons as Json[]).filter((r) => r.origin === 'custom').map((r) => r.code)).toEqual([
      'custom.no-target.ticker_excluded',
    ]);
    const untouched = (await screen(other, 'framework=custom:no-target')).body.report['custom:no-target'];
    expect(untouched.status).toBe(untouched.base_status);
  });

  it('when asked as_of, then the verdict is computed on the snapshot in force that day under the version in force that day, and costs 2 units', async () => {
    const slug = 'dated';
    await create({ slug, base: 'shariah_aaoifi', effective_from: '2015-01-01' });
    const put = await api.call(`/api/screens/${slug}`, owner.key, {
      method: 'PUT',
      body: { base: 'shariah_aaoifi', exclude_tickers: [`us/${t.withHistory}`], effective_from: '2020-06-01' },
    });
    expect(put.status).toBe(200);
    await api.access.meter.returnSpare();
    const before = await meterUsed(api.access, owner.keyId);
    const early = await screen(t.withHistory, `framework=custom:${slug}&as_of=2016-01-01`);
    expect(early.status).toBe(200);
    expect(early.body).toMatchObject({
      as_of: '2016-01-01',
      historical: true,
      snapshot_date: '2015-06-30',
      source: 'backfill',
      era: 'legacy',
      data_quality: { engine_current_since: '2026-07-04' },
    });
    expect(early.body.frameworks[`custom:${slug}`].custom_screen).toMatchObject({ version: 1, effective_from: '2015-01-01' });
    const late = await screen(t.withHistory, `framework=custom:${slug}&as_of=2021-01-01`);
    expect(late.body.frameworks[`custom:${slug}`]).toMatchObject({
      status: 'non_compliant',
      custom_screen: { version: 2, effective_from: '2020-06-01' },
    });
    await api.access.meter.returnSpare();
    expect((await meterUsed(api.access, owner.keyId)) - before).toBe(4);
  });

  it("when no version is in force on the date asked, then the verdict is insufficient_data, never the base's clean one", async () => {
    await create({ slug: 'later', base: 'shariah_aaoifi', effective_from: '2019-01-01' });
    const answer = await screen(t.withHistory, 'framework=custom:later&as_of=2016-01-01');
    expect(answer.body.frameworks['custom:later']).toMatchObject({ status: 'insufficient_data', custom_screen: { version: null } });
  });

  it('when another account asks for the screen by its slug, then 404 as for an unknown one', async () => {
    const other = await api.newKey();
    const answer = await screen(target.ticker, 'framework=custom:tight-debt', other.key);
    expect(answer.status).toBe(404);
    expect(answer.body.detail).toMatch(/no custom screen 'tight-debt' in this account/);
    expect((await screen(target.ticker, 'framework=custom:never-made')).status).toBe(404);
  });

  it("when the key is not granted the screen's base framework, then 403 names it", async () => {
    const scoped = await api.newKey();
    const narrow = await (
      await import('../../access/administration.ts')
    ).createKey(api.access.store, api.access.hashSecret, {
      account: scoped.account,
      frameworks: ['christian_bri'],
    });
    await create({ slug: 'mine', base: 'shariah_aaoifi' }, scoped.key);
    const answer = await screen(target.ticker, 'framework=custom:mine', narrow.key);
    expect(answer.status).toBe(403);
    expect(answer.body.detail).toMatch(/not provisioned for framework\(s\) shariah_aaoifi/);
  });

  it('when a custom screen is mixed with other frameworks, given force_refresh, or a bad slug, then 400 says what is valid', async () => {
    const mixed = await screen(target.ticker, 'framework=custom:tight-debt,shariah_aaoifi');
    expect(mixed.status).toBe(400);
    expect(mixed.body.detail).toMatch(/ask for one custom screen alone/);
    const refresh = await screen(target.ticker, 'framework=custom:tight-debt&force_refresh=true');
    expect(refresh.status).toBe(400);
    expect(refresh.body.detail).toMatch(/force_refresh: not available with a custom screen/);
    const bad = await screen(target.ticker, 'framework=custom:Bad_Slug');
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/framework: 'Bad_Slug' is not a valid slug/);
  });

  it('when a batch asks for a custom screen, then each ticker gets its custom verdict, a failing item its own error, and only answered items are charged', async () => {
    const other = t.fresh.find((ticker) => ticker !== target.ticker)!;
    await api.access.meter.returnSpare();
    const before = await meterUsed(api.access, owner.keyId);
    const items = [
      { market: 'us', ticker: target.ticker },
      { market: 'us', ticker: other },
      { market: 'us', ticker: 'NOPE1' },
      { market: 'xx', ticker: 'AAA' },
    ];
    const answer = await api.call('/api/screen/batch', owner.key, {
      method: 'POST',
      body: { tickers: items, frameworks: ['custom:tight-debt'] },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ requested: 4, succeeded: 2, failed: 2 });
    expect(answer.body.results.map((r: Json) => [r.ticker, r.report['custom:tight-debt'].custom_screen.version])).toEqual([
      [target.ticker, 1],
      [other, 1],
    ]);
    expect(answer.body.results[0].report['custom:tight-debt'].status).toBe('non_compliant');
    expect(answer.body.errors.map((e: Json) => [e.index, e.status])).toEqual([
      [2, 404],
      [3, 400],
    ]);
    await api.access.meter.returnSpare();
    expect((await meterUsed(api.access, owner.keyId)) - before).toBe(2);
    const stranger = await api.newKey();
    const hidden = await api.call('/api/screen/batch', stranger.key, {
      method: 'POST',
      body: { tickers: items, frameworks: ['custom:tight-debt'] },
    });
    expect(hidden.status).toBe(404);
  });

  it("when compare is asked for a custom screen, then each ticker's custom status is side by side and the version is named", async () => {
    const other = t.fresh.find((ticker) => ticker !== target.ticker)!;
    const path = `/api/screen/compare?market=us&tickers=${target.ticker},${other}&framework=custom:tight-debt`;
    const single = (await screen(other, 'framework=custom:tight-debt')).body.report['custom:tight-debt'].status as string;
    const answer = await api.call(path, owner.key);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      frameworks_returned: ['custom:tight-debt'],
      custom_screen: { slug: 'tight-debt', base: 'shariah_aaoifi', version: 1 },
      frameworks: { 'custom:tight-debt': { [target.ticker]: 'non_compliant', [other]: single, agree: single === 'non_compliant' } },
    });
    expect((await api.call(path, (await api.newKey()).key)).status).toBe(404);
  });

  it('when an ETF is screened under a custom screen, then each holding has its custom verdict and the stats count them', async () => {
    const plain = await api.call('/api/screen/etf', owner.key, { method: 'POST', body: { etf_ticker: t.fund.ticker, market: 'us' } });
    expect(plain.status).toBe(200);
    const screened = (plain.body.holdings as Json[]).find((h) => h.snapshot_date !== null)!;
    expect(screened).toBeDefined();
    await create({ slug: 'etf-ex', base: 'shariah_aaoifi', exclude_tickers: [`${screened.market}/${screened.ticker}`] });
    const body = { etf_ticker: t.fund.ticker, market: 'us', framework: 'custom:etf-ex' };
    const answer = await api.call('/api/screen/etf', owner.key, { method: 'POST', body });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ frameworks_returned: ['custom:etf-ex'], custom_screen: { slug: 'etf-ex', version: 1 } });
    const holding = (answer.body.holdings as Json[]).find((h) => h.ticker === screened.ticker)!;
    expect(holding.verdicts).toEqual({ 'custom:etf-ex': 'non_compliant' });
    const stats = answer.body.framework_stats['custom:etf-ex'];
    expect(stats.pass + stats.fail + stats.questionable + stats.unknown).toBe(answer.body.holdings_screened);
    expect(stats.fail).toBeGreaterThanOrEqual(1);
    const notCustom = await api.call('/api/screen/etf', owner.key, { method: 'POST', body: { ...body, framework: 'shariah_aaoifi' } });
    expect(notCustom.status).toBe(400);
    expect(notCustom.body.detail).toMatch(/'shariah_aaoifi' is not a custom screen/);
    expect((await api.call('/api/screen/etf', (await api.newKey()).key, { method: 'POST', body })).status).toBe(404);
  });

  it('when a portfolio is screened under a custom screen, then each company has its custom verdict, the shares count them, and only stock lines are charged', async () => {
    const other = t.fresh.find((ticker) => ticker !== target.ticker)!;
    const body = {
      holdings: [
        { market: 'us', ticker: target.ticker, weight: 0.6 },
        { market: 'us', ticker: other, weight: 0.4 },
      ],
      frameworks: ['custom:tight-debt'],
    };
    const single = (await screen(other, 'framework=custom:tight-debt')).body.report['custom:tight-debt'].status as string;
    await api.access.meter.returnSpare();
    const before = await meterUsed(api.access, owner.keyId);
    const answer = await api.call('/api/portfolio', owner.key, { method: 'POST', body });
    expect(answer.status).toBe(200);
    expect(portfolioResponseSchema.safeParse(answer.body).error?.issues ?? []).toEqual([]);
    expect(answer.body).toMatchObject({
      frameworks_returned: ['custom:tight-debt'],
      custom_screen: { slug: 'tight-debt', base: 'shariah_aaoifi', version: 1, effective_from: TODAY },
    });
    const [held, beside] = answer.body.holdings as Json[];
    expect(held!.verdicts).toEqual({ 'custom:tight-debt': 'non_compliant' });
    expect(beside!.verdicts).toEqual({ 'custom:tight-debt': single });
    expect(held!.deciding_reasons['custom:tight-debt']).toEqual([
      expect.objectContaining({ code: 'custom.tight-debt.debt_to_market_cap_spot', result: 'fail' }),
    ]);
    const summary = answer.body.frameworks['custom:tight-debt'];
    expect(summary.non_compliant).toBeGreaterThanOrEqual(0.6);
    expect(summary.failing[0]).toMatchObject({ ticker: target.ticker, status: 'non_compliant' });
    expect(summary.failing[0].why[0]).toMatch(/^custom:tight-debt v1: debt_to_market_cap_spot/);
    await api.access.meter.returnSpare();
    expect((await meterUsed(api.access, owner.keyId)) - before).toBe(2);

    const period = await api.call('/api/portfolio', owner.key, {
      method: 'POST',
      body: {
        ...body,
        holdings: body.holdings.map(({ market, ticker }) => ({ market, ticker, shares: 10 })),
        period: { from: '2024-01-01' },
      },
    });
    expect(period.status).toBe(400);
    expect(period.body.detail).toMatch(/period: purification under a custom screen is its base framework's/);
    const mixed = await api.call('/api/portfolio', owner.key, {
      method: 'POST',
      body: { ...body, frameworks: ['custom:tight-debt', 'shariah_sp'] },
    });
    expect(mixed.status).toBe(400);
    expect(mixed.body.detail).toMatch(/ask for one custom screen alone/);
    expect((await api.call('/api/portfolio', (await api.newKey()).key, { method: 'POST', body })).status).toBe(404);
  });

  it('when explain is asked for a custom screen, then 400 names the valid framework ids', async () => {
    const answer = await api.call(`/api/screen/us/${target.ticker}/explain?framework=custom:tight-debt`, owner.key);
    expect(answer.status).toBe(400);
    expect(answer.body.detail).toMatch(/unknown framework id\(s\) custom:tight-debt; valid ids: shariah_aaoifi/);
  });

  it('when the ticker has no history at the date, then 404 as for any framework', async () => {
    const answer = await screen(t.withHistory, 'framework=custom:dated&as_of=2010-01-01');
    expect(answer.status).toBe(404);
    expect(answer.body.detail).toMatch(/no compliance history/);
  });
});
