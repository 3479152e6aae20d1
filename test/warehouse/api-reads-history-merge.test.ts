import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHistorySegment } from '../../warehouse/api-reads/api-reads-history-build.ts';
import { HistoryBuilderProcess } from '../../warehouse/api-reads/api-reads-history-child.ts';
import {
  RECORD_BYTES,
  dayOffset,
  decodeRecord,
  recordOffset,
  readSegmentDirectory,
  segmentPaths,
} from '../../warehouse/api-reads/api-reads-history-format.ts';
import { mergeHistorySegments } from '../../warehouse/api-reads/api-reads-history-merge.ts';
import { IdleTaskCancelled } from '../../common/idle-child.ts';
import { HistoryBuildCancelled } from '../../warehouse/api-reads/api-reads-history-build.ts';
import { writeSnapshots } from '../../warehouse/snapshot-writer.ts';
import { hashedStatuses, syntheticSnapshotRow } from '../support/synthetic-snapshots.ts';
import { historyBuilderPids } from '../support/process-priority.ts';
import { makeTempDir } from '../support/temp-dir.ts';

/**
 * Merging history index segments from their binary rows (docs/serving.md, "as_of from the history
 * index") against one segment built from all the files at once, and the builder process that
 * runs builds and merges. SYNTHETIC snapshots written through the snapshot writer.
 */

const DATES = ['2009-01-01', '2009-01-31', '2009-02-28', '2009-03-31', '2009-04-30', '2009-05-31'];

function rows(market: string, tickers: readonly string[], date: string, screenedAt: string, salt: number) {
  return tickers.map((ticker, i) =>
    syntheticSnapshotRow({
      market,
      ticker,
      date,
      screenedAt,
      source: salt === 0 ? 'backfill' : 'refresh',
      runId: `merge-test-${salt}`,
      resultJson: JSON.stringify({ synthetic: true, ticker, date }),
      dataSource: salt === 0 ? 'sample' : 'feed',
      status: hashedStatuses(i * 31 + salt + date.length),
      ratio: (r) => (r === 2 ? null : i + r / 7 + salt / 3),
    }),
  );
}

/** Every row of a segment as (market, ticker, day, record with its file and source names), in the ticker table's order. */
function segmentRows(dir: string, id: string): Array<Record<string, unknown>> {
  const paths = segmentPaths(dir, id);
  const { file: directory, tickers } = readSegmentDirectory(paths)!;
  const fd = openSync(paths.bin, 'r');
  try {
    const out: Array<Record<string, unknown>> = [];
    for (const [market, ticker, first, count] of tickers.entries()) {
      for (let row = first; row < first + count; row += 1) {
        const day = Buffer.alloc(4);
        readSync(fd, day, 0, 4, dayOffset(row));
        const bytes = Buffer.alloc(RECORD_BYTES);
        readSync(fd, bytes, 0, RECORD_BYTES, recordOffset(directory.rows, row));
        const record = decodeRecord(bytes);
        out.push({
          market,
          ticker,
          day: day.readInt32LE(0),
          ...record,
          file: directory.files[record.file],
          source: directory.strings[record.source],
          dataSource: directory.strings[record.dataSource],
        });
      }
    }
    return out;
  } finally {
    closeSync(fd);
  }
}

/** A segment's file table, numbered as its records number them: what the index keeps for it (`Segment.files`). */
const filesOf = (dir: string, id: string) => readSegmentDirectory(segmentPaths(dir, id))!.file.files;

const byKey = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  JSON.stringify([a.market, a.ticker]).localeCompare(JSON.stringify([b.market, b.ticker]));

