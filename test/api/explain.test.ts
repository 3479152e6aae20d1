import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessSetup } from '../../access/open-access.ts';
import { explainResponseSchema } from '../../api/schemas/explain.ts';
import { errorSchema } from '../../api/schemas/responses.ts';
import { unavailableRefresher } from '../../api/refresher.ts';
import { SHARIAH_FRAMEWORK_IDS } from '../../engine/index.ts';
import { keyFor, meterUsed, openTestAccess } from '../support/access.ts';
import { listen } from '../support/http.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { buildLake, createTestApi, type FixtureTickers, type TestApi } from './support/lake-fixture.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON under test
type Json = Record<string, any>;

describe('GET /api/screen/{market}/{ticker}/explain over real HTTP on the sample universe', () => {
  let lakeDir: Awaited<ReturnType<typeof makeTempDir>>;
  let serviceDir: Awaited<ReturnType<typeof makeTempDir>>;
  let access: AccessSetup;
  let api: TestApi;
  let server: { url: string; close: () => Promise<void> };
  let key: { key: string; keyId: string };
  let t: FixtureTickers;

  const get = async (path: string, apiKey: string | null = key.key, method = 'GET') => {
    const headers: Record<string, string> = apiKey === null ? {} : { 'X-API-Key': apiKey };
    const response = await fetch(`${server.url}${path}`, { method, headers });
    return { status: response.status, body: (await response.json()) as Json };
  };

  beforeAll(async () => {
    lakeDir = await makeTempDir();
    serviceDir = await makeTempDir();
    t = await buildLake(lakeDir.dir);
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

  it('when Shariah methodologies disagree on a stock, then each disagreeing pair names checks whose figures are the screen report’s own', async () => {
    let explained = 0;
    for (const ticker of t.fresh) {
      const { status, body } = await get(`/api/screen/us/${ticker}/explain`);
      expect(status).toBe(200);
      expect(explainResponseSchema.safeParse(body).error?.issues ?? []).toEqual([]);
      const report = (await get(`/api/screen/us/${ticker}`)).body.report as Json;
      const shariah = SHARIAH_FRAMEWORK_IDS.filter((id, i) =>
        SHARIAH_FRAMEWORK_IDS.slice(i + 1).some((o) => report[o].status !== report[id].status),
      );
      for (const pair of body.disagreements as Json[]) {
        const [a, b] = pair.frameworks as [string, string];
        expect(pair.statuses).toEqual([report[a].status, report[b].status]);
        expect(pair.statuses[0]).not.toBe(pair.statuses[1]);
        expect(pair.checks.length).toBeGreaterThan(0);
        for (const check of pair.checks as Json[]) {
          for (const side of check.sides as Json[]) {
            if (side.check === null) continue;
            const reason = (report[side.framework].reasons as Json[]).find((r) => r.code === side.check.code);
            expect(reason, `${side.framework} ${side.check.code}`).toBeDefined();
            expect(side.check.value).toBe(reason!.value ?? null);
            expect(side.check.threshold).toBe(reason!.threshold ?? null);
          }
          expect(check.explanation).toBe(`${check.sides[0].words.replace(/\.+$/, '')}; ${check.sides[1].words.replace(/\.+$/, '')}.`);
        }
        explained += 1;
      }
      expect(body.disagreements.some((p: Json) => p.frameworks[0].startsWith('shariah_'))).toBe(shariah.length > 0);
      expect(body).toMatchObject({ market: 'us', ticker, as_of: null, reasons_kept: 'all', provenance: { synthetic: true } });
    }
    expect(explained).toBeGreaterThan(0);
  });

  it('when as_of reads a backfilled snapshot, then it says only deciding checks were kept and recomputes passing ratio checks', async () => {
    const { status, body } = await get(`/api/screen/us/${t.withHistory}/explain?as_of=2021-01-15`);
    expect(status).toBe(200);
    expect(explainResponseSchema.safeParse(body).error?.issues ?? []).toEqual([]);
    expect(body).toMatchObject({ as_of: '2021-01-15', snapshot_date: '2020-12-31', reasons_kept: 'deciding' });
    const sides = (body.disagreements as Json[]).flatMap((p) => p.checks.flatMap((c: Json) => c.sides)) as Json[];
    const recomputed = sides.filter((side) => side.check?.stored === false);
    expect(recomputed.every((side) => /recomputed: the snapshot keeps only deciding checks/.test(String(side.words)))).toBe(true);
  });

  it('when a framework filter is sent, then only pairs of those frameworks are compared', async () => {
    const { status, body } = await get(`/api/screen/us/${t.fresh[0]}/explain?framework=shariah_aaoifi,shariah_ftse`);
    expect(status).toBe(200);
    expect(Object.keys(body.statuses)).toEqual(['shariah_aaoifi', 'shariah_ftse']);
    for (const p of [...body.disagreements, ...body.near_limit_agreements] as Json[])
      expect(p.frameworks).toEqual(['shariah_aaoifi', 'shariah_ftse']);
  });

  it('costs 1 unit for the current snapshot and 2 with as_of; a refused request costs nothing', async () => {
    const own = await keyFor(access, 'pro');
    const used = async () => {
      await access.meter.returnSpare();
      return meterUsed(access, own.keyId);
    };
    expect((await get(`/api/screen/us/${t.fresh[0]}/explain`, own.key)).status).toBe(200);
    expect(await used()).toBe(1);
    expect((await get(`/api/screen/us/${t.withHistory}/explain?as_of=2021-01-15`, own.key)).status).toBe(200);
    expect(await used()).toBe(3);
    expect((await get(`/api/screen/us/${t.fresh[0]}/explain?framework=halal_x`, own.key)).status).toBe(400);
    expect(await used()).toBe(3);
  });

  describe('refusals', () => {
    it.each([
      ['an unknown market', '/api/screen/xx/AAA/explain', /market: unknown market 'xx'; valid markets: us/],
      ['an invalid ticker', '/api/screen/us/BAD$/explain', /ticker: invalid ticker 'BAD\$'/],
      ['an unknown framework', '/api/screen/us/{t}/explain?framework=halal_x', /framework: unknown framework id\(s\) halal_x; valid ids:/],
      ['a malformed as_of', '/api/screen/us/{t}/explain?as_of=2020-13-01', /as_of: /],
      ['an as_of in the future', '/api/screen/us/{t}/explain?as_of=2999-01-01', /as_of: 2999-01-01 is in the future/],
      ['an as_of before history', '/api/screen/us/{t}/explain?as_of=2008-12-31', /as_of: 2008-12-31 is before 2009-01-01/],
    ])('when the request has %s, then 400 names the problem', async (_what, path, pattern) => {
      const answer = await get(path.replace('{t}', t.fresh[0]!));
      expect(answer.status).toBe(400);
      expect(errorSchema.safeParse(answer.body).success).toBe(true);
      expect(String(answer.body.detail)).toMatch(pattern);
    });

    it('when a query parameter is repeated, then 422 names it', async () => {
      const answer = await get(`/api/screen/us/${t.fresh[0]}/explain?as_of=2021-01-01&as_of=2021-02-01`);
      expect(answer.status).toBe(422);
      expect(answer.body.detail).toMatch(/query\.as_of: expected string/);
    });

    it('when the ticker is not listed, or has no snapshot at as_of, then 404 says so', async () => {
      const unknown = await get('/api/screen/us/ZZZZ9/explain');
      expect(unknown.status).toBe(404);
      expect(unknown.body.detail).toMatch(/ticker 'ZZZZ9' is not listed in market 'us'/);
      const early = await get(`/api/screen/us/${t.withHistory}/explain?as_of=2012-01-01`);
      expect(early.status).toBe(404);
      expect(early.body.detail).toBe(
        `no compliance history for us/${t.withHistory} at or before 2012-01-01; its first snapshot is dated 2015-06-30`,
      );
    });

    it('when the route is asked with POST, then 405', async () => {
      expect((await get(`/api/screen/us/${t.fresh[0]}/explain`, key.key, 'POST')).status).toBe(405);
    });

    it('when no key is sent, then 401', async () => {
      const answer = await get(`/api/screen/us/${t.fresh[0]}/explain`, null);
      expect(answer.status).toBe(401);
      expect(answer.body.detail).toMatch(/X-API-Key/);
    });

    it('when the key is not granted the market, a framework or the history tag, then 403 names what it may use', async () => {
      const gbOnly = await keyFor(access, 'partner', { markets: ['gb'] });
      const market = await get(`/api/screen/us/${t.fresh[0]}/explain`, gbOnly.key);
      expect(market.status).toBe(403);
      expect(market.body.detail).toBe("this key is not provisioned for market 'us'; it may use: gb");
      const djimOnly = await keyFor(access, 'partner', { frameworks: ['shariah_djim'] });
      const framework = await get(`/api/screen/us/${t.fresh[0]}/explain?framework=shariah_aaoifi`, djimOnly.key);
      expect(framework.status).toBe(403);
      expect(framework.body.detail).toBe('this key is not provisioned for framework(s) shariah_aaoifi; it may see: shariah_djim');
      const screenOnly = await keyFor(access, 'partner', { endpoints: ['screen'] });
      const history = await get(`/api/screen/us/${t.withHistory}/explain?as_of=2021-01-15`, screenOnly.key);
      expect(history.status).toBe(403);
      expect(history.body.detail).toBe("this key is not provisioned for endpoint 'screen/history'; it may use: screen");
    });
  });

  it('documents the route in /openapi.json with its tag, unit cost and answers', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as Json;
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    const op = doc.paths['/api/screen/{market}/{ticker}/explain'].get;
    expect(op).toMatchObject({
      'x-endpoint-tag': 'screen',
      'x-unit-cost': '1; 2 with as_of (tag screen/history)',
      security: [{ apiKey: [] }],
    });
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404', '422', '429']));
    expect(doc.components.schemas.ExplainResponse).toBeDefined();
  });
});
