/**
 * A resumed backfill finds a chunk's published snapshots through the snapshot file index
 * (warehouse/snapshot-files.ts): only files whose ticker range overlaps the chunk are opened,
 * and the index follows the lake's change journal (publishes, compactions, a replaced journal).
 */
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { snapshotRowFrom } from '../../activities/snapshot-rows.ts';
import { screenCompany } from '../../engine/index.ts';
import { compactSnapshots } from '../../warehouse/compaction.ts';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { journalPath } from '../../warehouse/lake-journal.ts';
import { listPublishedSnapshotKeys } from '../../warehouse/lake-queries.ts';
import { publishedKeysIn, SnapshotFileIndex } from '../../warehouse/snapshot-files.ts';
import { writeSnapshots } from '../../warehouse/snapshot-writer.ts';
import type { SnapshotSource } from '../../warehouse/snapshot-schema.ts';
import { baseInput } from '../engine/fixtures.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const DATES = ['2012-12-31', '2013-12-31'];

let temp: { dir: string; cleanup: () => Promise<void> };
beforeEach(async () => (temp = await makeTempDir('faithscreen-snapshot-files-')));
afterEach(() => temp.cleanup());

/** Publishes one chunk's file per year: `tickers` on every date of `DATES`. */
async function publishChunk(stem: string, tickers: string[], market = 'us', source: SnapshotSource = 'backfill'): Promise<string[]> {
  const rows = tickers.flatMap((ticker) =>
    DATES.map((date) => {
      const input = { ...baseInput(), screeningDate: date, listing: { ...baseInput().listing, market, ticker } };
      return snapshotRowFrom(input, screenCompany(input), { source, runId: stem, screenedAt: `${date}T02:00:00.000` });
    }),
  );
  return (await writeSnapshots(temp.dir, rows, { fileStem: stem, threads: 1 })).files;
}

const names = (files: string[]): string[] => files.map((f) => path.basename(f)).sort();

describe('the snapshot file index', () => {
  it('when chunks of other tickers and markets are published, then only files that may hold the chunk are candidates', async () => {
    await publishChunk('c1', ['AAA', 'ABB', 'ACC']);
    await publishChunk('c2', ['BAA', 'BCC']);
    await publishChunk('c3', ['CAA', 'CZZ']);
    await publishChunk('gb', ['BAA', 'BBB'], 'gb');
    const index = new SnapshotFileIndex(temp.dir);
    await withDuckDB(':memory:', { threads: 1 }, async (c) => {
      expect(names(await index.candidates(c, 'us', [2012, 2013], 'BAB', 'BZZ'))).toStrictEqual(['c2.parquet', 'c2.parquet']);
      expect(names(await index.candidates(c, 'us', [2013], 'ABB', 'BAA'))).toStrictEqual(['c1.parquet', 'c2.parquet']);
      expect(await index.candidates(c, 'us', [2012], 'DAA', 'DZZ')).toStrictEqual([]);
      expect(await index.candidates(c, 'us', [2011], 'AAA', 'ZZZ')).toStrictEqual([]);
      expect(names(await index.candidates(c, 'gb', [2012], 'A', 'Z'))).toStrictEqual(['gb.parquet']);
    });
  });

  it('when a chunk publishes after the index was built, then the journal names the new file without a rescan', async () => {
    await publishChunk('c1', ['AAA']);
    const index = new SnapshotFileIndex(temp.dir);
    await withDuckDB(':memory:', { threads: 1 }, async (c) => {
      expect(await index.candidates(c, 'us', [2012], 'MAA', 'MZZ')).toStrictEqual([]);
      await publishChunk('c2', ['MBB']);
      expect(names(await index.candidates(c, 'us', [2012], 'MAA', 'MZZ'))).toStrictEqual(['c2.parquet']);
    });
  });

  it('when two chunks of one thread ask at once, then the journal is read once and later files are still found', async () => {
    await publishChunk('c1', ['AAA']);
    const index = new SnapshotFileIndex(temp.dir);
    await withDuckDB(':memory:', { threads: 1 }, async (c) => {
      await index.candidates(c, 'us', [2012], 'A', 'Z');
      await publishChunk('c2', ['MBB']);
      const both = await Promise.all([index.candidates(c, 'us', [2012], 'A', 'Z'), index.candidates(c, 'us', [2013], 'A', 'Z')]);
      expect(both.map(names)).toStrictEqual([
        ['c1.parquet', 'c2.parquet'],
        ['c1.parquet', 'c2.parquet'],
      ]);
      // Journal lines of the same length as the ones just read: a reader that had counted them twice would skip these.
      await publishChunk('c3', ['MCC']);
      expect(names(await index.candidates(c, 'us', [2012], 'A', 'Z'))).toStrictEqual(['c1.parquet', 'c2.parquet', 'c3.parquet']);
    });
  });

  it('when partitions are compacted, then the merged file replaces the files it holds', async () => {
    await publishChunk('c1', ['AAA']);
    await publishChunk('c2', ['MBB']);
    const index = new SnapshotFileIndex(temp.dir);
    await withDuckDB(':memory:', { threads: 1 }, async (c) => {
      expect(names(await index.candidates(c, 'us', [2012], 'A', 'Z'))).toStrictEqual(['c1.parquet', 'c2.parquet']);
      await compactSnapshots(temp.dir, { minFiles: 2, minAgeMs: 0 });
      const after = names(await index.candidates(c, 'us', [2012], 'MAA', 'MZZ'));
      expect(after).toHaveLength(1);
      expect(after[0]).toMatch(/^compact-/);
    });
  });

  it('when the journal is replaced (trimmed), then the index lists the folders again and misses no file', async () => {
    await publishChunk('c1', ['AAA']);
    const index = new SnapshotFileIndex(temp.dir);
    await withDuckDB(':memory:', { threads: 1 }, async (c) => {
      expect(names(await index.candidates(c, 'us', [2012], 'A', 'Z'))).toStrictEqual(['c1.parquet']);
      await rm(journalPath(temp.dir));
      await writeFile(journalPath(temp.dir), '');
      await publishChunk('c2', ['MBB']);
      expect(names(await index.candidates(c, 'us', [2012], 'A', 'Z'))).toStrictEqual(['c1.parquet', 'c2.parquet']);
    });
  });

  it('when keys are read from the candidates, then they are those a read of every file finds, whatever screen published them', async () => {
    await publishChunk('c1', ['AAA', 'ABB']);
    await publishChunk('c2', ['BAA', 'BCC']);
    // A nightly's own ticker: its days are published history too (a backfill skips them).
    await publishChunk('n2', ['BAA', 'BBB'], 'us', 'nightly');
    const index = new SnapshotFileIndex(temp.dir);
    await withDuckDB(':memory:', { threads: 1 }, async (c) => {
      const query = { market: 'us', tickers: ['BAA', 'BBB', 'BCC'], dates: DATES };
      const files = await index.candidates(c, 'us', [2012, 2013], 'BAA', 'BCC');
      const keys = await publishedKeysIn(c, files, query);
      expect([...keys].sort()).toStrictEqual([
        'BAA|2012-12-31',
        'BAA|2013-12-31',
        'BBB|2012-12-31',
        'BBB|2013-12-31',
        'BCC|2012-12-31',
        'BCC|2013-12-31',
      ]);
      expect(keys).toStrictEqual(await listPublishedSnapshotKeys(c, temp.dir, query));
      expect(await publishedKeysIn(c, [], query)).toStrictEqual(new Set());
    });
  });
});
