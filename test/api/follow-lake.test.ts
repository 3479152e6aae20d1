import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotRowFrom } from '../../activities/snapshot-rows.ts';
import { createApp } from '../../api/app.ts';
import { unavailableRefresher } from '../../api/refresher.ts';
import { screenCompany, type ScreeningInput } from '../../engine/index.ts';
import { createMetrics } from '../../api/metrics.ts';
import { openApiReads, type ApiReads } from '../../reads/api-reads.ts';
import { compactSnapshots } from '../../warehouse/compaction.ts';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { ingestSource } from '../../sources/ingest.ts';
import { journalPath, trimLakeJournal } from '../../warehouse/lake-journal.ts';
import { lakeRoot } from '../../warehouse/lake-paths.ts';
import { loadScreeningInputs } from '../../warehouse/screening-inputs.ts';
import { writeSnapshots } from '../../warehouse/snapshot-writer.ts';
import { listen } from '../support/http.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const TODAY = new Date().toISOString().slice(0, 10);
/** History as a year-end backfill from 2009 writes it (its first day is a point), in chunks of 10 tickers. */
const HISTORY = ['2009-01-01', '2009-12-31', '2012-12-31'];
const CHUNK = 10;

async function inputsOn(dataDir: string, date: string, tickers?: string[]): Promise<ScreeningInput[]> {
  return withDuckDB(':memory:', {}, (c) =>
    loadScreeningInputs(c, dataDir, { market: 'us', date, kind: 'stock', ...(tickers ? { tickers } : {}) }),
  );
}

async function publish(dataDir: string, inputs: ScreeningInput[], stem: string): Promise<void> {
  for (let start = 0; start < inputs.length; start += CHUNK) {
    const rows = inputs.slice(start, start + CHUNK).map((input) =>
      snapshotRowFrom(input, screenCompany(input), {
        source: 'backfill',
        runId: stem,
        screenedAt: `${input.screeningDate}T02:00:00.000`,
      }),
    );
    await writeSnapshots(dataDir, rows, { fileStem: `${stem}-c${start / CHUNK}` });
  }
}

/** A refresh of one ticker screened at `time` today, published as its own file. */
async function publishRefresh(dataDir: string, ticker: string, time: string, stem: string): Promise<void> {
  const rows = (await inputsOn(dataDir, TODAY, [ticker])).map((input) =>
    snapshotRowFrom(input, screenCompany(input), { source: 'refresh', runId: stem, screenedAt: `${TODAY}T${time}` }),
  );
  await writeSnapshots(dataDir, rows, { fileStem: stem });
}

async function snapshotFiles(dataDir: string): Promise<string[]> {
  const entries = await readdir(path.join(lakeRoot(dataDir), 'snapshots'), { recursive: true });
  return entries.filter((f) => f.endsWith('.parquet') && !f.startsWith('market=_none')).sort();
}

// Response bodies are read as loosely typed JSON: the assertions check their shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON under test
type Json = Record<string, any>;

