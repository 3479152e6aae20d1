import { rm } from 'node:fs/promises';
import Database from 'libsql';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiReads } from '../../reads/api-reads.ts';
import { RENDER_VERSION } from '../../serving/default-report.ts';
import { closeSharedServingStores } from '../../serving/open-serving-store.ts';
import { buildLake } from '../api/support/lake-fixture.ts';
import { publishTickerFile } from '../support/synthetic-snapshots.ts';
import { runFaithscreen } from '../api/support/attest-fixture.ts';
import { makeTempDir } from '../support/temp-dir.ts';

/** `faithscreen serving rebuild|check` on a lake of SYNTHETIC snapshots (docs/serving.md, "The serving store"). */
describe('faithscreen serving rebuild and check', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;

  beforeAll(async () => {
    temp = await makeTempDir('faithscreen-serving-cli-');
    for (const date of ['2024-01-31', '2024-02-29', '2024-03-28']) await publishTickerFile(temp.dir, date, 40, `cli-${date}`);
    await closeSharedServingStores();
  });

  it('when the writer filled the store at publish, then check finds it equal to the lake', async () => {
    const { code, stdout } = await runFaithscreen(temp.dir, ['serving', 'check', '--days', '3']);
    expect(JSON.parse(stdout)).toMatchObject({ mismatchCount: 0, snapshotsCompared: 120 });
    expect(code).toBe(0);
    // Removed, as an upgrade from a release without a store would find it.
    for (const suffix of ['', '-wal', '-shm']) await rm(path.join(temp.dir, `serving.db${suffix}`), { force: true });
  });
  afterAll(async () => {
    await temp?.cleanup();
  });

  it('when the store lacks what the lake holds, then check exits 1 naming the snapshots missing', async () => {
    const { code, stdout } = await runFaithscreen(temp.dir, ['serving', 'check']);
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as { mismatchCount: number; mismatches: Array<{ store: string | null; lake: string | null }> };
    expect(report.mismatchCount).toBeGreaterThan(0);
    expect(report.mismatches[0]).toMatchObject({ store: null, lake: expect.any(String) });
  });

  it('when rebuilt, then every file is copied with progress, check passes, and a second rebuild copies nothing', async () => {
    const first = await runFaithscreen(temp.dir, ['serving', 'rebuild']);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ lakeFiles: 3, filesCopied: 3, rowsCopied: 120 });
    expect(first.stderr).toMatch(/serving rebuild: 3\/3 files, 120 snapshots copied/);
    const check = await runFaithscreen(temp.dir, ['serving', 'check', '--days', '3']);
    expect(check.code).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({ mismatchCount: 0, snapshotsCompared: 120 });
    const again = await runFaithscreen(temp.dir, ['serving', 'rebuild']);
    expect(JSON.parse(again.stdout)).toMatchObject({ lakeFiles: 3, filesCopied: 0, rowsCopied: 0 });
  });

  it('when rebuilt with --current, then every current row is rebuilt from its snapshot and the store still matches the lake', async () => {
    const { code, stdout } = await runFaithscreen(temp.dir, ['serving', 'rebuild', '--current']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ filesCopied: 0, currentMarkets: ['us'] });
    const check = await runFaithscreen(temp.dir, ['serving', 'check', '--days', '3']);
    expect(JSON.parse(check.stdout)).toMatchObject({ mismatchCount: 0 });
  });

  it('when --days is not a whole number, then the command refuses and says what is valid', async () => {
    const { code, stderr } = await runFaithscreen(temp.dir, ['serving', 'check', '--days', 'many']);
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/--days: 'many' is not a whole number from 0 to 10000/);
  });
});

/** `faithscreen serving render` on the SYNTHETIC sample universe, its snapshots written with no report (docs/serving.md, "Pre-rendered reports"). */
describe('faithscreen serving render', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;

  beforeAll(async () => {
    temp = await makeTempDir('faithscreen-serving-render-');
    await buildLake(temp.dir);
    await closeSharedServingStores();
  }, 180_000);
  afterAll(async () => {
    await temp?.cleanup();
  });

  /** What the store holds for each current row: its stored report's version, or null when none of its snapshot. */
  async function storedVersions(): Promise<Array<string | null>> {
    const reads = await openApiReads({ dataDir: temp.dir, followIntervalMs: 0 });
    try {
      const rows = reads.listings().flatMap((listing) => reads.current(listing.market, listing.ticker) ?? []);
      return (await reads.prerenderedStamps(rows)).map((stamp) => stamp?.version ?? null);
    } finally {
      await reads.close();
    }
  }

  it('renders the report of every current verdict that lacks one of this release, and a second run renders none', async () => {
    const before = await storedVersions();
    expect(before.length).toBeGreaterThan(20);
    expect(before.every((version) => version === null)).toBe(true);
    const first = await runFaithscreen(temp.dir, ['serving', 'render']);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ checked: before.length, rendered: before.length });
    expect(await storedVersions()).toEqual(before.map(() => RENDER_VERSION));
    const again = await runFaithscreen(temp.dir, ['serving', 'render']);
    expect(JSON.parse(again.stdout)).toMatchObject({ checked: before.length, rendered: 0 });
  }, 120_000);

  it('when one result cannot be read, then the others are rendered and stored, and the run exits 1 naming that ticker', async () => {
    const versions = await storedVersions();
    // As a deploy finds them (another release's reports), one ticker's stored result damaged.
    const db = new Database(path.join(temp.dir, 'serving.db'));
    const [damaged] = db.prepare(`SELECT ticker FROM serving_current WHERE market = 'us' ORDER BY ticker LIMIT 1`).raw(true).get() as [
      string,
    ];
    db.prepare(`UPDATE serving_reports SET version = 'another release'`).run();
    db.prepare(
      `UPDATE serving_snapshots SET result = x'f70100' WHERE market = 'us' AND ticker = ?
       AND snapshot_date = (SELECT snapshot_date FROM serving_current WHERE market = 'us' AND ticker = ?)`,
    ).run(damaged, damaged);
    db.close();
    const run = await runFaithscreen(temp.dir, ['serving', 'render']);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { rendered: number; failedCount: number; failed: Array<{ ticker: string }> };
    expect(report).toMatchObject({ rendered: versions.length - 1, failedCount: 1, failed: [{ ticker: damaged }] });
    expect((await storedVersions()).filter((version) => version === RENDER_VERSION)).toHaveLength(versions.length - 1);
  }, 120_000);
});