describe('merging history index segments', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let dir: string;
  const files: string[][] = [];

  beforeAll(async () => {
    temp = await makeTempDir();
    dir = path.join(temp.dir, 'index');
    // Three publishes: the first months of two markets, later months with a ticker new to them, and
    // same-day re-screens of days the first holds (a later screened_at: rows of one day from two segments).
    const first = await Promise.all(
      DATES.slice(0, 3).map((date, i) =>
        writeSnapshots(
          temp.dir,
          [...rows('us', ['AAA', 'BBB', 'ÄBC'], date, `${date}T02:00:00.000`, 0), ...rows('gb', ['VOD'], date, `${date}T02:00:00.000`, 0)],
          {
            fileStem: `first-${i}`,
          },
        ),
      ),
    );
    const second = await Promise.all(
      DATES.slice(3).map((date, i) =>
        writeSnapshots(temp.dir, rows('us', ['AAA', 'BBB', 'CCC'], date, `${date}T02:00:00.000`, 0), { fileStem: `second-${i}` }),
      ),
    );
    const third = await writeSnapshots(
      temp.dir,
      [
        ...rows('us', ['AAA', 'ÄBC'], DATES[1]!, `${DATES[1]}T09:30:00.000`, 1),
        ...rows('gb', ['VOD'], DATES[0]!, `${DATES[0]}T01:00:00.000`, 1),
      ],
      { fileStem: 'rescreen' },
    );
    for (const written of [first, second, [third]]) files.push(written.flatMap((w) => w.files).map((file) => path.join(temp.dir, file)));
  }, 60_000);

  afterAll(async () => {
    await temp?.cleanup();
  });

  it('gives the rows one build of all the files gives, each ticker in (day, screened_at) order, without reading a file again', async () => {
    for (const [i, group] of files.entries()) await buildHistorySegment({ files: group, dir, id: `part-${i}` });
    await buildHistorySegment({ files: files.flat(), dir, id: 'whole' });
    const parts = files.map((_, i) => ({ id: `part-${i}`, files: filesOf(dir, `part-${i}`) }));
    // The snapshot files are gone: a merge that read them again would fail.
    const moved = path.join(temp.dir, 'moved-away');
    await rm(moved, { recursive: true, force: true });
    await rename(path.join(temp.dir, 'lake'), moved);
    try {
      expect(await mergeHistorySegments({ dir, id: 'merged', segments: parts })).toEqual({ rows: segmentRows(dir, 'whole').length });
    } finally {
      await rename(moved, path.join(temp.dir, 'lake'));
    }
    const merged = segmentRows(dir, 'merged');
    const whole = segmentRows(dir, 'whole');
    // Tickers may come in another order; each ticker's rows are the same rows in the same order.
    expect([...merged].sort(byKey)).toEqual([...whole].sort(byKey));
    const aaa = merged.filter((r) => r.market === 'us' && r.ticker === 'AAA').map((r) => [r.day, r.screenedAtMs, r.source]);
    expect(aaa).toEqual([...aaa].sort((a, b) => (a[0] as number) - (b[0] as number) || (a[1] as number) - (b[1] as number)));
    expect(aaa.filter((r) => r[2] === 'refresh')).toHaveLength(1);
    expect(new Set(merged.map((r) => r.file))).toEqual(new Set(files.flat()));
  });

  it('names the files as the index now names them (a compaction renamed them in place)', async () => {
    const renamed = filesOf(dir, 'part-0').map((file) => `${file}.renamed`);
    await mergeHistorySegments({
      dir,
      id: 'merged-renamed',
      segments: [
        { id: 'part-0', files: renamed },
        { id: 'part-1', files: filesOf(dir, 'part-1') },
      ],
    });
    const names = new Set(segmentRows(dir, 'merged-renamed').map((r) => r.file));
    expect(names).toEqual(new Set([...renamed, ...files[1]!]));
  });

  it('refuses a segment that does not match its directory, and leaves no temp file', async () => {
    await expect(mergeHistorySegments({ dir, id: 'bad', segments: [{ id: 'part-0', files: files[0]!.slice(1) }] })).rejects.toThrow(
      /does not match its directory/,
    );
    await expect(mergeHistorySegments({ dir, id: 'bad', segments: [{ id: 'no-such-segment', files: [] }] })).rejects.toThrow(/ENOENT/);
    expect((await readdir(dir)).filter((name) => name.startsWith('bad'))).toEqual([]);
  });

  it('a merge asked to stop stops at its next batch and leaves no temp file', async () => {
    const cancel = new SharedArrayBuffer(4);
    Atomics.store(new Int32Array(cancel), 0, 1);
    const segments = [0, 1].map((i) => ({ id: `part-${i}`, files: filesOf(dir, `part-${i}`) }));
    await expect(mergeHistorySegments({ dir, id: 'stopped', segments, cancel })).rejects.toBeInstanceOf(HistoryBuildCancelled);
    expect((await readdir(dir)).filter((name) => name.startsWith('stopped'))).toEqual([]);
  });

  it('runs builds and merges in one builder process while they keep coming, which exits when idle', async () => {
    // Idle long enough that back-to-back tasks on a loaded machine never see the process leave between them.
    const builder = new HistoryBuilderProcess({ idleExitMs: 5_000 });
    const signal = new AbortController().signal;
    try {
      await builder.build({ files: files[0]!, dir, id: 'proc-0' }, signal);
      const [pid] = historyBuilderPids();
      expect(pid).toBeGreaterThan(0);
      await builder.build({ files: files[1]!, dir, id: 'proc-1' }, signal);
      const merged = await builder.merge(
        {
          dir,
          id: 'proc-merged',
          segments: [
            { id: 'proc-0', files: filesOf(dir, 'proc-0') },
            { id: 'proc-1', files: filesOf(dir, 'proc-1') },
          ],
        },
        signal,
      );
      expect(merged.rows).toBe(segmentRows(dir, 'proc-0').length + segmentRows(dir, 'proc-1').length);
      expect(merged.maxRssMiB).toBeGreaterThan(0);
      expect(historyBuilderPids()).toEqual([pid]);
      // A failed task fails alone: the same process takes the next one.
      await expect(builder.merge({ dir, id: 'proc-bad', segments: [{ id: 'no-such-segment', files: [] }] }, signal)).rejects.toThrow(
        /ENOENT/,
      );
      await builder.build({ files: files[2]!, dir, id: 'proc-2' }, signal);
      expect(historyBuilderPids()).toEqual([pid]);
      const deadline = Date.now() + 30_000;
      while (historyBuilderPids().length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(historyBuilderPids()).toEqual([]);
      // The next task starts a new one.
      await builder.build({ files: files[2]!, dir, id: 'proc-3' }, signal);
      expect(historyBuilderPids()).toHaveLength(1);
      expect(historyBuilderPids()).not.toEqual([pid]);
    } finally {
      await builder.close();
    }
    expect(historyBuilderPids()).toEqual([]);
  });

  it('a builder killed just before the next task, not yet seen to end, has that task run on a new process', async () => {
    const builder = new HistoryBuilderProcess({ idleExitMs: 30_000 });
    const signal = new AbortController().signal;
    try {
      await builder.build({ files: files[0]!, dir, id: 'unseen-0' }, signal);
      const [pid] = historyBuilderPids();
      // No wait: this process has not yet handled the child's exit when the next task is sent.
      process.kill(pid!, 'SIGKILL');
      await expect(builder.build({ files: files[1]!, dir, id: 'unseen-1' }, signal)).resolves.toMatchObject({ rows: expect.any(Number) });
      expect(historyBuilderPids()).not.toContain(pid);
    } finally {
      await builder.close();
    }
  });

  it('a task asked to stop while its process starts is never sent: it is refused and writes nothing', async () => {
    const builder = new HistoryBuilderProcess();
    try {
      const stop = new AbortController();
      const task = builder.build({ files: files[0]!, dir, id: 'stopped-at-start' }, stop.signal);
      stop.abort();
      await expect(task).rejects.toBeInstanceOf(IdleTaskCancelled);
      expect((await readdir(dir)).filter((name) => name.startsWith('stopped-at-start'))).toEqual([]);
    } finally {
      await builder.close();
    }
  });

  it('a task asked to stop before it starts is refused; a builder killed between tasks is replaced at the next task', async () => {
    const builder = new HistoryBuilderProcess();
    try {
      const stopped = new AbortController();
      stopped.abort();
      await expect(builder.build({ files: files[0]!, dir, id: 'never' }, stopped.signal)).rejects.toBeInstanceOf(IdleTaskCancelled);
      const signal = new AbortController().signal;
      await builder.build({ files: files[0]!, dir, id: 'kill-0' }, signal);
      const [pid] = historyBuilderPids();
      process.kill(pid!, 'SIGKILL');
      // Waits until this process has reaped the builder (its /proc entry is gone once the exit is handled), not a fixed pause.
      for (const deadline = Date.now() + 30_000; existsSync(`/proc/${pid}`) && Date.now() < deadline;)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(existsSync(`/proc/${pid}`)).toBe(false);
      await expect(builder.build({ files: files[1]!, dir, id: 'kill-1' }, signal)).resolves.toMatchObject({ rows: expect.any(Number) });
      expect(historyBuilderPids()).not.toContain(pid);
    } finally {
      await builder.close();
    }
  });
});