describe('the API follows the serving store and the lake (a running API, following every 0.5 s as in production)', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let reads: ApiReads;
  let server: { url: string; close: () => Promise<void> };
  /** Listed on 2009-01-01 and screened on every history date. */
  let early: string[];
  /** Listed today but not screened until a test publishes it. */
  let late: string;

  const get = async (route: string): Promise<{ status: number; body: Json }> => {
    const response = await fetch(`${server.url}${route}`);
    return { status: response.status, body: (await response.json()) as Json };
  };

  beforeAll(async () => {
    temp = await makeTempDir();
    await ingestSource({ source: 'sample', scale: 0.002, dataDir: temp.dir, asOf: TODAY, markets: ['us'], concurrency: 2 });
    const listed2009 = (await inputsOn(temp.dir, HISTORY[0]!)).map((i) => i.listing.ticker);
    early = listed2009.slice(0, 30);
    for (const date of HISTORY) await publish(temp.dir, await inputsOn(temp.dir, date, early), `backfill-${date}`);
    const today = await inputsOn(temp.dir, TODAY);
    late = today.map((i) => i.listing.ticker).find((t) => !early.includes(t))!;
    await publish(
      temp.dir,
      today.filter((i) => i.listing.ticker !== late),
      'nightly-today',
    );
    reads = await openApiReads({ dataDir: temp.dir });
    const app = createApp({
      logger: pino({ level: 'silent' }),
      metrics: createMetrics(),
      readiness: {},
      screen: { reads, refresher: unavailableRefresher, cache: { freshDays: 1, staleWhileRevalidateDays: 7 } },
    });
    server = await listen(app);
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await reads?.close();
    await temp?.cleanup();
  });

  it('when as_of is 2009-01-02, then a company listed on 2009-01-01 answers 200 with that first snapshot, read from the serving store', async () => {
    const ticker = early[0]!;
    const historyReads = () => reads.stats().historyReads;
    const before = historyReads();
    const { status, body } = await get(`/api/screen/us/${ticker}?as_of=2009-01-02`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ ticker, snapshot_date: '2009-01-01', era: 'legacy', historical: true });
    expect(historyReads()).toBeGreaterThan(before);
    // A date in a year with no snapshot of its own before it falls back to the years before.
    expect((await get(`/api/screen/us/${ticker}?as_of=2012-06-30`)).body.snapshot_date).toBe('2009-12-31');
    const none = await get(`/api/screen/us/${ticker}?as_of=2008-12-31`);
    expect(none.status).toBe(400);
  });

  it("when a snapshot file is published, then the running API serves it without a restart, from the store's change feed, having scanned and copied nothing", async () => {
    const before = reads.stats();
    expect((await get(`/api/screen/us/${late}`)).status).toBe(503);
    await publish(temp.dir, await inputsOn(temp.dir, TODAY, [late]), 'nightly-late');
    const published = Date.now();
    let answer = await get(`/api/screen/us/${late}`);
    // Waits for the answer itself, with room for a loaded machine; how fast it comes is the API bench's to measure.
    while (answer.status !== 200 && Date.now() - published < 30_000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      answer = await get(`/api/screen/us/${late}`);
    }
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ ticker: late, from_cache: true, stale: false });
    const after = reads.stats();
    expect(after.lakeScans).toBe(before.lakeScans);
    expect(after.servingSync).toBe(before.servingSync);
    expect(after.snapshots).toBe(before.snapshots + 1);
    expect(after.servingSeq).toBeGreaterThan(before.servingSeq);
    // Only the changed row came through the feed.
    expect(after.currentRowsRead).toBe(before.currentRowsRead + 1);
  });

  it('when the lake is compacted while clients read, then every answer stays the same and the API reads and copies nothing', async () => {
    const routes = [
      ...early.slice(0, 6).map((t) => `/api/screen/us/${t}`),
      ...early.slice(0, 6).map((t) => `/api/screen/us/${t}?as_of=2010-03-31`),
      ...early.slice(0, 6).map((t) => `/api/screen/us/${t}?as_of=2009-06-30`),
    ];
    const answer = async (route: string) => {
      const { status, body } = await get(route);
      return JSON.stringify({
        status,
        date: body.snapshot_date,
        verdict: body.report?.shariah_aaoifi?.status ?? body.frameworks?.shariah_aaoifi?.status,
      });
    };
    const baseline = await Promise.all(routes.map(answer));
    expect(baseline.every((a) => a.startsWith('{"status":200'))).toBe(true);
    const before = reads.stats();
    const filesBefore = await snapshotFiles(temp.dir);

    let running = true;
    const seen: string[][] = [];
    const clients = Array.from({ length: 3 }, async () => {
      while (running) seen.push(await Promise.all(routes.map(answer)));
    });
    const result = await compactSnapshots(temp.dir, { minFiles: 2, minAgeMs: 0 }).finally(() => (running = false));
    await Promise.all(clients);

    expect(result.filesAfter).toBeLessThan(result.filesBefore);
    const filesAfter = await snapshotFiles(temp.dir);
    expect(filesAfter.filter((f) => f.includes('/compact-'))).toHaveLength(filesAfter.length);
    expect(filesAfter.length).toBeLessThan(filesBefore.length);
    expect(seen.length).toBeGreaterThan(0);
    for (const answers of seen) expect(answers).toEqual(baseline);
    await reads.sync();
    const after = reads.stats();
    expect(after.servingSync).toBe(before.servingSync);
    expect(after.servingSeq).toBe(before.servingSeq);
    expect(after.lakeScans).toBe(before.lakeScans);
    expect(after.snapshots).toBe(before.snapshots);
    // Reports read after the merge come from the store as before.
    expect(await Promise.all(routes.map(answer))).toEqual(baseline);
    const cold = await get(`/api/screen/us/${early.at(-1)!}`);
    expect(cold.status).toBe(200);
  });

  it('when the change journal is trimmed while the API runs, then the API, which follows the store, lists no lake folder and serves what is published after', async () => {
    const before = reads.stats();
    const others = [early[0]!, ...early.slice(2, 6)].map((t) => reads.current('us', t));
    expect((await trimLakeJournal(temp.dir, 1)).trimmed).toBe(true);
    await publishRefresh(temp.dir, early[1]!, '08:00:00.000', 'refresh-after-trim');
    const published = Date.now();
    while (reads.current('us', early[1]!)?.screenedAt !== `${TODAY}T08:00:00.000` && Date.now() - published < 2_000)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reads.current('us', early[1]!)?.screenedAt).toBe(`${TODAY}T08:00:00.000`);
    const after = reads.stats();
    expect(after.lakeScans).toBe(before.lakeScans);
    expect([early[0]!, ...early.slice(2, 6)].map((t) => reads.current('us', t))).toEqual(others);
    await publishRefresh(temp.dir, early[1]!, '08:30:00.000', 'refresh-after-trim-2');
    await reads.sync();
    expect(reads.current('us', early[1]!)?.screenedAt).toBe(`${TODAY}T08:30:00.000`);
    expect(reads.stats().lakeScans).toBe(after.lakeScans);
  });

  it('when the API restarts, then it reads the current verdicts from the store, including the refresh published while it was down, and copies no lake file', async () => {
    const sample = early.slice(0, 5).map((t) => reads.current('us', t));
    const lateRow = reads.current('us', late);
    await server.close();
    await reads.close();
    const today = await inputsOn(temp.dir, TODAY, [early[0]!]);
    const rows = today.map((input) =>
      snapshotRowFrom(input, screenCompany(input), { source: 'refresh', runId: 'down', screenedAt: `${TODAY}T09:00:00.000` }),
    );
    await writeSnapshots(temp.dir, rows, { fileStem: 'refresh-while-down' });

    reads = await openApiReads({ dataDir: temp.dir });
    const stats = reads.stats();
    expect(stats.servingSync?.filesCopied).toBe(0);
    expect(stats.currentRowsRead).toBe(stats.snapshots);
    expect(reads.current('us', early[0]!)?.screenedAt).toBe(`${TODAY}T09:00:00.000`);
    expect(early.slice(1, 5).map((t) => reads.current('us', t))).toEqual(sample.slice(1));
    expect(reads.current('us', late)).toEqual(lateRow);
    const lookup = await reads.asOf('us', early[1]!, '2009-01-02');
    expect(lookup).toMatchObject({ found: true, row: { snapshotDate: '2009-01-01' } });
  });

  it('when the API was down while the lake was compacted and the journal trimmed, then its start copies nothing and serves results from the store', async () => {
    const sample = early.slice(0, 6).map((t) => reads.current('us', t));
    await server.close();
    await reads.close();
    await publishRefresh(temp.dir, early[2]!, '10:00:00.000', 'refresh-before-compaction');
    const compacted = await compactSnapshots(temp.dir, { minFiles: 2, minAgeMs: 0, retireAfterMs: 0, trimJournalBytes: 1 });
    expect(compacted.filesAfter).toBeLessThan(compacted.filesBefore);
    expect(JSON.parse((await readFile(journalPath(temp.dir), 'utf8')).trim())).toMatchObject({ op: 'trim' });

    reads = await openApiReads({ dataDir: temp.dir });
    const stats = reads.stats();
    expect(stats.lakeScans).toBe(1);
    // The compaction recorded its merged files as held: the start copies none of them.
    expect(stats.servingSync).toMatchObject({ filesCopied: 0, lakeFiles: (await snapshotFiles(temp.dir)).length });
    expect(reads.current('us', early[2]!)?.screenedAt).toBe(`${TODAY}T10:00:00.000`);
    expect([0, 1, 3, 4, 5].map((i) => reads.current('us', early[i]!))).toEqual([0, 1, 3, 4, 5].map((i) => sample[i]));
    // Results of rows whose files were merged are read from the store.
    expect((await reads.resultJson(reads.current('us', early[3]!)!)).length).toBeGreaterThan(100);
  });
});
