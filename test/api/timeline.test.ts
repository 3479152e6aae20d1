import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timelineResponseSchema } from '../../api/schemas/timeline.ts';
import { FRAMEWORK_IDS, type FrameworkId, type Reason, type ScreeningResult, type VerdictStatus } from '../../engine/index.ts';
import type { AccessSetup } from '../../access/open-access.ts';
import { ingestSource } from '../../sources/ingest.ts';
import { writeSnapshots } from '../../warehouse/snapshot-writer.ts';
import type { SnapshotRow } from '../../warehouse/snapshot-schema.ts';
import { keyFor, openTestAccess } from '../support/access.ts';
import { listen } from '../support/http.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { TODAY, createTestApi, inputsOn, rowsOf, type TestApi } from './support/lake-fixture.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response JSON under test
type Json = Record<string, any>;

/** Half-year ends of backfill history (compact results, as the backfill stores them), then today's nightly screen. */
const BACKFILL_DATES = [
  '2020-06-30',
  '2020-12-31',
  '2021-06-30',
  '2021-12-31',
  '2022-06-30',
  '2022-12-31',
  '2023-06-30',
  '2023-12-31',
  '2024-06-30',
  '2024-12-31',
  '2025-06-30',
];

/** One snapshot as the test wrote it: what the timeline must reproduce. */
interface Shot {
  date: string;
  source: string;
  statuses: Record<FrameworkId, VerdictStatus>;
  result: ScreeningResult;
}

function shotOf(row: SnapshotRow): Shot {
  const statuses = Object.fromEntries(
    FRAMEWORK_IDS.map((id) => [id, row[`${id}_status` as keyof SnapshotRow] as VerdictStatus]),
  ) as Shot['statuses'];
  return { date: row.snapshot_date, source: row.source, statuses, result: JSON.parse(row.result_json) as ScreeningResult };
}

const RESULT_OF_STATUS: Record<VerdictStatus, Reason['result'] | null> = {
  non_compliant: 'fail',
  questionable: 'questionable',
  insufficient_data: 'insufficient_data',
  compliant: null,
};

/** The stored reasons of `shot` whose result set `status` (none for compliant). */
function settingReasons(shot: Shot, id: FrameworkId, status: VerdictStatus): Reason[] {
  const result = RESULT_OF_STATUS[status];
  return (shot.result.frameworks[id]?.reasons ?? []).filter((reason) => reason.result === result);
}

/** The changes of one framework between consecutive snapshots dated from `from` to `to`, worked out from the snapshots written. */
function expectedChanges(shots: readonly Shot[], id: FrameworkId, from: string, to: string) {
  const changes = [];
  for (let i = 1; i < shots.length; i += 1) {
    const [before, at] = [shots[i - 1]!, shots[i]!];
    if (at.date < from || at.date > to || before.statuses[id] === at.statuses[id]) continue;
    changes.push({ date: at.date, previous_date: before.date, from: before.statuses[id], to: at.statuses[id], before, at });
  }
  return changes;
}

const codesAndValues = (reasons: readonly Reason[]) => reasons.map((reason) => ({ code: reason.code, value: reason.value }));

