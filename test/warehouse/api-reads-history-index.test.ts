import { readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.ts';
import { createMetrics } from '../../api/metrics.ts';
import { unavailableRefresher } from '../../api/refresher.ts';
import { openApiReads, type ApiReads } from '../../warehouse/api-reads/api-reads.ts';
import { dayNumber } from '../../engine/dates.ts';
import { dayString } from '../../warehouse/api-reads/api-reads-store.ts';
import { compactSnapshots } from '../../warehouse/compaction.ts';
import type { SnapshotRow } from '../../warehouse/snapshot-schema.ts';
import { writeSnapshots } from '../../warehouse/snapshot-writer.ts';
import { listen } from '../support/http.ts';
import { hashedStatuses, syntheticSnapshotRow } from '../support/synthetic-snapshots.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import {
  autogroupNice,
  autogroupsOn,
  historyBuilderPids,
  sessionOf,
  sidecarBuilderPids,
  threadNiceValues,
} from '../support/process-priority.ts';

/**
 * The history index (docs/serving.md, "as_of from the history index") against the lake query it
 * replaces: the same answers for many (ticker, date) pairs, before and after publishes,
 * compaction and a damaged index. SYNTHETIC snapshots written through the snapshot writer.
 */

const MARKETS = ['us', 'gb'];
const TICKERS = Array.from({ length: 12 }, (_, i) => `T${String(i).padStart(2, '0')}`);
/** Month ends 2009–2011: each ticker's history starts at a month of its own. */
const MONTH_ENDS = Array.from({ length: 36 }, (_, m) =>
  dayString(dayNumber(`${2009 + Math.floor((m + 1) / 12)}-${String(((m + 1) % 12) + 1).padStart(2, '0')}-01`) - 1),
);
const TODAY = new Date().toISOString().slice(0, 10);
/** Reads that follow the lake only when told (`sync`), with no sidecars and no saved checkpoint. */
const QUIET = { sidecars: false, followIntervalMs: 0, checkpoint: false } as const;

function hash(...parts: Array<string | number>): number {
  let h = 2166136261;
  for (const c of parts.join('|')) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return h >>> 0;
}

function row(market: string, ticker: string, date: string, screenedAt: string, salt = 0): SnapshotRow {
  const h = hash(market, ticker, date, screenedAt, salt);
  return syntheticSnapshotRow({
    market,
    ticker,
    date,
    screenedAt,
    source: salt === 0 ? 'backfill' : 'refresh',
    runId: `index-test-${salt}`,
    resultJson: JSON.stringify({ synthetic: true, ticker, date, screenedAt }),
    dataSource: salt === 0 ? 'sample' : 'feed',
    status: hashedStatuses(h),
    // Float64 values that do not survive a float32 or decimal round trip, and a null now and then.
    ratio: (i) => ((h >>> i) % 7 === 0 ? null : ((h >>> i) % 1000) / 3 + 0.1 + 0.2),
  });
}

/** First month index of a ticker's history. */
const startOf = (market: string, ticker: string) => hash(market, ticker) % 12;

async function publishHistory(dataDir: string): Promise<void> {
  for (const [m, date] of MONTH_ENDS.entries()) {
    const rows = MARKETS.flatMap((market) =>
      TICKERS.filter((t) => startOf(market, t) <= m).map((t) => row(market, t, date, `${date}T02:00:00.000`)),
    );
    await writeSnapshots(dataDir, rows, { fileStem: `history-${date}` });
  }
  // Same-day re-screens, a later screened_at in a file of their own: the newer one wins that day.
  const rescreens = MARKETS.flatMap((market) =>
    TICKERS.slice(0, 6).map((t) => row(market, t, MONTH_ENDS[20]!, `${MONTH_ENDS[20]}T09:30:00.000`, 1)),
  );
  await writeSnapshots(dataDir, rescreens, { fileStem: 'rescreen' });
  await writeSnapshots(
    dataDir,
    MARKETS.flatMap((market) => TICKERS.map((t) => row(market, t, TODAY, `${TODAY}T02:00:00.000`))),
    { fileStem: 'today' },
  );
}

