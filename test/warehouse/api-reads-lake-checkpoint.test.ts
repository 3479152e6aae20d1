import { execFileSync } from 'node:child_process';
import { readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiReads, type ApiReads, type ApiReadsOptions } from '../../warehouse/api-reads/api-reads.ts';
import { checkpointPath } from '../../warehouse/api-reads/api-reads-checkpoint.ts';
import { saveLakeCheckpoint } from '../../warehouse/api-reads/api-reads-lake-checkpoint.ts';
import { scanTableFiles } from '../../warehouse/lake-files.ts';
import type { SnapshotRow } from '../../warehouse/snapshot-schema.ts';
import { writeSnapshots } from '../../warehouse/snapshot-writer.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { variantSnapshotRow } from '../support/variant-snapshots.ts';

/**
 * The lake's copy of the current verdicts (docs/serving.md, "How the API follows the lake"): saved
 * by the maintenance run, a first start of the API (no copy of its own) begins from it and reads
 * only what was published after; a stale, torn or old-format copy, or one naming files since
 * removed, never makes it serve a verdict older than the lake's newest. The oracle is a start
 * that reads every file. SYNTHETIC snapshots (generated statuses and ratios).
 */
const MARKETS = ['us', 'gb'];
const TICKERS = Array.from({ length: 30 }, (_, i) => `T${String(i).padStart(3, '0')}`);
const MONTH_ENDS = ['2019-12-31', '2020-12-31', '2021-12-31', '2022-12-31', '2023-12-31', '2024-12-31'];

const row = (market: string, ticker: string, date: string, screenedAt: string, variant: number): SnapshotRow =>
  variantSnapshotRow('lake-checkpoint-test', market, ticker, date, screenedAt, variant);

const each = (tickers: string[], make: (market: string, ticker: string) => SnapshotRow) =>
  MARKETS.flatMap((m) => tickers.map((t) => make(m, t)));

const QUIET: Partial<ApiReadsOptions> = { sidecars: false, followIntervalMs: 0 };

/** Every ticker's current row and first day, as the reads serve them. */
function currents(reads: ApiReads): unknown[] {
  return MARKETS.flatMap((market) =>
    TICKERS.map((ticker) => {
      const current = reads.current(market, ticker);
      return current ? { market, ticker, date: current.snapshotDate, at: current.screenedAt, statuses: current.statuses } : null;
    }),
  );
}

/** What a start that reads every file of the lake serves (it saves nothing). */
async function oracle(dataDir: string): Promise<unknown[]> {
  const reads = await openApiReads({ dataDir, ...QUIET, checkpoint: false });
  try {
    return currents(reads);
  } finally {
    await reads.close();
  }
}

/** A first start of the API: no verdicts of its own (it may still find the lake's copy). */
async function firstStart(dataDir: string): Promise<{ reads: ApiReads; served: unknown[] }> {
  await rm(checkpointPath(dataDir, 'api'), { force: true });
  const reads = await openApiReads({ dataDir, ...QUIET });
  return { reads, served: currents(reads) };
}

