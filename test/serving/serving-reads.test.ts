import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.ts';
import { createMetrics } from '../../api/metrics.ts';
import { unavailableRefresher } from '../../api/refresher.ts';
import { dayNumber } from '../../engine/dates.ts';
import { openServingStore } from '../../serving/open-serving-store.ts';
import { openApiReads, type ApiReads } from '../../reads/api-reads.ts';
import { dayString } from '../../reads/api-reads-store.ts';
import { compactSnapshots } from '../../warehouse/compaction.ts';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { checkServingAgainstLake } from '../../warehouse/serving-check.ts';
import type { SnapshotRow } from '../../warehouse/snapshot-schema.ts';
import { writeSnapshots } from '../../warehouse/snapshot-writer.ts';
import { listen } from '../support/http.ts';
import { hashedStatuses, syntheticSnapshotRow } from '../support/synthetic-snapshots.ts';
import { makeTempDir } from '../support/temp-dir.ts';

/**
 * Older snapshots from the serving store (docs/serving.md, "The serving store") against the
 * lake they were published to: every as_of and exact-day answer equals what the rows written
 * say, before and after publishes and compaction, through the reads and over HTTP.
 * SYNTHETIC snapshots written through the snapshot writer.
 */

const MARKETS = ['us', 'gb'];
const TICKERS = Array.from({ length: 12 }, (_, i) => `T${String(i).padStart(2, '0')}`);
/** Month ends 2009–2011: each ticker's history starts at a month of its own. */
const MONTH_ENDS = Array.from({ length: 36 }, (_, m) =>
  dayString(dayNumber(`${2009 + Math.floor((m + 1) / 12)}-${String(((m + 1) % 12) + 1).padStart(2, '0')}-01`) - 1),
);
const TODAY = new Date().toISOString().slice(0, 10);
const QUIET = { followIntervalMs: 0 } as const;

function hash(...parts: Array<string | number>): number {
  let h = 2166136261;
  for (const c of parts.join('|')) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return h >>> 0;
}

/** Every row published, the oracle the answers are checked against. */
const written: SnapshotRow[] = [];

function row(market: string, ticker: string, date: string, screenedAt: string, salt = 0): SnapshotRow {
  const h = hash(market, ticker, date, screenedAt, salt);
  return syntheticSnapshotRow({
    market,
    ticker,
    date,
    screenedAt,
    source: salt === 0 ? 'backfill' : 'refresh',
    runId: `serving-test-${salt}`,
    resultJson: JSON.stringify({ synthetic: true, ticker, date, screenedAt }),
    dataSource: salt === 0 ? 'sample' : 'feed',
    status: hashedStatuses(h),
    // Float64 values that do not survive a float32 or decimal round trip, and a null now and then.
    ratio: (i) => ((h >>> i) % 7 === 0 ? null : ((h >>> i) % 1000) / 3 + 0.1 + 0.2),
  });
}

async function publish(dataDir: string, rows: SnapshotRow[], fileStem: string): Promise<void> {
  await writeSnapshots(dataDir, rows, { fileStem });
  written.push(...rows);
}

const startOf = (market: string, ticker: string) => hash(market, ticker) % 12;