/** (market, ticker, date) pairs: before the first snapshot, on snapshot days, between them, after the last history day. */
function probes(): Array<[string, string, string]> {
  const out: Array<[string, string, string]> = [];
  for (const market of MARKETS) {
    for (const ticker of TICKERS) {
      const first = MONTH_ENDS[startOf(market, ticker)]!;
      out.push([market, ticker, dayString(dayNumber(first) - 1)], [market, ticker, first], [market, ticker, '2008-06-30']);
      for (const m of [0, 5, 11, 12, 20, 23, 35]) {
        const day = dayNumber(MONTH_ENDS[m]!);
        out.push([market, ticker, dayString(day)], [market, ticker, dayString(day + 9)]);
      }
      out.push([market, ticker, '2015-06-15'], [market, ticker, TODAY]);
    }
  }
  out.push(['us', 'NOPE', '2010-06-30'], ['zz', 'T00', '2010-06-30']);
  return out;
}

async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Every (market, ticker) of the lake asked on each of `dates`, ticker by ticker. */
function everyTickerOn(dates: readonly string[]): Array<[string, string, string]> {
  return MARKETS.flatMap((m) => TICKERS.flatMap((t) => dates.map((date): [string, string, string] => [m, t, date])));
}

async function answers(reads: ApiReads, pairs: Array<[string, string, string]>): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const [market, ticker, date] of pairs) {
    out.push({ asOf: await reads.asOf(market, ticker, date), onDay: (await reads.newestOnDay(market, ticker, date)) ?? null });
  }
  return out;
}

