import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSharedServingStores } from '../../serving/open-serving-store.ts';
import { writeSnapshots } from '../../warehouse/snapshot-writer.ts';
import { buildLake, inputsOn, rowsOf, TODAY, type FixtureTickers } from '../api/support/lake-fixture.ts';
import { testServiceState } from '../support/service-state.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { startApiProcess, stop, type ApiProcess } from './support/api-process.ts';

const run = promisify(execFile);
const BIN = new URL('../../bin/faithscreen.js', import.meta.url).pathname;

/**
 * Two `faithscreen api` processes on two DATA_DIRs (each its own lake) with one PostgreSQL: the
 * serving store is shared, so a snapshot published to one lake is answered by the other API
 * (docs/serving.md, "The serving store"). Real snapshots of the sample source (SYNTHETIC data).
 */
describe('the serving store on PostgreSQL, shared by two APIs on two DATA_DIRs', () => {
  let a: Awaited<ReturnType<typeof makeTempDir>>;
  let b: Awaited<ReturnType<typeof makeTempDir>>;
  let t: FixtureTickers;
  let databaseUrl: string;
  let apis: ApiProcess[] = [];
  const keys: string[] = [];

  /** The CLI on one DATA_DIR with the shared PostgreSQL. */
  async function cliOn(dataDir: string, ...args: string[]): Promise<string> {
    const { stdout } = await run(process.execPath, [BIN, ...args], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl },
    });
    return stdout;
  }

  beforeAll(async () => {
    [a, b] = await Promise.all([makeTempDir('faithscreen-serving-a-'), makeTempDir('faithscreen-serving-b-')]);
    [t] = await Promise.all([buildLake(a.dir), buildLake(b.dir)]);
    databaseUrl = (await testServiceState(a.dir)).databaseUrl!;
    // Each API copies its own lake into the one store at start (the same rows: upserts).
    apis = await Promise.all([
      startApiProcess(a.dir, { DATABASE_URL: databaseUrl }),
      startApiProcess(b.dir, { DATABASE_URL: databaseUrl }),
    ]);
  }, 240_000);
  afterAll(async () => {
    await Promise.all(apis.map(stop));
    await Promise.all([a?.cleanup(), b?.cleanup()]);
  });

  it('when a snapshot of an older day is published to one lake, then the API on the other DATA_DIR answers it within 2 s', async () => {
    const day = '2018-03-30';
    const asOf = (api: ApiProcess) =>
      fetch(`${api.url}/api/screen/us/${t.withHistory}?as_of=2018-04-15`, { headers: { 'X-API-Key': keys[apis.indexOf(api)]! } }).then(
        async (r) => ({
          status: r.status,
          body: (await r.json()) as { snapshot_date?: string },
        }),
      );
    // A key for each DATA_DIR (each has its own key-hash secret here); the account is shared.
    await cliOn(a.dir, 'accounts', 'create', 'reader', '--tier', 'partner');
    for (const dir of [a.dir, b.dir])
      keys.push(
        (JSON.parse(await cliOn(dir, 'keys', 'create', '--account', 'reader', '--daily-limit', '1000', '--json')) as { key: string }).key,
      );
    // Before: both answer from the 2015 snapshot.
    for (const api of apis) expect(await asOf(api)).toMatchObject({ status: 200, body: { snapshot_date: '2015-06-30' } });
    // A backfill of that day published to lake A only, by a process whose configuration names the same PostgreSQL.
    const rows = rowsOf(await inputsOn(a.dir, 'us', day, [t.withHistory]), 'backfill', 'backfill-shared');
    process.env.DATABASE_URL = databaseUrl;
    try {
      await writeSnapshots(a.dir, rows, { fileStem: 'shared-backfill' });
    } finally {
      delete process.env.DATABASE_URL;
      await closeSharedServingStores();
    }
    const published = performance.now();
    let answered = Infinity;
    while (performance.now() - published < 5_000) {
      if ((await asOf(apis[1]!)).body.snapshot_date === day) {
        answered = performance.now() - published;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(answered).toBeLessThan(2_000);
    expect(await asOf(apis[0]!)).toMatchObject({ status: 200, body: { snapshot_date: day } });
  });

  it('when a re-screen of today is published to one lake, then the API on the other DATA_DIR serves it as the current verdict within 2 s', async () => {
    const ticker = t.fresh[0]!;
    const screenedAt = `${TODAY}T11:00:00.000`;
    const current = (api: ApiProcess) =>
      fetch(`${api.url}/api/screen/us/${ticker}`, { headers: { 'X-API-Key': keys[apis.indexOf(api)]! } }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as { report?: { financial_data?: { provenance?: { screened_at?: string } } } },
      }));
    for (const api of apis) expect((await current(api)).body.report?.financial_data?.provenance?.screened_at).not.toBe(screenedAt);
    const rows = rowsOf(await inputsOn(a.dir, 'us', TODAY, [ticker]), 'nightly', 'refresh-shared').map((row) => ({
      ...row,
      source: 'refresh',
      screened_at: screenedAt,
    }));
    process.env.DATABASE_URL = databaseUrl;
    try {
      await writeSnapshots(a.dir, rows, { fileStem: 'shared-refresh' });
    } finally {
      delete process.env.DATABASE_URL;
      await closeSharedServingStores();
    }
    const published = performance.now();
    // Each API follows the store on its own 0.5 s poll: both must serve it within 2 s.
    const answeredBy = async (api: ApiProcess): Promise<number> => {
      while (performance.now() - published < 5_000) {
        if ((await current(api)).body.report?.financial_data?.provenance?.screened_at === screenedAt) return performance.now() - published;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return Infinity;
    };
    const [onA, onB] = await Promise.all(apis.map(answeredBy));
    expect(onB).toBeLessThan(2_000);
    expect(onA).toBeLessThan(2_000);
  });
});
