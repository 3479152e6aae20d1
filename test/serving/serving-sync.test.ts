import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteServingStore } from '../../serving/sqlite-serving-store.ts';
import type { ServingStore } from '../../serving/serving-types.ts';
import { lakeRoot } from '../../warehouse/lake-paths.ts';
import { syncServingFromLake } from '../../warehouse/serving-sync.ts';
import { writeSnapshots } from '../../warehouse/snapshot-writer.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { variantSnapshotRow } from '../support/variant-snapshots.ts';

/** SYNTHETIC snapshots: a lake of two files in one partition, and a store built from it. */
describe('the serving store brought up to a lake whose file was removed by hand', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let store: ServingStore;

  beforeEach(async () => {
    temp = await makeTempDir();
    await writeSnapshots(temp.dir, [variantSnapshotRow('sync', 'us', 'AAA', '2024-03-31', '2024-03-31T02:00:00.000', 1)], {
      fileStem: 'march',
    });
    await writeSnapshots(temp.dir, [variantSnapshotRow('sync', 'us', 'AAA', '2024-06-30', '2024-06-30T02:00:00.000', 2)], {
      fileStem: 'june',
    });
    // A store of its own, empty: the sync copies both files.
    store = new SqliteServingStore(path.join(temp.dir, 'other-serving.db'));
    const built = await syncServingFromLake(temp.dir, store);
    if (built.filesCopied !== 2) throw new Error(`the store was built from ${built.filesCopied} files, not 2`);
    await rm(path.join(lakeRoot(temp.dir), 'snapshots', 'market=us', 'year=2024', 'june.parquet'));
  });
  afterEach(async () => {
    await store.close();
    await temp.cleanup();
  });

  it('when this lake is not the store’s only one (a shared PostgreSQL store), then nothing is forgotten', async () => {
    expect(await syncServingFromLake(temp.dir, store)).toMatchObject({ filesCopied: 0, filesReleased: 0 });
    expect((await store.current('us', 'AAA'))?.snapshotDate).toBe('2024-06-30');
  });

  it('when this lake is the store’s only one, then the removed file’s rows are no longer served and the current row goes back', async () => {
    const before = await store.currentSince(-1);
    const result = await syncServingFromLake(temp.dir, store, { releaseVanished: true });
    expect(result).toMatchObject({ filesReleased: 1, filesCopied: 1, rowsCopied: 1 });
    expect((await store.current('us', 'AAA'))?.snapshotDate).toBe('2024-03-31');
    expect((await store.asOf('us', 'AAA', '2024-12-31')).row?.snapshotDate).toBe('2024-03-31');
    expect([...(await store.heldFiles()).keys()]).toEqual([path.join('snapshots', 'market=us', 'year=2024', 'march.parquet')]);
    // Readers holding the old epoch read every current row again.
    expect((await store.currentSince(before.seq)).epoch).not.toBe(before.epoch);
  });
});