describe('as_of from the history index', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let lakeOnly: ApiReads;
  let indexed: ApiReads;
  const indexDir = () => path.join(temp.dir, 'api-cache', 'history');

  beforeAll(async () => {
    temp = await makeTempDir();
    await publishHistory(temp.dir);
    lakeOnly = await openApiReads({ dataDir: temp.dir, ...QUIET, historyIndex: false });
    indexed = await openApiReads({ dataDir: temp.dir, ...QUIET });
    await indexed.whenHistoryIndexed();
  }, 120_000);

  afterAll(async () => {
    await indexed?.close();
    await lakeOnly?.close();
    await temp?.cleanup();
  });

  it('answers every as_of and exact-day read as the lake query does, without querying the lake', async () => {
    const before = indexed.stats();
    expect(before.historyIndex).toMatchObject({ segments: 1, unindexedFiles: 0 });
    const pairs = probes();
    const expected = await answers(lakeOnly, pairs);
    expect(await answers(indexed, pairs)).toEqual(expected);
    const after = indexed.stats();
    expect(after.historyQueries).toBe(before.historyQueries);
    expect(after.historyIndex!.lookups).toBeGreaterThan(before.historyIndex!.lookups + 100);
    // The probes reach every kind of answer: found, before the first snapshot (with its date), and a same-day re-screen.
    const found = expected.filter((a) => (a as { asOf: { found: boolean } }).asOf.found);
    expect(found.length).toBeGreaterThan(200);
    expect(expected).toContainEqual(
      expect.objectContaining({ asOf: { found: false, firstSnapshotDate: MONTH_ENDS[startOf('us', 'T00')] } }),
    );
    const rescreened = await indexed.asOf('us', 'T01', MONTH_ENDS[20]!);
    expect(rescreened).toMatchObject({
      found: true,
      row: { screenedAt: `${MONTH_ENDS[20]}T09:30:00.000`, source: 'refresh', dataSource: 'feed' },
    });
  });

  it('answers GET /api/screen/{market}/{ticker}?as_of= over HTTP as the lake query does, 404 before the first snapshot included', async () => {
    const serve = (reads: ApiReads) =>
      listen(
        createApp({
          logger: pino({ level: 'silent' }),
          metrics: createMetrics(),
          readiness: {},
          screen: { reads, refresher: unavailableRefresher, cache: { freshDays: 1, staleWhileRevalidateDays: 7 } },
        }),
      );
    const [fromIndex, fromLake] = await Promise.all([serve(indexed), serve(lakeOnly)]);
    try {
      const lookups = indexed.stats().historyIndex!.lookups;
      const routes = probes()
        // as_of before 2009-01-01 is a 400 (docs/api.md), the same on both.
        .filter(([market, , date], i) => MARKETS.includes(market) && date >= '2009-01-01' && date !== TODAY && i % 3 === 0)
        .map(([market, ticker, date]) => `/api/screen/${market}/${ticker}?as_of=${date}`);
      const statuses = new Set<number>();
      for (const route of routes) {
        const [a, b] = await Promise.all([fetch(`${fromIndex.url}${route}`), fetch(`${fromLake.url}${route}`)]);
        statuses.add(a.status);
        expect({ route, status: a.status, body: await a.json() }).toEqual({ route, status: b.status, body: await b.json() });
      }
      expect([...statuses].sort()).toEqual([200, 404]);
      expect(indexed.stats().historyIndex!.lookups).toBeGreaterThan(lookups);
    } finally {
      await Promise.all([fromIndex.close(), fromLake.close()]);
    }
  });

  it("reads an indexed row's stored result from the file the index names", async () => {
    const found = await indexed.asOf('gb', 'T03', '2010-03-05');
    expect(found.found).toBe(true);
    if (!found.found) return;
    expect(JSON.parse(await indexed.resultJson(found.row))).toEqual({
      synthetic: true,
      ticker: 'T03',
      date: found.row.snapshotDate,
      screenedAt: found.row.screenedAt,
    });
  });

  it('sees a publish at once (its file read once from the lake), then from a segment of its own', async () => {
    // A backfill of an older day, and a re-screen of a history day: both change answers.
    const late = MARKETS.flatMap((market) => TICKERS.map((t) => row(market, t, '2010-06-15', '2010-06-15T02:00:00.000', 2)));
    await writeSnapshots(temp.dir, late, { fileStem: 'late-backfill' });
    await Promise.all([indexed.sync(), lakeOnly.sync()]);
    const pairs = everyTickerOn(['2010-06-15', '2010-06-20', '2010-06-14']);
    const expected = await answers(lakeOnly, pairs);
    expect(expected[0]).toMatchObject({ asOf: { found: true, row: { snapshotDate: '2010-06-15' } } });
    const queries = indexed.stats().historyQueries;
    expect(await answers(indexed, pairs)).toEqual(expected);
    // Indexed or not yet, the new file is never queried per request: read once, it answers from memory.
    expect(indexed.stats().historyQueries).toBe(queries);
    await indexed.whenHistoryIndexed();
    const stats = indexed.stats();
    expect(stats.historyIndex).toMatchObject({ segments: 2, unindexedFiles: 0 });
    expect(await answers(indexed, pairs)).toEqual(expected);
    expect(indexed.stats().historyQueries).toBe(stats.historyQueries);
  });

  it('after compaction answers the same, and reads stored results from the merged files', async () => {
    const result = await compactSnapshots(temp.dir, { minFiles: 2, minAgeMs: 0, retireAfterMs: 0 });
    expect(result.filesAfter).toBeLessThan(result.filesBefore);
    await Promise.all([indexed.sync(), lakeOnly.sync()]);
    const pairs = probes();
    expect(await answers(indexed, pairs)).toEqual(await answers(lakeOnly, pairs));
    // Compaction renames files in the index: no segment is rebuilt and nothing is left to index.
    await indexed.whenHistoryIndexed();
    expect(indexed.stats().historyIndex).toMatchObject({ segments: 2, unindexedFiles: 0 });
    const found = await indexed.asOf('us', 'T07', '2011-02-10');
    if (!found.found) throw new Error('expected a snapshot');
    expect(JSON.parse(await indexed.resultJson(found.row))).toMatchObject({ ticker: 'T07', date: found.row.snapshotDate });
  });

  it('a segment of more rows than a merge bound is merged: segments stay few', async () => {
    const merging = await openApiReads({
      dataDir: temp.dir,
      ...QUIET,
      historyIndex: { dir: path.join(temp.dir, 'merge-index'), maxSegments: 2 },
    });
    try {
      await merging.whenHistoryIndexed();
      for (const date of ['2010-07-15', '2010-08-15']) {
        await writeSnapshots(temp.dir, [row('us', 'T00', date, `${date}T02:00:00.000`, 3)], { fileStem: `merge-${date}` });
        await merging.sync();
        await lakeOnly.sync();
        await merging.whenHistoryIndexed();
      }
      expect(merging.stats().historyIndex!.segments).toBeLessThanOrEqual(2);
      expect(merging.stats().historyIndex!.merges).toBeGreaterThan(0);
      const pairs = probes();
      expect(await answers(merging, pairs)).toEqual(await answers(lakeOnly, pairs));
      expect(await merging.asOf('us', 'T00', '2010-08-20')).toMatchObject({ found: true, row: { snapshotDate: '2010-08-15' } });
    } finally {
      await merging.close();
    }
  });

  it('when a segment to merge is gone (another API process replaced it), then its rows are built from its files instead', async () => {
    const dir = path.join(temp.dir, 'gone-index');
    const errors: unknown[] = [];
    const reads = await openApiReads({
      dataDir: temp.dir,
      ...QUIET,
      onError: (e) => errors.push(e),
      historyIndex: { dir, maxSegments: 2 },
    });
    try {
      await reads.whenHistoryIndexed();
      await writeSnapshots(temp.dir, [row('gb', 'T02', '2010-10-15', '2010-10-15T02:00:00.000', 5)], { fileStem: 'gone-1' });
      await Promise.all([reads.sync(), lakeOnly.sync()]);
      await reads.whenHistoryIndexed();
      // Another process removes the segments it replaced: here, every segment this one holds.
      const named = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as { segments: Array<{ id: string }> };
      for (const { id } of named.segments) await rm(path.join(dir, `${id}.bin`));
      await writeSnapshots(temp.dir, [row('gb', 'T02', '2010-11-15', '2010-11-15T02:00:00.000', 5)], { fileStem: 'gone-2' });
      await Promise.all([reads.sync(), lakeOnly.sync()]);
      await reads.whenHistoryIndexed();
      expect(errors.map(String)).toContainEqual(expect.stringMatching(/ENOENT/));
      expect(reads.stats().historyIndex).toMatchObject({ unindexedFiles: 0 });
      expect(reads.stats().historyIndex!.segments).toBeLessThanOrEqual(2);
      const pairs = probes();
      expect(await answers(reads, pairs)).toEqual(await answers(lakeOnly, pairs));
      expect(await reads.asOf('gb', 'T02', '2010-11-20')).toMatchObject({ found: true, row: { snapshotDate: '2010-11-15' } });
    } finally {
      await reads.close();
    }
  });

  it('two API processes on one DATA_DIR share the folder: both stay right through a publish, and a restart after them is right', async () => {
    const open = () => openApiReads({ dataDir: temp.dir, ...QUIET });
    const other = await open();
    try {
      await other.whenHistoryIndexed();
      await writeSnapshots(temp.dir, [row('gb', 'T05', '2011-03-15', '2011-03-15T02:00:00.000', 4)], { fileStem: 'shared' });
      await Promise.all([indexed.sync(), other.sync(), lakeOnly.sync()]);
      await Promise.all([indexed.whenHistoryIndexed(), other.whenHistoryIndexed()]);
      const pairs = probes();
      const expected = await answers(lakeOnly, pairs);
      expect(await answers(indexed, pairs)).toEqual(expected);
      expect(await answers(other, pairs)).toEqual(expected);
      expect(await other.asOf('gb', 'T05', '2011-03-20')).toMatchObject({
        found: true,
        row: { snapshotDate: '2011-03-15', source: 'refresh' },
      });
      const third = await open();
      try {
        await third.whenHistoryIndexed();
        expect(await answers(third, pairs)).toEqual(expected);
      } finally {
        await third.close();
      }
    } finally {
      await other.close();
    }
  });

  it('rebuilds a torn segment and an index of another format instead of trusting them', async () => {
    await indexed.close();
    const pairs = probes();
    const expected = await answers(lakeOnly, pairs);
    // A segment the manifest names, cut short as a crash mid-write (without the rename) would leave it.
    const named = JSON.parse(await readFile(path.join(indexDir(), 'manifest.json'), 'utf8')) as { segments: Array<{ id: string }> };
    expect(named.segments.length).toBeGreaterThan(0);
    expect(await readdir(indexDir())).toContain(`${named.segments[0]!.id}.bin`);
    await truncate(path.join(indexDir(), `${named.segments[0]!.id}.bin`), 100);
    indexed = await openApiReads({ dataDir: temp.dir, ...QUIET });
    await indexed.whenHistoryIndexed();
    expect(indexed.stats().historyIndex).toMatchObject({ segments: 1, builds: 1, unindexedFiles: 0 });
    expect(await answers(indexed, pairs)).toEqual(expected);

    await indexed.close();
    const manifestPath = path.join(indexDir(), 'manifest.json');
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { format: number };
    await writeFile(manifestPath, JSON.stringify({ ...manifest, format: 0 }));
    indexed = await openApiReads({ dataDir: temp.dir, ...QUIET });
    await indexed.whenHistoryIndexed();
    expect(indexed.stats().historyIndex).toMatchObject({ segments: 1, builds: 1 });
    expect(await answers(indexed, pairs)).toEqual(expected);

    // A manifest torn by a crash mid-write (the rename makes that unlikely, a disk can still do it).
    await indexed.close();
    await writeFile(manifestPath, '{"format":1,"segm');
    indexed = await openApiReads({ dataDir: temp.dir, ...QUIET });
    await indexed.whenHistoryIndexed();
    expect(indexed.stats().historyIndex).toMatchObject({ segments: 1, builds: 1 });
    expect(await answers(indexed, pairs)).toEqual(expected);

    // Intact, it is reused: a restart builds nothing.
    await indexed.close();
    indexed = await openApiReads({ dataDir: temp.dir, ...QUIET });
    await indexed.whenHistoryIndexed();
    expect(indexed.stats().historyIndex).toMatchObject({ segments: 1, builds: 0, unindexedFiles: 0 });
    expect(await answers(indexed, pairs)).toEqual(expected);
  });

  it('builds in a child process: a killed builder leaves no torn index, and close stops a running build with no temp file left', async () => {
    await indexed.close();
    const pairs = probes();
    const expected = await answers(lakeOnly, pairs);
    const errors: unknown[] = [];

    // Killed mid-build (as the OOM killer would): the index is retried and answers right; nothing half-written is trusted.
    await rm(indexDir(), { recursive: true, force: true });
    indexed = await openApiReads({
      dataDir: temp.dir,
      ...QUIET,
      onError: (e) => errors.push(e),
    });
    const killed = await until('a builder process', () => historyBuilderPids()[0]);
    expect(killed).not.toBe(process.pid);
    // The builder yields to the API and to a backfilling worker: the lowest priority, in a session (scheduler group) of its own.
    await until('the builder at the lowest priority', () => threadNiceValues(killed).every((nice) => nice === 19));
    expect(sessionOf(killed)).toBe(killed);
    expect(autogroupNice(killed)).toBe(autogroupsOn() ? 19 : null);
    process.kill(killed, 'SIGKILL');
    await until('the index rebuilt after the kill', () => {
      const stats = indexed.stats().historyIndex;
      return stats?.segments === 1 && stats.unindexedFiles === 0;
    });
    // The builder's memory is its own process's, reported apart from the API's.
    expect(indexed.stats().historyIndex!.builderMaxRssMiB).toBeGreaterThan(0);
    expect(errors.map(String)).toContainEqual(expect.stringMatching(/process ended \(SIGKILL\)/));
    expect(await answers(indexed, pairs)).toEqual(expected);
    await indexed.close();

    // Closed mid-build: the builder stops at its next batch, removes its temp files and exits; no segment is named.
    await rm(indexDir(), { recursive: true, force: true });
    indexed = await openApiReads({ dataDir: temp.dir, ...QUIET });
    const running = await until('a builder process', () => historyBuilderPids()[0]);
    await indexed.close();
    expect(alive(running)).toBe(false);
    expect((await readdir(indexDir())).filter((name) => name.includes('.tmp'))).toEqual([]);

    indexed = await openApiReads({ dataDir: temp.dir, ...QUIET });
    await indexed.whenHistoryIndexed();
    expect(indexed.stats().historyIndex).toMatchObject({ segments: 1, unindexedFiles: 0 });
    expect(await answers(indexed, pairs)).toEqual(expected);
  });

  it('builds without waiting for the result sidecars: a start while the sidecar builder is held still gets its index', async () => {
    // While a backfill publishes, every minute without the index sends as_of to a lake query per request.
    await indexed.close();
    const pairs = probes();
    const expected = await answers(lakeOnly, pairs);
    await rm(indexDir(), { recursive: true, force: true });
    await rm(path.join(temp.dir, 'api-cache', 'results'), { recursive: true, force: true });
    indexed = await openApiReads({ dataDir: temp.dir, ...QUIET, sidecars: true });
    let sidecarsBuilt = false;
    const sidecarsDone = indexed.whenSidecarsBuilt().then(() => (sidecarsBuilt = true));
    const sidecarBuilder = await until('a sidecar builder', () => sidecarBuilderPids()[0], 20_000);
    process.kill(sidecarBuilder, 'SIGSTOP');
    try {
      await until(
        'the index built while the sidecar builder is held',
        () => {
          const stats = indexed.stats().historyIndex;
          return stats?.segments === 1 && stats.unindexedFiles === 0;
        },
        60_000,
      );
      expect(sidecarsBuilt).toBe(false);
      const queries = indexed.stats().historyQueries;
      expect(await answers(indexed, pairs)).toEqual(expected);
      expect(indexed.stats().historyQueries).toBe(queries);
    } finally {
      process.kill(sidecarBuilder, 'SIGCONT');
    }
    await sidecarsDone;
  });

  it('while the index builds a published file, as_of reads that file once, not per request', async () => {
    const late = MARKETS.flatMap((market) => TICKERS.map((t) => row(market, t, '2010-09-15', '2010-09-15T02:00:00.000', 3)));
    await writeSnapshots(temp.dir, late, { fileStem: 'late-backfill-2' });
    const syncing = Promise.all([indexed.sync(), lakeOnly.sync()]);
    // Held mid-build (stopped), so the new file stays not indexed while the reads are asked.
    const builder = await until('a history index builder', () => historyBuilderPids()[0], 20_000);
    process.kill(builder, 'SIGSTOP');
    try {
      await syncing;
      expect(indexed.stats().historyIndex!.unindexedFiles).toBeGreaterThan(0);
      const pairs = everyTickerOn(['2010-09-15', '2010-10-01', '2010-09-14']);
      const expected = await answers(lakeOnly, pairs);
      expect(expected[0]).toMatchObject({ asOf: { found: true, row: { snapshotDate: '2010-09-15' } } });
      const queries = indexed.stats().historyQueries;
      expect(await answers(indexed, pairs)).toEqual(expected);
      expect(indexed.stats().historyQueries).toBe(queries);
      expect(indexed.stats().historyIndex!.unindexedFiles).toBeGreaterThan(0);
    } finally {
      process.kill(builder, 'SIGCONT');
    }
    await indexed.whenHistoryIndexed();
    expect(indexed.stats().historyIndex!.unindexedFiles).toBe(0);
  });
});
