import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiReads } from '../../reads/api-reads.ts';
import { sqliteServingPath } from '../../serving/sqlite-serving-store.ts';
import { journalPath, trimLakeJournal } from '../../warehouse/lake-journal.ts';
import { SNAPSHOT_FRAMEWORKS } from '../../warehouse/lake-schemas.ts';
import type { SnapshotRow } from '../../warehouse/snapshot-schema.ts';
import { writeSnapshots } from '../../warehouse/snapshot-writer.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { variantSnapshotRow } from '../support/variant-snapshots.ts';

/**
 * The reads keep each ticker's newest row, whether the serving store was written as files were
 * published or built from the lake at a start (an upgrade); these lakes are built so that the
 * newest row is not in the newest file, nor the last written, nor the one with the latest
 * `screened_at`. SYNTHETIC snapshots (generated statuses and ratios).
 */
const MARKETS = ['us', 'gb'];
const TICKERS = Array.from({ length: 40 }, (_, i) => `T${String(i).padStart(3, '0')}`);

const row = (market: string, ticker: string, date: string, screenedAt: string, variant: number): SnapshotRow =>
  variantSnapshotRow('start-test', market, ticker, date, screenedAt, variant);

/** The lake's newest row of every ticker, worked out from what was written. */
const newest = new Map<string, SnapshotRow>();
const first = new Map<string, string>();
async function write(dataDir: string, rows: SnapshotRow[], stem: string): Promise<void> {
  for (const r of rows) {
    const key = `${r.market}/${r.ticker}`;
    const seen = newest.get(key);
    if (!seen || r.snapshot_date > seen.snapshot_date || (r.snapshot_date === seen.snapshot_date && r.screened_at > seen.screened_at))
      newest.set(key, r);
    if (!first.has(key) || r.snapshot_date < first.get(key)!) first.set(key, r.snapshot_date);
  }
  await writeSnapshots(dataDir, rows, { fileStem: stem });
}

const each = (tickers: string[], make: (market: string, ticker: string) => SnapshotRow) =>
  MARKETS.flatMap((m) => tickers.map((t) => make(m, t)));

describe('the start of the API reads on a lake with history', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  const listedThrough = TICKERS.slice(0, 30);
  const delisted = TICKERS.slice(30);
  beforeAll(async () => {
    temp = await makeTempDir();
    await write(
      temp.dir,
      each(TICKERS, (m, t) => row(m, t, '2009-01-01', '2009-01-01T02:00:00.000', 1)),
      'y2009',
    );
    await write(
      temp.dir,
      each(TICKERS, (m, t) => row(m, t, '2015-06-30', '2015-06-30T02:00:00.000', 2)),
      'y2015',
    );
    // One file holding two dates (as compaction leaves a year), then the newest date of the listed tickers.
    await write(
      temp.dir,
      each(listedThrough, (m, t) => row(m, t, '2023-03-31', '2023-03-31T02:00:00.000', 3)).concat(
        each(listedThrough, (m, t) => row(m, t, '2023-09-30', '2023-09-30T02:00:00.000', 4)),
      ),
      'y2023',
    );
    await write(
      temp.dir,
      each(listedThrough, (m, t) => row(m, t, '2024-12-31', '2024-12-31T02:00:00.000', 5)),
      'y2024',
    );
    // A same-day re-screen of some tickers, later that day, in a file of its own.
    await write(
      temp.dir,
      each(listedThrough.slice(0, 10), (m, t) => row(m, t, '2024-12-31', '2024-12-31T09:00:00.000', 6)),
      'rescreen',
    );
    // Written last and screened latest, but of an older day: it must not win.
    await write(
      temp.dir,
      each(listedThrough, (m, t) => row(m, t, '2020-06-30', '2026-01-01T00:00:00.000', 7)),
      'late-backfill',
    );
  }, 120_000);
  afterAll(() => temp?.cleanup());

  const expectNewestEverywhere = (reads: Awaited<ReturnType<typeof openApiReads>>) => {
    for (const [key, expected] of newest) {
      const [market, ticker] = key.split('/') as [string, string];
      const current = reads.current(market, ticker);
      expect(current, key).toMatchObject({
        snapshotDate: expected.snapshot_date,
        screenedAt: expected.screened_at,
        statuses: Object.fromEntries(SNAPSHOT_FRAMEWORKS.map((id) => [id, expected[`${id}_status` as keyof SnapshotRow]])),
      });
    }
  };

  it.each([
    ['written at publish', false],
    ['built from the lake at the start (no serving store yet)', true],
  ])(
    'when the serving store was %s, then every ticker has its newest row, also one no longer screened, and its first day',
    async (_, fromLake) => {
      if (fromLake) for (const suffix of ['', '-wal', '-shm']) await rm(`${sqliteServingPath(temp.dir)}${suffix}`, { force: true });
      const reads = await openApiReads({ dataDir: temp.dir, followIntervalMs: 0 });
      try {
        expect(reads.stats().servingSync?.filesCopied).toBe(fromLake ? MARKETS.length * 6 : 0);
        expect(reads.stats().snapshots).toBe(MARKETS.length * TICKERS.length);
        expectNewestEverywhere(reads);
        expect(reads.current('gb', delisted[0]!)?.snapshotDate).toBe('2015-06-30');
        expect(reads.current('us', listedThrough[0]!)?.screenedAt).toBe('2024-12-31T09:00:00.000');
        expect(reads.current('us', listedThrough[20]!)?.screenedAt).toBe('2024-12-31T02:00:00.000');
        expect(await reads.asOf('us', listedThrough[5]!, '2008-12-31')).toEqual({
          found: false,
          firstSnapshotDate: first.get(`us/${listedThrough[5]}`),
        });
        expect(await reads.asOf('us', listedThrough[5]!, '2023-12-31')).toMatchObject({ found: true, row: { snapshotDate: '2023-09-30' } });
      } finally {
        await reads.close();
      }
    },
  );

  it('when newer rows are published while the API is down and its journal is trimmed or lost, then the restart serves them', async () => {
    const saved = await openApiReads({ dataDir: temp.dir });
    await saved.close();
    await write(
      temp.dir,
      each(listedThrough.slice(10, 15), (m, t) => row(m, t, '2025-03-31', '2025-03-31T02:00:00.000', 8)),
      'down-1',
    );
    await trimLakeJournal(temp.dir, 1);
    await write(
      temp.dir,
      each(listedThrough.slice(15, 20), (m, t) => row(m, t, '2025-03-31', '2025-03-31T03:00:00.000', 9)),
      'down-2',
    );
    let reads = await openApiReads({ dataDir: temp.dir, followIntervalMs: 0 });
    try {
      expectNewestEverywhere(reads);
      expect(reads.current('us', listedThrough[10]!)?.snapshotDate).toBe('2025-03-31');
    } finally {
      await reads.close();
    }
    await write(
      temp.dir,
      each(listedThrough.slice(0, 3), (m, t) => row(m, t, '2025-06-30', '2025-06-30T02:00:00.000', 10)),
      'down-3',
    );
    await rm(journalPath(temp.dir));
    reads = await openApiReads({ dataDir: temp.dir, followIntervalMs: 0 });
    try {
      expectNewestEverywhere(reads);
      expect(reads.current('gb', listedThrough[2]!)?.snapshotDate).toBe('2025-06-30');
    } finally {
      await reads.close();
    }
  });
});