describe('GET /api/screen/{market}/{ticker}/timeline over a real lake with several snapshots', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let serviceDir: Awaited<ReturnType<typeof makeTempDir>>;
  let access: AccessSetup;
  let api: TestApi;
  let server: Awaited<ReturnType<typeof listen>>;
  let key: string;
  const history = new Map<string, Shot[]>();
  /** The ticker with the most status changes across all frameworks; `unscreened` is listed but never screened. */
  let ticker: string;
  let unscreened: string;

  const call = async (path: string, withKey = key) => {
    const response = await fetch(`${server.url}${path}`, { headers: { 'X-API-Key': withKey } });
    return { status: response.status, body: (await response.json()) as Json };
  };

  beforeAll(async () => {
    temp = await makeTempDir();
    serviceDir = await makeTempDir();
    await ingestSource({ source: 'sample', scale: 0.002, dataDir: temp.dir, asOf: TODAY, markets: ['us'], concurrency: 2 });
    const listed = (await inputsOn(temp.dir, 'us', TODAY)).map((input) => input.listing.ticker);
    unscreened = listed.at(-1)!;
    const screened = listed.slice(0, -1);
    const rows: SnapshotRow[] = [];
    for (const date of BACKFILL_DATES) rows.push(...rowsOf(await inputsOn(temp.dir, 'us', date, screened), 'backfill', `backfill-${date}`));
    rows.push(...rowsOf(await inputsOn(temp.dir, 'us', TODAY, screened), 'nightly', 'nightly-today'));
    await writeSnapshots(temp.dir, rows, { fileStem: 'timeline' });
    for (const row of rows) {
      const shots = history.get(row.ticker) ?? [];
      shots.push(shotOf(row));
      history.set(row.ticker, shots);
    }
    const flipsOf = (shots: Shot[]) => FRAMEWORK_IDS.reduce((n, id) => n + expectedChanges(shots, id, '2009-01-01', TODAY).length, 0);
    ticker = [...history.entries()].sort(([a, x], [b, y]) => flipsOf(y) - flipsOf(x) || (a < b ? -1 : 1))[0]![0];

    access = await openTestAccess(serviceDir.dir);
    api = await createTestApi(temp.dir, undefined, access.middleware);
    server = await listen(api.app);
    // service_consensus needs its own grant (docs/access.md): this key is granted all ten.
    key = (await keyFor(access, 'partner', { dailyLimit: 100_000, frameworks: [...FRAMEWORK_IDS] })).key;
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    await api?.reads.close();
    await api?.forensic.close();
    await access?.close();
    await temp?.cleanup();
    await serviceDir?.cleanup();
  });

  it('when the whole history is asked, then every framework lists the changes, flips, current status and since of its snapshots', async () => {
    const shots = history.get(ticker)!;
    const { status, body } = await call(`/api/screen/us/${ticker.toLowerCase()}/timeline`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      ticker,
      market: 'us',
      from: BACKFILL_DATES[0],
      to: TODAY,
      first_snapshot_date: BACKFILL_DATES[0],
      snapshots_in_range: BACKFILL_DATES.length + 1,
      latest_snapshot: { date: TODAY, source: 'nightly', reasons_kept: 'all' },
      provenance: { synthetic: true, notice: expect.stringMatching(/Synthetic sample data/) },
    });
    expect(Object.keys(body.frameworks)).toEqual([...FRAMEWORK_IDS]);
    // The documented schema (OpenAPI) describes the answer exactly: no field more, none missing.
    expect(timelineResponseSchema.safeParse(body).error?.issues ?? []).toEqual([]);
    let total = 0;
    for (const id of FRAMEWORK_IDS) {
      const expected = expectedChanges(shots, id, BACKFILL_DATES[0]!, TODAY);
      const served = body.frameworks[id];
      total += served.flips;
      expect(served.flips).toBe(expected.length);
      expect(served.changes.map((c: Json) => [c.date, c.previous_date, c.from, c.to, c.source, c.reasons_kept])).toEqual(
        expected.map((c) => [c.date, c.previous_date, c.from, c.to, c.at.source, c.at.source === 'backfill' ? 'deciding' : 'all']),
      );
      const current = shots.at(-1)!.statuses[id];
      expect(served.current_status).toBe(current);
      const runStart = [...shots].reverse().findIndex((shot) => shot.statuses[id] !== current);
      expect(served.since).toBe(runStart === -1 ? shots[0]!.date : shots[shots.length - runStart]!.date);
    }
    expect(total).toBeGreaterThan(1);
  });

  it('when a status changed, then the change carries the checks that set the new status and those that had set the old one, with their values', async () => {
    const shots = history.get(ticker)!;
    const { body } = await call(`/api/screen/us/${ticker}/timeline`);
    let withReasons = 0;
    for (const id of FRAMEWORK_IDS) {
      expectedChanges(shots, id, BACKFILL_DATES[0]!, TODAY).forEach((change, n) => {
        const served = body.frameworks[id].changes[n];
        const cleared = settingReasons(change.before, id, change.from);
        const codes = new Set(cleared.map((reason) => reason.code));
        const decided =
          change.to === 'compliant'
            ? (change.at.result.frameworks[id]?.reasons ?? []).filter((reason) => codes.has(reason.code))
            : settingReasons(change.at, id, change.to);
        expect(codesAndValues(served.reasons)).toEqual(codesAndValues(decided));
        expect(codesAndValues(served.cleared)).toEqual(codesAndValues(cleared));
        expect([served.previous_methodology_version, served.methodology_version]).toEqual([
          change.before.result.frameworks[id]!.methodology_version,
          change.at.result.frameworks[id]!.methodology_version,
        ]);
        withReasons += served.reasons.length;
      });
    }
    expect(withReasons).toBeGreaterThan(0);
  });

  it('when the newest snapshot kept every check, then each limit carries its latest margin as stored', async () => {
    const today = history.get(ticker)!.at(-1)!;
    const { body } = await call(`/api/screen/us/${ticker}/timeline?framework=shariah_aaoifi,shariah_ftse`);
    expect(Object.keys(body.frameworks)).toEqual(['shariah_aaoifi', 'shariah_ftse']);
    for (const id of ['shariah_aaoifi', 'shariah_ftse'] as const) {
      const stored = today.result.frameworks[id]!.reasons.filter((reason) => typeof reason.margin === 'number');
      expect(stored.length).toBeGreaterThan(0);
      expect(body.frameworks[id].margins).toEqual(
        stored.map((reason) => ({
          code: reason.code,
          metric: reason.metric ?? null,
          value: reason.value ?? null,
          threshold: reason.threshold ?? null,
          operator: reason.operator ?? null,
          within_limit: reason.within_limit ?? null,
          margin: reason.margin,
          near_limit: reason.near_limit ?? false,
        })),
      );
    }
  });

  it('when from and to narrow the range, then only changes dated inside count and the status is the one at to', async () => {
    const shots = history.get(ticker)!;
    const [from, to] = ['2021-06-30', '2024-03-15'];
    const { status, body } = await call(`/api/screen/us/${ticker}/timeline?from=${from}&to=${to}`);
    expect(status).toBe(200);
    expect(timelineResponseSchema.safeParse(body).error?.issues ?? []).toEqual([]);
    expect(body).toMatchObject({ from, to, snapshots_in_range: 6, latest_snapshot: { date: '2023-12-31', reasons_kept: 'deciding' } });
    const atTo = shots.find((shot) => shot.date === '2023-12-31')!;
    for (const id of FRAMEWORK_IDS) {
      const expected = expectedChanges(shots, id, from, to);
      expect(body.frameworks[id].flips).toBe(expected.length);
      expect(body.frameworks[id].changes.map((c: Json) => c.date)).toEqual(expected.map((c) => c.date));
      expect(body.frameworks[id].current_status).toBe(atTo.statuses[id]);
    }
  });

  it('when the range starts on a snapshot whose status differs from the one before, then that change counts', async () => {
    const shots = history.get(ticker)!;
    const first = FRAMEWORK_IDS.flatMap((id) => expectedChanges(shots, id, '2009-01-01', TODAY).map((c) => ({ id, ...c })))[0]!;
    const { body } = await call(`/api/screen/us/${ticker}/timeline?framework=${first.id}&from=${first.date}&to=${first.date}`);
    expect(body.frameworks[first.id]).toMatchObject({ flips: 1, current_status: first.to, since: first.date });
    expect(body.frameworks[first.id].changes[0]).toMatchObject({ date: first.date, previous_date: first.previous_date });
  });

  it('when a refresh was published moments ago and is known only in memory, then the timeline ends with it', async () => {
    const other = [...history.keys()].find((candidate) => candidate !== ticker)!;
    const [before, today] = history.get(other)!.slice(-2) as [Shot, Shot];
    const result = structuredClone(today.result);
    const lds = result.frameworks.lds_mormon!;
    // The opposite of the snapshot before today, so the refresh is a change whatever the nightly said.
    const flipped: VerdictStatus = before.statuses.lds_mormon === 'non_compliant' ? 'compliant' : 'non_compliant';
    const failing: Reason = {
      code: 'lds_mormon.refresh_probe',
      result: 'fail',
      message: 'a check that failed on re-screening',
      value: 0.5,
    };
    lds.status = flipped;
    lds.reasons = flipped === 'non_compliant' ? [...lds.reasons, failing] : lds.reasons.filter((reason) => reason.result !== 'fail');
    api.reads.remember({
      market: 'us',
      ticker: other,
      snapshotDate: TODAY,
      screenedAt: `${TODAY}T09:30:00.000`,
      source: 'refresh',
      result,
    });

    const { body } = await call(`/api/screen/us/${other}/timeline?framework=lds_mormon`);
    expect(body.latest_snapshot).toMatchObject({
      date: TODAY,
      screened_at: `${TODAY}T09:30:00.000`,
      source: 'refresh',
      reasons_kept: 'all',
    });
    expect(body.frameworks.lds_mormon.current_status).toBe(flipped);
    const last = body.frameworks.lds_mormon.changes.at(-1);
    // The refresh supersedes the nightly screen of the same day: it is compared with the snapshot before today.
    expect(last).toMatchObject({
      date: TODAY,
      previous_date: before.date,
      from: before.statuses.lds_mormon,
      to: flipped,
      source: 'refresh',
    });
    const served = last.reasons.map((r: Json) => r.code);
    expect(served.includes('lds_mormon.refresh_probe')).toBe(flipped === 'non_compliant');
  });

  describe('bad input', () => {
    it.each([
      ['from=2021-13-01', /query\.from: expected a date YYYY-MM-DD|from: '2021-13-01' is not a calendar date/],
      ['from=2021-02-30', /from: '2021-02-30' is not a calendar date; expected YYYY-MM-DD/],
      ['from=2008-12-31', /from: 2008-12-31 is before 2009-01-01, where compliance history starts/],
      ['to=2999-01-01', /to: 2999-01-01 is in the future; the latest valid date is today/],
      ['from=2024-01-01&to=2023-01-01', /from: 2024-01-01 is after to=2023-01-01; from must be on or before to/],
      ['from=yesterday', /query\.from: expected a date YYYY-MM-DD/],
      ['framework=shariah_aaoifi,halal_x', /unknown framework id\(s\) halal_x; valid ids: shariah_aaoifi/],
    ])('when %s, then 400 names the problem and what is valid', async (query, detail) => {
      const { status, body } = await call(`/api/screen/us/${ticker}/timeline?${query}`);
      expect(status).toBe(400);
      expect(body.detail).toMatch(detail);
    });

    it('when the market is unknown or the ticker malformed, then 400 names the valid values', async () => {
      const market = await call(`/api/screen/xx/${ticker}/timeline`);
      expect(market.status).toBe(400);
      expect(market.body.detail).toMatch(/unknown market 'xx'; valid markets: .*us/);
      const malformed = await call(`/api/screen/us/${encodeURIComponent('$BAD')}/timeline`);
      expect(malformed.status).toBe(400);
      expect(malformed.body.detail).toMatch(/invalid ticker/);
    });

    it('when a query parameter is repeated, then 422 says the shape is wrong', async () => {
      const { status, body } = await call(`/api/screen/us/${ticker}/timeline?from=2021-01-01&from=2022-01-01`);
      expect(status).toBe(422);
      expect(body.detail).toMatch(/query\.from: expected string/);
    });

    it('when to is before the first snapshot, then 404 names the first snapshot date', async () => {
      const { status, body } = await call(`/api/screen/us/${ticker}/timeline?to=2019-01-01`);
      expect(status).toBe(404);
      expect(body.detail).toBe(`no compliance history for us/${ticker} at or before to=2019-01-01; its first snapshot is dated 2020-06-30`);
    });

    it('when the ticker is unknown, or listed but never screened, then 404 says which', async () => {
      const unknown = await call('/api/screen/us/ZZZZ9/timeline');
      expect(unknown.status).toBe(404);
      expect(unknown.body.detail).toMatch(/ticker 'ZZZZ9' is not listed in market 'us' and has no compliance history/);
      const never = await call(`/api/screen/us/${unscreened}/timeline`);
      expect(never.status).toBe(404);
      expect(never.body.detail).toBe(`no compliance history for us/${unscreened}: it has no snapshots yet`);
    });
  });

  describe('access', () => {
    it('when the key lists frameworks, then an unfiltered timeline has only those and another framework is 403', async () => {
      const scoped = await keyFor(access, 'partner', { frameworks: ['shariah_msci', 'lds_mormon'] });
      const all = await call(`/api/screen/us/${ticker}/timeline`, scoped.key);
      expect(all.status).toBe(200);
      expect(Object.keys(all.body.frameworks)).toEqual(['shariah_msci', 'lds_mormon']);
      const denied = await call(`/api/screen/us/${ticker}/timeline?framework=shariah_aaoifi`, scoped.key);
      expect(denied.status).toBe(403);
      expect(denied.body.detail).toMatch(/not provisioned for framework\(s\) shariah_aaoifi; it may see: shariah_msci, lds_mormon/);
    });

    it('when the key is not granted the market or the history endpoint, then 403', async () => {
      const gbOnly = await keyFor(access, 'partner', { markets: ['gb'] });
      const market = await call(`/api/screen/us/${ticker}/timeline`, gbOnly.key);
      expect(market.status).toBe(403);
      expect(market.body.detail).toMatch(/not provisioned for market 'us'/);
      const screenOnly = await keyFor(access, 'partner', { endpoints: ['screen'] });
      const endpoint = await call(`/api/screen/us/${ticker}/timeline`, screenOnly.key);
      expect(endpoint.status).toBe(403);
      expect(endpoint.body.detail).toMatch(/screen\/history/);
    });

    it('when a timeline is served, then it costs 3 units of the key', async () => {
      const metered = await keyFor(access, 'partner');
      expect((await call(`/api/screen/us/${ticker}/timeline?framework=shariah_sp`, metered.key)).status).toBe(200);
      await access.meter.returnSpare();
      expect(Number((await access.store.window(metered.keyId, 'daily'))?.used ?? 0)).toBe(3);
    });
  });
});