async function publishHistory(dataDir: string): Promise<void> {
  for (const [m, date] of MONTH_ENDS.entries()) {
    const rows = MARKETS.flatMap((market) =>
      TICKERS.filter((t) => startOf(market, t) <= m).map((t) => row(market, t, date, `${date}T02:00:00.000`)),
    );
    await publish(dataDir, rows, `history-${date}`);
  }
  // Same-day re-screens, a later screened_at in a file of their own: the newer one wins that day.
  await publish(
    dataDir,
    MARKETS.flatMap((market) => TICKERS.slice(0, 6).map((t) => row(market, t, MONTH_ENDS[20]!, `${MONTH_ENDS[20]}T09:30:00.000`, 1))),
    'rescreen',
  );
  await publish(
    dataDir,
    MARKETS.flatMap((market) => TICKERS.map((t) => row(market, t, TODAY, `${TODAY}T02:00:00.000`))),
    'today',
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

/** What the written rows say: the newest screen of the newest day on or before `date`, and the ticker's first day. */
function expectedAsOf(market: string, ticker: string, date: string) {
  const mine = written.filter((r) => r.market === market && r.ticker === ticker);
  const before = mine.filter((r) => r.snapshot_date <= date);
  const best = before.reduce<SnapshotRow | null>(
    (a, r) =>
      a === null || r.snapshot_date > a.snapshot_date || (r.snapshot_date === a.snapshot_date && r.screened_at > a.screened_at) ? r : a,
    null,
  );
  const first = mine.reduce<string | null>((a, r) => (a === null || r.snapshot_date < a ? r.snapshot_date : a), null);
  return best === null
    ? { found: false, firstSnapshotDate: first }
    : {
        found: true,
        snapshotDate: best.snapshot_date,
        screenedAt: best.screened_at,
        aaoifi: best.shariah_aaoifi_status,
        debt: best.debt_to_market_cap,
      };
}

async function answer(reads: ApiReads, market: string, ticker: string, date: string) {
  const lookup = await reads.asOf(market, ticker, date);
  if (!lookup.found) return { found: false, firstSnapshotDate: lookup.firstSnapshotDate };
  const r = lookup.row;
  return {
    found: true,
    snapshotDate: r.snapshotDate,
    screenedAt: r.screenedAt,
    aaoifi: r.statuses.shariah_aaoifi,
    debt: r.ratios.debt_to_market_cap,
  };
}

async function expectEveryProbe(reads: ApiReads): Promise<void> {
  for (const [market, ticker, date] of probes()) {
    expect({ market, ticker, date, answer: await answer(reads, market, ticker, date) }).toEqual({
      market,
      ticker,
      date,
      answer: expectedAsOf(market, ticker, date),
    });
  }
}

describe('older snapshots from the serving store', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let reads: ApiReads;

  beforeAll(async () => {
    temp = await makeTempDir();
    await publishHistory(temp.dir);
    reads = await openApiReads({ dataDir: temp.dir, ...QUIET });
  }, 120_000);

  afterAll(async () => {
    await reads?.close();
    await temp?.cleanup();
  });

  it('answers every as_of as the published rows say, with no lake file copied at start (each was written at publish)', async () => {
    await expectEveryProbe(reads);
    expect(reads.stats().servingSync).toMatchObject({ filesCopied: 0, rowsCopied: 0 });
    expect(reads.stats().historyReads).toBeGreaterThan(100);
    expect(await reads.asOf('us', 'T01', MONTH_ENDS[20]!)).toMatchObject({
      found: true,
      row: { screenedAt: `${MONTH_ENDS[20]}T09:30:00.000`, source: 'refresh', dataSource: 'feed', era: 'legacy', synthetic: true },
    });
    expect(await reads.newestOnDay('us', 'T01', dayString(dayNumber(MONTH_ENDS[20]!) + 1))).toBeUndefined();
  });

  it("reads a historic row's stored result from the store, and a ticker's whole history in order", async () => {
    const found = await reads.asOf('gb', 'T03', '2010-03-05');
    if (!found.found) throw new Error('expected a snapshot');
    expect(JSON.parse(await reads.resultJson(found.row))).toEqual({
      synthetic: true,
      ticker: 'T03',
      date: found.row.snapshotDate,
      screenedAt: found.row.screenedAt,
    });
    const history = await reads.tickerHistory('gb', 'T03');
    expect(history.map((r) => r.snapshotDate)).toEqual([...MONTH_ENDS.slice(startOf('gb', 'T03')), TODAY]);
  });

  it('answers GET /api/screen/{market}/{ticker}?as_of= over HTTP, 404 before the first snapshot', async () => {
    const server = await listen(
      createApp({
        logger: pino({ level: 'silent' }),
        metrics: createMetrics(),
        readiness: {},
        screen: { reads, refresher: unavailableRefresher, cache: { freshDays: 1, staleWhileRevalidateDays: 7 } },
      }),
    );
    try {
      const first = MONTH_ENDS[startOf('us', 'T04')]!;
      const before = await fetch(`${server.url}/api/screen/us/T04?as_of=${dayString(dayNumber(first) - 1)}`);
      expect(before.status).toBe(404);
      expect(await before.json()).toMatchObject({ detail: expect.stringContaining(first) });
      const during = await fetch(`${server.url}/api/screen/us/T04?as_of=2011-02-10`);
      expect(during.status).toBe(200);
      expect(await during.json()).toMatchObject({ snapshot_date: '2011-01-31' });
    } finally {
      await server.close();
    }
  });

  it('serves a publish at once, and after compaction answers the same with no row copied again', async () => {
    await publish(
      temp.dir,
      MARKETS.flatMap((m) => TICKERS.map((t) => row(m, t, '2010-06-15', '2010-06-15T02:00:00.000', 2))),
      'late',
    );
    await reads.sync();
    expect(await reads.asOf('us', 'T00', '2010-06-20')).toMatchObject({ found: true, row: { snapshotDate: '2010-06-15' } });
    const compacted = await compactSnapshots(temp.dir, { minFiles: 2, minAgeMs: 0, retireAfterMs: 0 });
    expect(compacted.filesAfter).toBeLessThan(compacted.filesBefore);
    await reads.sync();
    await expectEveryProbe(reads);
    // The store holds the merged files: a start after compaction copies nothing.
    const restarted = await openApiReads({ dataDir: temp.dir, ...QUIET });
    try {
      expect(restarted.stats().servingSync).toMatchObject({ filesCopied: 0, filesReleased: 0 });
      await expectEveryProbe(restarted);
    } finally {
      await restarted.close();
    }
  });

  it('copies at start a lake file the store does not hold (written by hand), and the check then finds store and lake agree', async () => {
    // A file outside faithscreen's writers: the same rows as a writer's file, copied by DuckDB to a new name.
    await withDuckDB(':memory:', {}, async (connection) => {
      const dir = `${temp.dir}/lake/snapshots/market=us/year=2011`;
      await connection.run(
        `COPY (SELECT * REPLACE ('2011-03-15'::DATE AS snapshot_date, '2011-03-15 03:00:00'::TIMESTAMP AS screened_at)
               FROM read_parquet('${dir}/*.parquet') WHERE ticker = 'T09' LIMIT 1) TO '${dir}/by-hand.parquet' (FORMAT parquet)`,
      );
    });
    const restarted = await openApiReads({ dataDir: temp.dir, ...QUIET });
    try {
      expect(restarted.stats().servingSync).toMatchObject({ filesCopied: 1, rowsCopied: 1 });
      expect(await restarted.asOf('us', 'T09', '2011-03-20')).toMatchObject({ found: true, row: { snapshotDate: '2011-03-15' } });
    } finally {
      await restarted.close();
    }
    const store = await openServingStore({ dataDir: temp.dir });
    try {
      const check = await checkServingAgainstLake(temp.dir, store, 20);
      expect(check.snapshotsCompared).toBeGreaterThan(100);
      expect(check.mismatches).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('copies a file written to the lake by hand (not through the store) when the reads sync from the lake, as every start does', async () => {
    const dir = `${temp.dir}/lake/snapshots/market=gb/year=2011`;
    await withDuckDB(':memory:', {}, async (connection) => {
      await connection.run(
        `COPY (SELECT * REPLACE ('2011-04-15'::DATE AS snapshot_date, '2011-04-15 03:00:00'::TIMESTAMP AS screened_at)
               FROM read_parquet('${dir}/*.parquet') WHERE ticker = 'T02' LIMIT 1) TO '${dir}/other-store.parquet' (FORMAT parquet)`,
      );
    });
    await reads.sync();
    expect(await reads.asOf('gb', 'T02', '2011-04-20')).not.toMatchObject({ row: { snapshotDate: '2011-04-15' } });
    await reads.syncFromLake();
    expect(reads.stats().servingSync).toMatchObject({ filesCopied: 1, rowsCopied: 1 });
    expect(await reads.asOf('gb', 'T02', '2011-04-20')).toMatchObject({ found: true, row: { snapshotDate: '2011-04-15' } });
  });
});
