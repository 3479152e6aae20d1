import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../access/administration.ts';
import { timelineResponseSchema } from '../../api/schemas/timeline.ts';
import type { ScreeningResult, VerdictStatus } from '../../engine/index.ts';
import { ingestSource } from '../../sources/ingest.ts';
import { writeSnapshots } from '../../warehouse/snapshot-writer.ts';
import type { SnapshotRow } from '../../warehouse/snapshot-schema.ts';
import { meterUsed } from '../support/access.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { serveCustomScreensApi, type CustomScreensApi, type Json } from './support/custom-screens-server.ts';
import { TODAY, daysAgo, inputsOn, rowsOf } from './support/lake-fixture.ts';

/** Half-year ends of backfill history (compact results, as the backfill stores them), then today's nightly screen. */
const BACKFILL_DATES = ['2021-06-30', '2021-12-31', '2022-06-30', '2022-12-31', '2023-06-30', '2023-12-31', '2024-06-30', '2024-12-31'];

interface Shot {
  date: string;
  aaoifi: VerdictStatus;
  result: ScreeningResult;
}

/** Two consecutive backfill snapshots AAOIFI passes, where `figure` grows from the first to the second, staying below `cap`. */
interface Rise {
  ticker: string;
  before: Shot;
  at: Shot;
  low: number;
  high: number;
}

