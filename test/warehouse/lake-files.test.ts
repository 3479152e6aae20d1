import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateCatalog } from '../../warehouse/catalog.ts';
import { hasPublishedFiles } from '../../warehouse/lake-files.ts';
import { writeSnapshots } from '../../warehouse/snapshot-writer.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { variantSnapshotRow } from '../support/variant-snapshots.ts';

/** Whether the lake holds rows of a table, from its file names (the first start's check). SYNTHETIC rows. */
describe('published lake files', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    temp = await makeTempDir();
  });
  afterEach(async () => {
    await temp.cleanup();
  });

  it('when the lake holds only the catalog’s seed files, then it has no snapshots; once one is published, it has', async () => {
    expect(await hasPublishedFiles(temp.dir, 'snapshots')).toBe(false);
    await migrateCatalog(temp.dir);
    expect(await hasPublishedFiles(temp.dir, 'snapshots')).toBe(false);
    await writeSnapshots(temp.dir, [variantSnapshotRow('lake-files', 'us', 'AAA', '2024-06-28', '2024-06-28T02:00:00.000', 0)], {
      fileStem: 'one',
    });
    expect(await hasPublishedFiles(temp.dir, 'snapshots')).toBe(true);
  });
});
