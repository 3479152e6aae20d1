import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionPool, fileRows, queryRows, scanTableFiles } from '../../warehouse/api-reads/api-reads-lake.ts';
import { historyRowSql } from '../../warehouse/api-reads/api-reads-sql.ts';
import { dayNumber } from '../../engine/dates.ts';
import { dayString, type RawSnapshot } from '../../warehouse/api-reads/api-reads-store.ts';
import { UnindexedRows, type UnindexedRowsOptions } from '../../warehouse/api-reads/api-reads-unindexed-rows.ts';
import { writeSnapshots } from '../../warehouse/snapshot-writer.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { variantSnapshotRow } from '../support/variant-snapshots.ts';

/**
 * Files the history index has not taken yet, read once into memory (docs/serving.md, "as_of
 * from the history index", *Fresh*), against the per-request lake query they replace: real
 * Parquet files written by the snapshot writer, read by DuckDB. SYNTHETIC snapshots.
 */

const MARKETS = ['us', 'gb'];
const TICKERS = ['AA', 'BB', 'CC', 'DD', 'EE', 'FF'];
const MONTH_ENDS = ['2012-01-31', '2012-02-29', '2012-03-31'];

describe('UnindexedRows', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let pool: ConnectionPool;
  let signatures: Map<string, string>;
  const files = () => [...signatures.keys()].sort();

  beforeAll(async () => {
    temp = await makeTempDir();
    for (const [m, date] of MONTH_ENDS.entries()) {
      // Each ticker starts at a month of its own; a file per month end and market, as a backfill publishes.
      const rows = MARKETS.flatMap((market) =>
        TICKERS.filter((_, t) => t % 3 <= m).map((ticker) =>
          variantSnapshotRow('unindexed', market, ticker, date, `${date}T02:00:00.000`, m),
        ),
      );
      await writeSnapshots(temp.dir, rows, { fileStem: `backfill-${date}` });
    }
    // A same-day re-screen in a file of its own: the later screened_at wins that day.
    await writeSnapshots(
      temp.dir,
      MARKETS.map((market) => variantSnapshotRow('unindexed', market, 'AA', MONTH_ENDS[1]!, `${MONTH_ENDS[1]}T09:30:00.000`, 9)),
      { fileStem: 'rescreen' },
    );
    signatures = await scanTableFiles(temp.dir, 'snapshots');
    pool = await ConnectionPool.open();
  }, 60_000);

  afterAll(async () => {
    pool?.close();
    await temp?.cleanup();
  });

  /** UnindexedRows over the real files, counting each file's reads. */
  function heldRows(overrides: Partial<UnindexedRowsOptions> = {}) {
    const reads = new Map<string, number>();
    const rows = new UnindexedRows({
      readFile: (file) => {
        reads.set(file, (reads.get(file) ?? 0) + 1);
        return fileRows(pool, file);
      },
      signatureOf: (file) => signatures.get(file),
      ...overrides,
    });
    return { rows, reads };
  }

  const probes = (): Array<[string, string, string, boolean]> =>
    MARKETS.flatMap((market) =>
      [...TICKERS, 'ZZ'].flatMap((ticker) =>
        [...MONTH_ENDS, '2011-12-31', '2012-02-15', '2012-03-30', '2013-06-01'].flatMap(
          (date): Array<[string, string, string, boolean]> => [
            [market, ticker, date, false],
            [market, ticker, date, true],
          ],
        ),
      ),
    );

  const fromLake = async (fileList: string[], market: string, ticker: string, date: string, exactDay: boolean) => {
    const found = (await queryRows(pool, historyRowSql(fileList, ticker, date, exactDay)))[0] as RawSnapshot | undefined;
    return found?.market === market ? found : undefined;
  };

  it('answers as the per-request lake query does, reading each file once', async () => {
    const { rows, reads } = heldRows();
    let found = 0;
    for (const [market, ticker, date, exactDay] of probes()) {
      // The lake query reads one market's files, as the history index hands them over.
      const marketFiles = files().filter((file) => file.includes(`market=${market}`));
      const held = await rows.lookup(marketFiles, market, ticker, dayNumber(date), exactDay);
      expect(held.unread).toEqual([]);
      const expected = await fromLake(marketFiles, market, ticker, date, exactDay);
      expect({ market, ticker, date, exactDay, raw: held.raw }).toEqual({ market, ticker, date, exactDay, raw: expected });
      if (expected) found += 1;
    }
    expect(found).toBeGreaterThan(40);
    expect([...reads.values()]).toEqual(files().map(() => 1));
    expect(rows.stats()).toEqual({ files: files().length, rows: 2 * (2 + 4 + 6 + 1) });
    // The re-screen of the same day is the newer one.
    const rescreened = await rows.lookup(files(), 'us', 'AA', dayNumber(MONTH_ENDS[1]!), true);
    expect(dayString(rescreened.raw!.day)).toBe(MONTH_ENDS[1]);
    expect(rescreened.raw!.screenedAtMs).toBe(Date.parse(`${MONTH_ENDS[1]}T09:30:00.000Z`));
  });

  it('concurrent lookups of a new file share one read', async () => {
    const { rows, reads } = heldRows();
    const answers = await Promise.all(TICKERS.map((ticker) => rows.lookup(files(), 'gb', ticker, dayNumber('2012-12-31'), false)));
    expect(answers.every((answer) => answer.raw !== undefined && answer.unread.length === 0)).toBe(true);
    expect([...reads.values()]).toEqual(files().map(() => 1));
  });

  it('never answers from a file the reads no longer know, and reads a file again when its signature changes', async () => {
    const { rows, reads } = heldRows({ signatureOf: (file) => known.get(file) });
    const known = new Map(signatures);
    const march = files().find((file) => file.includes('backfill-2012-03-31') && file.includes('market=us'))!;
    expect((await rows.lookup([march], 'us', 'CC', dayNumber('2012-12-31'), false)).raw).toMatchObject({ ticker: 'CC' });
    known.delete(march); // compacted away: the caller's own query meets the removed file and reads the lake again
    expect(await rows.lookup([march], 'us', 'CC', dayNumber('2012-12-31'), false)).toEqual({ raw: undefined, unread: [march] });
    known.set(march, 'changed');
    expect((await rows.lookup([march], 'us', 'CC', dayNumber('2012-12-31'), false)).raw).toMatchObject({ ticker: 'CC' });
    expect(reads.get(march)).toBe(2);
  });

  it('hands back the files past its row bound, and a file whose read failed, without reading them again on every lookup', async () => {
    const usFiles = files().filter((file) => file.includes('market=us'));
    const { rows, reads } = heldRows({ maxRows: 3 });
    const first = await rows.lookup(usFiles, 'us', 'AA', dayNumber('2012-12-31'), false);
    // The January file (2 rows) or the re-screen (1) is held; the next ones would pass 3 rows.
    expect(first.unread.length).toBeGreaterThan(0);
    expect(first.unread.length).toBeLessThan(usFiles.length);
    expect(rows.stats().rows).toBeLessThanOrEqual(3);
    const second = await rows.lookup(usFiles, 'us', 'BB', dayNumber('2012-12-31'), false);
    expect(second.unread.sort()).toEqual([...first.unread].sort());
    expect([...reads.values()]).toEqual(usFiles.map(() => 1));

    const gone = `${temp.dir}/lake/snapshots/market=us/year=2012/never-written.parquet`;
    let now = 1_000_000;
    let attempts = 0;
    const failing = new UnindexedRows({
      readFile: (file) => {
        attempts += 1;
        return fileRows(pool, file);
      },
      signatureOf: () => 'sig',
      now: () => now,
    });
    const lookup = () => failing.lookup([gone], 'us', 'AA', dayNumber('2012-12-31'), false);
    expect(await lookup()).toEqual({ raw: undefined, unread: [gone] });
    now += 500;
    expect(await lookup()).toEqual({ raw: undefined, unread: [gone] });
    expect(attempts).toBe(1);
    now += 600;
    expect(await lookup()).toEqual({ raw: undefined, unread: [gone] });
    expect(attempts).toBe(2);
    expect(failing.stats()).toEqual({ files: 0, rows: 0 });
  });

  it('drops a file no lookup asked for within the idle time (the index holds it by then)', async () => {
    let now = 1_000_000;
    const { rows } = heldRows({ idleMs: 10_000, now: () => now });
    await rows.lookup(files(), 'us', 'AA', dayNumber('2012-12-31'), false);
    expect(rows.stats().files).toBe(files().length);
    now += 5_000;
    await rows.lookup(files().slice(0, 1), 'us', 'AA', dayNumber('2012-12-31'), false);
    now += 6_000;
    await rows.lookup([], 'us', 'AA', dayNumber('2012-12-31'), false);
    expect(rows.stats()).toMatchObject({ files: 1 });
  });

  it('a file removed from disk after it was held still answers only while the reads know it', async () => {
    const extra = await makeTempDir();
    try {
      await writeSnapshots(extra.dir, [variantSnapshotRow('unindexed', 'us', 'AA', '2012-05-31', '2012-05-31T02:00:00.000', 5)], {
        fileStem: 'lone',
      });
      const lone = new Map(await scanTableFiles(extra.dir, 'snapshots'));
      const [file] = [...lone.keys()];
      const rows = new UnindexedRows({ readFile: (f) => fileRows(pool, f), signatureOf: (f) => lone.get(f) });
      expect((await rows.lookup([file!], 'us', 'AA', dayNumber('2012-06-01'), false)).raw).toMatchObject({ day: dayNumber('2012-05-31') });
      await rm(file!);
      lone.delete(file!);
      expect(await rows.lookup([file!], 'us', 'AA', dayNumber('2012-06-01'), false)).toEqual({ raw: undefined, unread: [file] });
    } finally {
      await extra.cleanup();
    }
  });
});