function findRise(history: Map<string, Shot[]>, figure: (shot: Shot) => number | null, cap: number): Rise {
  for (const [ticker, shots] of history)
    for (let i = 1; i < BACKFILL_DATES.length; i += 1) {
      const [before, at] = [shots[i - 1]!, shots[i]!];
      const [low, high] = [figure(before), figure(at)];
      if (before.aaoifi !== 'compliant' || at.aaoifi !== 'compliant' || low === null || high === null) continue;
      if (low > 0.001 && high - low > 0.002 && high < cap) return { ticker, before, at, low, high };
    }
  throw new Error('the sample has no rising figure between two compliant backfill snapshots');
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

describe('GET /api/screen/{market}/{ticker}/timeline?framework=custom:<slug> over real HTTP on a lake with backfilled history', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let api: CustomScreensApi;
  let owner: Awaited<ReturnType<CustomScreensApi['newKey']>>;
  const history = new Map<string, Shot[]>();
  let debtRise: Rise;
  let incomeRise: Rise;

  const create = (body: Json, key = owner.key) => api.call('/api/screens', key, { method: 'POST', body });
  const timeline = (ticker: string, query: string, key = owner.key) => api.call(`/api/screen/us/${ticker}/timeline?${query}`, key);

  beforeAll(async () => {
    temp = await makeTempDir('faithscreen-custom-timeline-');
    await ingestSource({ source: 'sample', scale: 0.002, dataDir: temp.dir, asOf: TODAY, markets: ['us'], concurrency: 2 });
    const rows: SnapshotRow[] = [];
    for (const date of BACKFILL_DATES) rows.push(...rowsOf(await inputsOn(temp.dir, 'us', date), 'backfill', `backfill-${date}`));
    rows.push(...rowsOf(await inputsOn(temp.dir, 'us', TODAY), 'nightly', 'nightly-today'));
    await writeSnapshots(temp.dir, rows, { fileStem: 'custom-timeline' });
    for (const row of rows) {
      const shots = history.get(row.ticker) ?? [];
      shots.push({ date: row.snapshot_date, aaoifi: row.shariah_aaoifi_status, result: JSON.parse(row.result_json) as ScreeningResult });
      history.set(row.ticker, shots);
    }
    debtRise = findRise(history, (shot) => shot.result.ratios.debt_to_market_cap_spot, 0.3);
    incomeRise = findRise(
      history,
      (shot) => shot.result.frameworks.shariah_aaoifi?.purification?.non_permissible_income_ratio ?? null,
      0.05,
    );
    api = await serveCustomScreensApi(temp.dir);
    owner = await api.newKey();
  }, 180_000);
  afterAll(async () => {
    await api?.close();
    await temp?.cleanup();
  });

  it("when a stricter limit catches a figure the base passed, then the point flips under today's version, which every point names", async () => {
    const { ticker, before, at, low, high } = debtRise;
    const limit = round4((low + high) / 2);
    // Version 1 (from 2015) adds nothing; version 2, in force today, tightens the debt limit: it is applied to every snapshot.
    expect((await create({ slug: 'tight-debt', base: 'shariah_aaoifi', effective_from: '2015-01-01' })).status).toBe(201);
    const put = await api.call('/api/screens/tight-debt', owner.key, {
      method: 'PUT',
      body: { base: 'shariah_aaoifi', thresholds: { debt_to_market_cap_spot: limit } },
    });
    expect(put.status).toBe(200);
    await api.access.meter.returnSpare();
    const spent = await meterUsed(api.access, owner.keyId);

    const answer = await timeline(ticker, 'framework=custom:tight-debt');
    expect(answer.status).toBe(200);
    expect(timelineResponseSchema.safeParse(answer.body).error?.issues ?? []).toEqual([]);
    expect(answer.body.custom_screen).toEqual({
      slug: 'tight-debt',
      base: 'shariah_aaoifi',
      version: 2,
      effective_from: TODAY,
      applied_as_of: TODAY,
    });
    expect(Object.keys(answer.body.frameworks)).toEqual(['custom:tight-debt']);
    const served = answer.body.frameworks['custom:tight-debt'];
    const flip = (served.changes as Json[]).find((c) => c.date === at.date)!;
    expect(flip).toMatchObject({
      previous_date: before.date,
      from: 'compliant',
      to: 'non_compliant',
      base_status: 'compliant',
      previous_base_status: 'compliant',
      custom_screen_version: 2,
      source: 'backfill',
      reasons_kept: 'deciding',
    });
    expect(flip.reasons).toEqual([
      expect.objectContaining({
        code: 'custom.tight-debt.debt_to_market_cap_spot',
        origin: 'custom',
        result: 'fail',
        value: high,
        threshold: limit,
        message: expect.stringMatching(/custom:tight-debt v2: .*stricter than the base's 30\.00%.*stored ratio/),
      }),
    ]);
    expect((served.changes as Json[]).every((c) => c.custom_screen_version === 2)).toBe(true);

    // The base alone does not change there.
    const base = await timeline(ticker, 'framework=shariah_aaoifi');
    expect((base.body.frameworks.shariah_aaoifi.changes as Json[]).some((c) => c.date === at.date)).toBe(false);
    await api.access.meter.returnSpare();
    expect((await meterUsed(api.access, owner.keyId)) - spent).toBe(6);
  });

  it("when a backfilled point lacks the figure a custom rule needs, then it is insufficient_data naming the figure, never the base's compliant", async () => {
    const { ticker, before, at, low, high } = incomeRise;
    const limit = round4((low + high) / 2);
    expect(
      (await create({ slug: 'low-income', base: 'shariah_aaoifi', thresholds: { non_permissible_income_to_total_income: limit } })).status,
    ).toBe(201);
    const answer = await timeline(ticker, `framework=custom:low-income&from=${at.date}&to=${at.date}`);
    expect(answer.status).toBe(200);
    const served = answer.body.frameworks['custom:low-income'];
    expect(served).toMatchObject({ current_status: 'insufficient_data', base_status: 'compliant', since: at.date, flips: 1 });
    expect(served.changes[0]).toMatchObject({ previous_date: before.date, from: 'compliant', to: 'insufficient_data' });
    const [missing] = served.changes[0].reasons as Json[];
    expect(missing).toMatchObject({ origin: 'custom', result: 'insufficient_data', metric: 'non_permissible_income_to_total_income' });
    expect(missing!.message).toMatch(/does not keep the non-permissible income share/);
    // The point before passed on the purification's ratio, an upper bound within the limit, and says so.
    expect(served.changes[0].cleared).toEqual([]);
  });

  it('when the range is only the newest snapshot, then since still reaches back to where the custom status began', async () => {
    const { ticker } = debtRise;
    expect((await create({ slug: 'never-this', base: 'shariah_aaoifi', exclude_tickers: [`us/${ticker}`] })).status).toBe(201);
    const answer = await timeline(ticker, `framework=custom:never-this&from=${TODAY}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ from: TODAY, snapshots_in_range: 1, first_snapshot_date: BACKFILL_DATES[0] });
    expect(answer.body.frameworks['custom:never-this']).toMatchObject({
      current_status: 'non_compliant',
      since: BACKFILL_DATES[0],
      flips: 0,
      changes: [],
    });
  });

  it('when another account asks for the screen by its slug, or the slug is unknown, then 404 as for any custom screen', async () => {
    const stranger = await api.newKey();
    const hidden = await timeline(debtRise.ticker, 'framework=custom:tight-debt', stranger.key);
    expect(hidden.status).toBe(404);
    expect(hidden.body.detail).toMatch(/no custom screen 'tight-debt' in this account/);
    const unknown = await timeline(debtRise.ticker, 'framework=custom:never-made');
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toMatch(/no custom screen 'never-made' in this account/);
  });

  it("when the key is not granted the screen's base framework, then 403 names it", async () => {
    const narrow = await createKey(api.access.store, api.access.hashSecret, { account: owner.account, frameworks: ['christian_bri'] });
    const answer = await timeline(debtRise.ticker, 'framework=custom:tight-debt', narrow.key);
    expect(answer.status).toBe(403);
    expect(answer.body.detail).toMatch(/not provisioned for framework\(s\) shariah_aaoifi/);
  });

  it('when no version of the screen is in force today, then 409 says when the first takes effect', async () => {
    const later = daysAgo(-30);
    expect((await create({ slug: 'next-month', base: 'shariah_aaoifi', effective_from: later })).status).toBe(201);
    const answer = await timeline(debtRise.ticker, 'framework=custom:next-month');
    expect(answer.status).toBe(409);
    expect(answer.body.detail).toMatch(
      new RegExp(`no version of custom:next-month is in force today \\(its first takes effect on ${later}\\)`),
    );
  });

  it('when a custom screen is mixed with other frameworks, or its slug is malformed, then 400 says what is valid', async () => {
    const mixed = await timeline(debtRise.ticker, 'framework=custom:tight-debt,shariah_aaoifi');
    expect(mixed.status).toBe(400);
    expect(mixed.body.detail).toMatch(/ask for one custom screen alone/);
    const bad = await timeline(debtRise.ticker, 'framework=custom:Bad_Slug');
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/framework: 'Bad_Slug' is not a valid slug/);
  });

  it('when the ticker has no history, then 404 as for any framework', async () => {
    const answer = await timeline('NOPE1', 'framework=custom:tight-debt');
    expect(answer.status).toBe(404);
    expect(answer.body.detail).toMatch(/not listed in market 'us'/);
  });
});