describe('the lake copy of the current verdicts, saved by maintenance', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let moved: Awaited<ReturnType<typeof makeTempDir>> | null = null;
  let variant = 0;
  const publish = (tickers: string[], date: string, stem: string) =>
    writeSnapshots(
      temp.dir,
      each(tickers, (m, t) => row(m, t, date, `${date}T02:00:00.000`, ++variant)),
      { fileStem: stem },
    );

  beforeAll(async () => {
    temp = await makeTempDir();
    for (const date of MONTH_ENDS) await publish(TICKERS, date, `m${date}`);
  }, 120_000);
  afterAll(async () => {
    await temp?.cleanup();
    await moved?.cleanup();
  });

  it('when maintenance saved it, then a first start begins from it, reads no file and serves every ticker as a full read would', async () => {
    const files = (await scanTableFiles(temp.dir, 'snapshots')).size;
    expect(files).toBe(MONTH_ENDS.length * MARKETS.length);
    // The first save reads every file (there is no copy yet); the next reads nothing new.
    expect(await saveLakeCheckpoint(temp.dir)).toEqual({ snapshots: 60, startedFrom: 'lake-files', snapshotFilesLoaded: files });
    expect(await saveLakeCheckpoint(temp.dir)).toEqual({ snapshots: 60, startedFrom: 'lake-checkpoint', snapshotFilesLoaded: 0 });

    const { reads, served } = await firstStart(temp.dir);
    try {
      expect(reads.stats()).toMatchObject({ startedFrom: 'lake-checkpoint', snapshotFilesLoaded: 0, currentRebuilds: 0, snapshots: 60 });
      expect(served).toEqual(await oracle(temp.dir));
    } finally {
      await reads.close();
    }
  });

  it('when newer rows were published after it, then the first start reads only those files and serves the newer verdicts', async () => {
    await saveLakeCheckpoint(temp.dir);
    await publish(TICKERS.slice(0, 10), '2025-06-30', 'after-1');
    await publish(TICKERS.slice(5, 8), '2025-09-30', 'after-2');
    const { reads, served } = await firstStart(temp.dir);
    try {
      expect(reads.stats()).toMatchObject({ startedFrom: 'lake-checkpoint', snapshotFilesLoaded: 4, currentRebuilds: 0 });
      expect(reads.current('us', TICKERS[6]!)?.snapshotDate).toBe('2025-09-30');
      expect(reads.current('gb', TICKERS[2]!)?.snapshotDate).toBe('2025-06-30');
      expect(served).toEqual(await oracle(temp.dir));
    } finally {
      await reads.close();
    }
  });

  it('when it is torn or of another format, then the first start reads every file instead', async () => {
    await saveLakeCheckpoint(temp.dir);
    const lakeCopy = checkpointPath(temp.dir, 'lake');
    const intact = await readFile(lakeCopy);
    const expected = await oracle(temp.dir);
    const files = (await scanTableFiles(temp.dir, 'snapshots')).size;

    await truncate(lakeCopy, intact.length - 100);
    let { reads, served } = await firstStart(temp.dir);
    expect(reads.stats()).toMatchObject({ startedFrom: 'lake-files', snapshotFilesLoaded: files });
    expect(served).toEqual(expected);
    await reads.close();

    const headerLength = intact.readUInt32LE(0);
    const header = JSON.parse(intact.subarray(4, 4 + headerLength).toString('utf8')) as { format: number };
    const otherFormat = Buffer.from(JSON.stringify({ ...header, format: header.format + 1 }).padEnd(headerLength), 'utf8');
    expect(otherFormat.length).toBe(headerLength);
    await writeFile(lakeCopy, Buffer.concat([intact.subarray(0, 4), otherFormat, intact.subarray(4 + headerLength)]));
    ({ reads, served } = await firstStart(temp.dir));
    expect(reads.stats()).toMatchObject({ startedFrom: 'lake-files', snapshotFilesLoaded: files });
    expect(served).toEqual(expected);
    await reads.close();
  });

  it('when files it names were removed by hand, then the start rebuilds the current rows and never serves a verdict from them', async () => {
    await saveLakeCheckpoint(temp.dir);
    const newestFiles = [...(await scanTableFiles(temp.dir, 'snapshots')).keys()].filter((file) => file.includes('after-2'));
    expect(newestFiles).toHaveLength(2);
    for (const file of newestFiles) await rm(file);
    const { reads, served } = await firstStart(temp.dir);
    try {
      expect(reads.stats()).toMatchObject({ startedFrom: 'lake-checkpoint', currentRebuilds: 1 });
      expect(reads.current('us', TICKERS[6]!)?.snapshotDate).toBe('2025-06-30');
      expect(served).toEqual(await oracle(temp.dir));
    } finally {
      await reads.close();
    }
  });

  it('when the API has a copy of its own further behind, then the start begins from the lake copy, and the reverse', async () => {
    await saveLakeCheckpoint(temp.dir);
    const { reads: first } = await firstStart(temp.dir);
    await first.saveCheckpoint(); // the API's own copy, at the lake copy's point
    await first.close();
    await publish(TICKERS.slice(20, 25), '2025-12-31', 'after-3');
    await saveLakeCheckpoint(temp.dir); // the lake copy moves past the API's
    let reads = await openApiReads({ dataDir: temp.dir, ...QUIET });
    expect(reads.stats()).toMatchObject({ startedFrom: 'lake-checkpoint', snapshotFilesLoaded: 0 });
    expect(currents(reads)).toEqual(await oracle(temp.dir));
    await reads.saveCheckpoint(); // the API's own copy, at the same point
    await reads.close();
    await publish(TICKERS.slice(25), '2026-01-31', 'after-4');
    reads = await openApiReads({ dataDir: temp.dir, ...QUIET }); // reads one publish, saves its own copy past the lake's
    expect(reads.stats()).toMatchObject({ snapshotFilesLoaded: 2 });
    await reads.close();
    reads = await openApiReads({ dataDir: temp.dir, ...QUIET });
    try {
      expect(reads.stats()).toMatchObject({ startedFrom: 'api-checkpoint', snapshotFilesLoaded: 0 });
      expect(currents(reads)).toEqual(await oracle(temp.dir));
    } finally {
      await reads.close();
    }
  });

  it('when two API reads share DATA_DIR (as two replicas do), then both start from the lake copy at once, both save, and the next start finds an intact copy', async () => {
    await saveLakeCheckpoint(temp.dir);
    await rm(checkpointPath(temp.dir, 'api'), { force: true });
    const expected = await oracle(temp.dir);
    // Following the lake (as a running API does) makes each save its own copy on close, to the same path.
    const [a, b] = await Promise.all([
      openApiReads({ dataDir: temp.dir, sidecars: false, followIntervalMs: 60_000 }),
      openApiReads({ dataDir: temp.dir, sidecars: false, followIntervalMs: 60_000 }),
    ]);
    expect([a.stats().startedFrom, b.stats().startedFrom]).toEqual(['lake-checkpoint', 'lake-checkpoint']);
    expect([currents(a), currents(b)]).toEqual([expected, expected]);
    await Promise.all([a.close(), b.close()]);
    const reads = await openApiReads({ dataDir: temp.dir, ...QUIET });
    try {
      expect(reads.stats()).toMatchObject({ startedFrom: 'api-checkpoint', snapshotFilesLoaded: 0 });
      expect(currents(reads)).toEqual(expected);
    } finally {
      await reads.close();
    }
  });

  it('when DATA_DIR is mounted at another path, then the copy still applies: no file is read again', async () => {
    await saveLakeCheckpoint(temp.dir);
    moved = await makeTempDir('faithscreen-moved-');
    // As an operator moves a volume: every file and its timestamps kept (to the nanosecond, as `cp -a` and rsync do).
    execFileSync('cp', ['-a', `${temp.dir}/.`, moved.dir]);
    const { reads, served } = await firstStart(moved.dir);
    try {
      expect(reads.stats()).toMatchObject({ startedFrom: 'lake-checkpoint', snapshotFilesLoaded: 0, currentRebuilds: 0 });
      expect(served).toEqual(await oracle(moved.dir));
    } finally {
      await reads.close();
    }
  });
});
