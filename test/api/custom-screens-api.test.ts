import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUSTOM_SCREEN_VERSIONS_MAX, CUSTOM_SCREENS_PER_ACCOUNT } from '../../api/schemas/custom-screens.ts';
import { meterUsed } from '../support/access.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { serveCustomScreensApi, type CustomScreensApi } from './support/custom-screens-server.ts';

const TODAY = new Date().toISOString().slice(0, 10);

const MANDATE = {
  slug: 'halal-plus',
  base: 'shariah_aaoifi',
  description: 'AAOIFI, plus no coffee chains and a 25% debt limit',
  exclude_activities: [{ activity: 'coffee', max_revenue_share: 0.05, excluded_involvements: ['producer'] }],
  exclude_tickers: ['us/xom'],
  allow_tickers: ['us/SBUX'],
  thresholds: { debt_to_market_cap_spot: 0.25 },
};

describe('custom screens over real HTTP: create, version, read, delete, scoped to the account', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let api: CustomScreensApi;
  let owner: Awaited<ReturnType<CustomScreensApi['newKey']>>;

  const create = (key: string, body: unknown) => api.call('/api/screens', key, { method: 'POST', body });
  /** The error body is `{ detail }`: the status and the words that name the problem are what a client gets. */
  const expectError = (answer: { status: number; body: Record<string, unknown> }, status: number, detail: RegExp) => {
    expect(answer.status).toBe(status);
    expect(answer.body.detail).toMatch(detail);
    expect(Object.keys(answer.body)).toEqual(['detail']);
  };

  beforeAll(async () => {
    temp = await makeTempDir('faithscreen-custom-screens-api-');
    api = await serveCustomScreensApi(temp.dir);
    owner = await api.newKey();
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await temp?.cleanup();
  });

  it('when a key creates a screen, then 201 returns it as version 1 effective today, tickers normalised, and the write costs 1 unit', async () => {
    const before = await meterUsed(api.access, owner.keyId);
    const created = await create(owner.key, MANDATE);
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.body).toMatchObject({
      slug: 'halal-plus',
      framework: 'custom:halal-plus',
      current: {
        version: 1,
        effective_from: TODAY,
        base: 'shariah_aaoifi',
        exclude_activities: [{ activity: 'coffee', max_revenue_share: 0.05, excluded_involvements: ['producer'] }],
        exclude_tickers: ['us/XOM'],
        allow_tickers: ['us/SBUX'],
        thresholds: { debt_to_market_cap_spot: 0.25 },
      },
    });
    await api.access.meter.returnSpare();
    expect((await meterUsed(api.access, owner.keyId)) - before).toBe(1);
  });

  it('when the screen is changed with PUT, then it gains version 2 with its own effective date, and GET shows both', async () => {
    const next = { ...MANDATE, slug: undefined, thresholds: { debt_to_market_cap_spot: 0.2 }, effective_from: TODAY };
    delete next.slug;
    const put = await api.call('/api/screens/halal-plus', owner.key, { method: 'PUT', body: next });
    expect(put.status).toBe(200);
    expect(put.body.current).toMatchObject({ version: 2, thresholds: { debt_to_market_cap_spot: 0.2 } });
    const got = await api.call('/api/screens/halal-plus', owner.key);
    expect(got.body.versions.map((v: { version: number; effective_from: string }) => [v.version, v.effective_from])).toEqual([
      [1, TODAY],
      [2, TODAY],
    ]);
    const list = await api.call('/api/screens', owner.key);
    expect(list.body).toMatchObject({ limit: CUSTOM_SCREENS_PER_ACCOUNT, screens: [{ slug: 'halal-plus', current: { version: 2 } }] });
    expect(list.body.screens[0].versions).toBeUndefined();
  });

  it('when another account asks for, changes or deletes the screen, then each is 404 as for an unknown one, and its list is empty', async () => {
    const other = await api.newKey();
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { base: 'shariah_aaoifi' }],
      ['DELETE', undefined],
    ] as const)
      expectError(
        await api.call('/api/screens/halal-plus', other.key, { method, ...(body ? { body } : {}) }),
        404,
        /no custom screen 'halal-plus' in this account/,
      );
    expect((await api.call('/api/screens', other.key)).body.screens).toEqual([]);
    expect((await api.call('/api/screens/halal-plus', owner.key)).status).toBe(200);
  });

  it("when a threshold is looser than the base's own, then 400 names the base's limit", async () => {
    const answer = await create(owner.key, { ...MANDATE, slug: 'loose', thresholds: { debt_to_market_cap_spot: 0.4 } });
    expectError(answer, 400, /0\.4 is looser than shariah_aaoifi's own limit \(debt_to_market_cap_spot <= 0\.3.*give at most 0\.3/);
    const put = await api.call('/api/screens/halal-plus', owner.key, {
      method: 'PUT',
      body: { base: 'shariah_aaoifi', thresholds: { non_permissible_income_to_total_income: 0.06 } },
    });
    expectError(put, 400, /at most 0\.05/);
  });

  it("when a threshold names a metric the base does not check, then 400 lists the base's own limits", async () => {
    expectError(
      await create(owner.key, { ...MANDATE, slug: 'odd', thresholds: { debt_to_assets: 0.2 } }),
      400,
      /shariah_aaoifi has no threshold check on 'debt_to_assets'; its own limits: debt_to_market_cap_spot/,
    );
  });

  it('when the base is unknown or the consensus, then 400 lists the frameworks a screen can build on', async () => {
    expectError(await create(owner.key, { ...MANDATE, slug: 'x1', base: 'shariah_nope' }), 400, /valid: shariah_aaoifi, .*lds_mormon/);
    expectError(
      await create(owner.key, { ...MANDATE, slug: 'x2', base: 'service_consensus' }),
      400,
      /'service_consensus' is not a framework/,
    );
  });

  it('when an activity is unknown, then 400 lists the activity codes', async () => {
    const answer = await create(owner.key, { ...MANDATE, slug: 'x3', exclude_activities: [{ activity: 'crypto' }] });
    expectError(answer, 400, /unknown activity 'crypto'; valid: alcohol, tobacco/);
  });

  it('when the slug is malformed, then 400 names the pattern', async () => {
    for (const slug of ['Halal', 'a', 'with space', '-lead', 'x'.repeat(41)])
      expectError(await create(owner.key, { ...MANDATE, slug }), 400, /2 to 40 lower-case letters/);
    expectError(await api.call('/api/screens/Bad_Slug', owner.key), 400, /not a valid slug/);
  });

  it('when the slug is taken in the account, then 409; the same slug in another account is its own screen', async () => {
    expectError(await create(owner.key, MANDATE), 409, /already has a custom screen 'halal-plus'/);
    expect((await create((await api.newKey()).key, MANDATE)).status).toBe(201);
  });

  it(`when the account has ${CUSTOM_SCREENS_PER_ACCOUNT} screens, then creating another is 409 until one is deleted`, async () => {
    const full = await api.newKey();
    for (let i = 0; i < CUSTOM_SCREENS_PER_ACCOUNT; i++)
      expect((await create(full.key, { slug: `s-${i}`, base: 'lds_mormon' })).status).toBe(201);
    expectError(
      await create(full.key, { slug: 'one-more', base: 'lds_mormon' }),
      409,
      new RegExp(`has ${CUSTOM_SCREENS_PER_ACCOUNT} custom screens`),
    );
    expect((await api.call('/api/screens/s-0', full.key, { method: 'DELETE' })).body).toEqual({ slug: 's-0', deleted: true });
    expect((await create(full.key, { slug: 'one-more', base: 'lds_mormon' })).status).toBe(201);
  });

  it('when a value is out of range or the body has the wrong shape, then 400 or 422 names the field', async () => {
    expectError(
      await create(owner.key, { ...MANDATE, slug: 'x4', exclude_activities: [{ activity: 'coffee', max_revenue_share: 5 }] }),
      400,
      /max_revenue_share: 5 is not a share/,
    );
    expectError(await create(owner.key, { ...MANDATE, slug: 'x5', exclude_tickers: ['AAPL'] }), 400, /'AAPL' is not market\/TICKER/);
    expectError(
      await create(owner.key, { ...MANDATE, slug: 'x6', exclude_tickers: ['us/SBUX'] }),
      400,
      /us\/SBUX both excluded and allowed/,
    );
    expectError(await create(owner.key, { ...MANDATE, slug: 'x7', effective_from: '2026-02-30' }), 400, /not a calendar date/);
    expectError(await create(owner.key, { ...MANDATE, slug: 'x8', extra: true }), 422, /extra/);
    expectError(await create(owner.key, { slug: 'x9' }), 422, /body.base/);
  });

  it('when an involvement, a description or an effective date is out of bounds, then 400 names what is valid', async () => {
    const bad = [
      [
        { exclude_activities: [{ activity: 'coffee', excluded_involvements: ['grower'] }] },
        /excluded_involvements: unknown grower; valid: producer/,
      ],
      [{ description: 'x'.repeat(501) }, /description: 501 characters; at most 500/],
      [{ effective_from: '2001-01-01' }, /effective_from: 2001-01-01 is outside 2009-01-01 to /],
      [{ exclude_tickers: Array.from({ length: 501 }, (_, i) => `us/T${i}`) }, /exclude_tickers: 501 given; at most 500/],
      [{ exclude_activities: [{ activity: 'coffee' }, { activity: 'coffee' }] }, /'coffee' is listed twice/],
    ] as const;
    for (const [change, detail] of bad) expectError(await create(owner.key, { ...MANDATE, slug: 'bounds', ...change }), 400, detail);
    expect((await api.call('/api/screens/bounds', owner.key)).status).toBe(404);
  });

  it(`when a screen has ${CUSTOM_SCREEN_VERSIONS_MAX} versions, then another PUT is 409 and the screen keeps its versions`, async () => {
    const busy = await api.newKey();
    expect((await create(busy.key, { slug: 'busy', base: 'lds_mormon' })).status).toBe(201);
    for (let v = 2; v <= CUSTOM_SCREEN_VERSIONS_MAX; v++)
      expect((await api.call('/api/screens/busy', busy.key, { method: 'PUT', body: { base: 'lds_mormon' } })).status).toBe(200);
    expectError(await api.call('/api/screens/busy', busy.key, { method: 'PUT', body: { base: 'lds_mormon' } }), 409, /has 100 versions/);
    expect((await api.call('/api/screens/busy', busy.key)).body.versions).toHaveLength(CUSTOM_SCREEN_VERSIONS_MAX);
  });

  it("when a PUT dates a version before the current one's, then 400 says versions take effect in order", async () => {
    const answer = await api.call('/api/screens/halal-plus', owner.key, {
      method: 'PUT',
      body: { base: 'shariah_aaoifi', effective_from: '2020-01-01' },
    });
    expectError(answer, 400, /before the previous version's .*versions take effect in order/);
  });

  it('when /openapi.json is read, then it is valid and documents every custom-screen operation', async () => {
    const { body } = await api.call('/openapi.json', undefined);
    expect((await new Validator().validate(body)).valid).toBe(true);
    expect(Object.keys(body.paths['/api/screens'])).toEqual(['post', 'get']);
    expect(Object.keys(body.paths['/api/screens/{slug}'])).toEqual(['get', 'put', 'delete']);
    expect(body.components.schemas.CustomScreen).toBeDefined();
  });

  it('when no key is sent, then 401', async () => {
    expect((await api.call('/api/screens', undefined)).status).toBe(401);
  });

  it('when the screen is deleted, then it is gone (404) and its slug is free again', async () => {
    expect((await api.call('/api/screens/halal-plus', owner.key, { method: 'DELETE' })).status).toBe(200);
    expectError(await api.call('/api/screens/halal-plus', owner.key), 404, /halal-plus/);
    expect((await create(owner.key, MANDATE)).body.current.version).toBe(1);
  });
});
