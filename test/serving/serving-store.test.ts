import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { VerdictStatus } from '../../engine/result-types.ts';
import Database from 'libsql';
import pg from 'pg';
import { SNAPSHOT_RATIOS } from '../../common/snapshot-ratios.ts';
import { openServingStore, type ServingTarget } from '../../serving/open-serving-store.ts';
import { ResultGrouper } from '../../serving/result-grouper.ts';
import { SELECT_REPORT_STAMP_SQLITE } from '../../serving/serving-sql.ts';
import type { ServingBatch, ServingSnapshot, ServingStore } from '../../serving/serving-types.ts';
import { servingRow } from '../support/serving-rows.ts';
import { testServiceState } from '../support/service-state.ts';
import { makeTempDir } from '../support/temp-dir.ts';

function snapshot(ticker: string, snapshotDate: string, screenedAt: string, status: VerdictStatus = 'compliant'): ServingSnapshot {
  return {
    ...servingRow(ticker, snapshotDate, screenedAt, status),
    result: Buffer.from(JSON.stringify({ ticker, snapshotDate, screenedAt })),
  };
}

/** Rows through a `ResultGrouper`, as a publisher hands them to the store. */
function grouped(rows: readonly ServingSnapshot[]): ServingBatch {
  const grouper = new ResultGrouper();
  for (const { result, ...row } of rows) grouper.add(row, result);
  return grouper.finish();
}

describe('serving store', () => {
  let store: ServingStore;
  let cleanup: () => Promise<void>;
  let blockCount: () => Promise<number>;
  let storeRows: (sql: string) => Promise<Array<Record<string, unknown>>>;
  let sqlite: boolean;
  let target: ServingTarget;
  /** Runs statements on the store's own tables, as another process (the store closed). */
  let execOnStore: (statements: readonly string[]) => Promise<void>;

  beforeEach(async () => {
    const temp = await makeTempDir();
    cleanup = temp.cleanup;
    target = await testServiceState(temp.dir);
    store = await openServingStore(target);
    sqlite = target.databaseUrl === undefined;
    // A read of the store's own tables beside the store, on its engine.
    storeRows = async (sql) => {
      if (target.databaseUrl === undefined) {
        const db = new Database(store.location, { readonly: true });
        try {
          return db.prepare(sql).all() as Array<Record<string, unknown>>;
        } finally {
          db.close();
        }
      }
      const client = new pg.Client({ connectionString: target.databaseUrl });
      await client.connect();
      try {
        return (await client.query<Record<string, unknown>>(sql)).rows;
      } finally {
        await client.end();
      }
    };
    execOnStore = async (statements) => {
      if (target.databaseUrl === undefined) {
        const db = new Database(store.location);
        try {
          for (const sql of statements) db.exec(sql);
        } finally {
          db.close();
        }
        return;
      }
      const client = new pg.Client({ connectionString: target.databaseUrl });
      await client.connect();
      try {
        for (const sql of statements) await client.query(sql);
      } finally {
        await client.end();
      }
    };
    blockCount = async () => Number((await storeRows('SELECT count(*) AS n FROM serving_result_blocks'))[0]!.n);
  });
  afterEach(async () => {
    await store.close();
    await cleanup();
  });

  it('answers as_of, a day, a history and the current row from what was written', async () => {
    await store.write([
      snapshot('AAA', '2020-01-31', '2020-02-01T01:00:00.000'),
      snapshot('AAA', '2020-02-29', '2020-03-01T01:00:00.000', 'non_compliant'),
      snapshot('AAA', '2020-03-31', '2020-04-01T01:00:00.000', 'questionable'),
      snapshot('BBB', '2020-02-29', '2020-03-01T01:00:00.000'),
    ]);
    const asOf = await store.asOf('us', 'AAA', '2020-03-15');
    expect(asOf.row?.snapshotDate).toBe('2020-02-29');
    expect(asOf.row?.statuses.shariah_aaoifi).toBe('non_compliant');
    expect(asOf.row?.ratios.debt_to_market_cap).toBeNull();
    expect(asOf.row?.ratios.cash_to_market_cap).toBe(0.01);
    expect(asOf.row?.synthetic).toBe(true);
    expect(await store.asOf('us', 'AAA', '2019-12-31')).toEqual({ row: undefined, firstSnapshotDate: '2020-01-31' });
    expect(await store.asOf('us', 'ZZZ', '2020-03-15')).toEqual({ row: undefined, firstSnapshotDate: null });
    expect((await store.current('us', 'AAA'))?.snapshotDate).toBe('2020-03-31');
    expect((await store.history('us', 'AAA')).map((r) => r.snapshotDate)).toEqual(['2020-01-31', '2020-02-29', '2020-03-31']);
    expect((await store.marketOn('us', '2020-02-29')).map((r) => r.ticker)).toEqual(['AAA', 'BBB']);
    expect(await store.onDay('us', 'AAA', '2020-03-01')).toBeUndefined();
    const [json, missing] = await store.results([
      { market: 'us', ticker: 'AAA', snapshotDate: '2020-02-29' },
      { market: 'us', ticker: 'AAA', snapshotDate: '2020-02-28' },
    ]);
    expect(JSON.parse(json!.toString('utf8'))).toEqual({
      ticker: 'AAA',
      snapshotDate: '2020-02-29',
      screenedAt: '2020-03-01T01:00:00.000',
    });
    expect(missing).toBeNull();
  });

  it('keeps the newer screen of a day and the newer day of a ticker whatever order writes come in', async () => {
    await store.write([snapshot('AAA', '2020-03-31', '2020-04-01T02:00:00.000', 'questionable')]);
    // An older backfill of an earlier day, and an earlier screen of the same day, written after.
    await store.write([
      snapshot('AAA', '2020-01-31', '2020-05-01T00:00:00.000'),
      snapshot('AAA', '2020-03-31', '2020-04-01T01:00:00.000', 'non_compliant'),
    ]);
    const current = await store.current('us', 'AAA');
    expect(current?.snapshotDate).toBe('2020-03-31');
    expect(current?.statuses.shariah_aaoifi).toBe('questionable');
    expect((await store.asOf('us', 'AAA', '2019-01-01')).firstSnapshotDate).toBe('2020-01-31');
    // The current row carries its snapshot's verdict columns, not the later-written earlier screen's.
    expect(current).toEqual((await store.history('us', 'AAA')).at(-1));
    expect((await store.currentSince(-1)).rows).toEqual([{ ...current, firstSnapshotDate: '2020-01-31' }]);
    // A retry of the same write changes nothing.
    await store.write([snapshot('AAA', '2020-03-31', '2020-04-01T02:00:00.000', 'questionable')]);
    expect(await store.history('us', 'AAA')).toHaveLength(2);
  });

  it('when a store made before current rows held their verdict is opened, then they are filled from their snapshots and one without a snapshot goes', async () => {
    await store.write([
      snapshot('AAA', '2020-01-31', '2020-02-01T01:00:00.000'),
      snapshot('AAA', '2020-02-29', '2020-03-01T01:00:00.000', 'non_compliant'),
      snapshot('BBB', '2020-02-29', '2020-03-01T01:00:00.000', 'questionable'),
    ]);
    const before = (await store.currentSince(-1)).rows;
    await store.close();
    // The store as the release before wrote it: no verdict columns in the current rows, and a
    // current row whose snapshot is gone (readers joined the two, so it was never served).
    const verdictColumns = ['source', 'statuses', ...SNAPSHOT_RATIOS, 'synthetic', 'data_source'];
    await execOnStore([
      ...verdictColumns.map((c) => `ALTER TABLE serving_current DROP COLUMN ${c}`),
      'DELETE FROM serving_migrations WHERE version = 7',
      'INSERT INTO serving_current (market, ticker, snapshot_date, screened_at, first_date, seq) ' +
        "VALUES ('us', 'GONE', '2020-02-29', '2020-03-01T01:00:00.000', '2020-02-29', 1)",
    ]);
    store = await openServingStore(target);
    const after = (await store.currentSince(-1)).rows;
    const byTicker = (rows: typeof after) => [...rows].sort((a, b) => a.ticker.localeCompare(b.ticker));
    expect(byTicker(after)).toEqual(byTicker(before));
    expect(after.find((r) => r.ticker === 'AAA')?.statuses.shariah_aaoifi).toBe('non_compliant');
    expect(await store.current('us', 'GONE')).toBeUndefined();
    // A writer of the release before (a rollback) moves the day but not the verdict; rebuilding the current rows mends it.
    await store.close();
    await execOnStore([
      "UPDATE serving_current SET snapshot_date = '2020-01-31', screened_at = '2020-02-01T01:00:00.000' WHERE ticker = 'AAA'",
    ]);
    store = await openServingStore(target);
    await store.rebuildCurrent(['us']);
    expect(byTicker((await store.currentSince(-1)).rows)).toEqual(byTicker(before));
    expect((await storeRows('SELECT version FROM serving_migrations ORDER BY version')).map((r) => Number(r.version)).at(-1)).toBe(7);
  });

  it('hands out the current rows changed since a number: everything at first, then only what a later write touched', async () => {
    await store.write([snapshot('AAA', '2020-01-31', '2020-02-01T01:00:00.000'), snapshot('AAA', '2020-02-29', '2020-03-01T01:00:00.000')]);
    await store.write([snapshot('BBB', '2020-02-29', '2020-03-01T01:00:00.000')]);
    const all = await store.currentSince(-1);
    expect(all.rows.map((r) => [r.ticker, r.snapshotDate, r.firstSnapshotDate]).sort()).toEqual([
      ['AAA', '2020-02-29', '2020-01-31'],
      ['BBB', '2020-02-29', '2020-02-29'],
    ]);
    expect(await store.currentSince(all.seq)).toEqual({ rows: [], seq: all.seq, epoch: all.epoch, listingsVersion: all.listingsVersion });
    // A backfill of an earlier day moves the first day back; the current row stays the newer one.
    await store.write([snapshot('BBB', '2019-12-31', '2020-05-01T00:00:00.000', 'non_compliant')]);
    const next = await store.currentSince(all.seq);
    expect(next.seq).toBeGreaterThan(all.seq);
    expect(next.rows.map((r) => [r.ticker, r.snapshotDate, r.firstSnapshotDate, r.statuses.shariah_aaoifi])).toEqual([
      ['BBB', '2020-02-29', '2019-12-31', 'compliant'],
    ]);
    // History between the first and the current day, and a retry of the current screen, move nothing: no reader is told.
    await store.write([
      snapshot('AAA', '2020-01-31', '2020-06-01T00:00:00.000', 'non_compliant'),
      snapshot('BBB', '2020-02-29', '2020-03-01T01:00:00.000'),
    ]);
    expect(await store.currentSince(next.seq)).toEqual({
      rows: [],
      seq: next.seq,
      epoch: next.epoch,
      listingsVersion: next.listingsVersion,
    });
    // A newer screen of the current day does.
    await store.write([snapshot('AAA', '2020-02-29', '2020-03-02T01:00:00.000', 'questionable')]);
    const moved = await store.currentSince(next.seq);
    expect(moved.rows.map((r) => [r.ticker, r.snapshotDate, r.statuses.shariah_aaoifi])).toEqual([['AAA', '2020-02-29', 'questionable']]);
  });

  it('when a partition is forgotten and the current rows rebuilt, then a ticker goes back to its newest remaining day or is gone, under a new epoch', async () => {
    await store.write([
      snapshot('AAA', '2019-12-31', '2020-01-01T01:00:00.000'),
      snapshot('AAA', '2020-02-29', '2020-03-01T01:00:00.000', 'non_compliant'),
      snapshot('BBB', '2020-02-29', '2020-03-01T01:00:00.000'),
    ]);
    const before = await store.currentSince(-1);
    await store.forgetSnapshots('us', '2020-01-01', '2020-12-31');
    await store.rebuildCurrent(['us']);
    const after = await store.currentSince(before.seq);
    expect(after.epoch).not.toBe(before.epoch);
    expect(after.rows.map((r) => [r.ticker, r.snapshotDate, r.firstSnapshotDate, r.statuses.shariah_aaoifi])).toEqual([
      ['AAA', '2019-12-31', '2019-12-31', 'compliant'],
    ]);
    expect(await store.current('us', 'BBB')).toBeUndefined();
    expect(await store.asOf('us', 'AAA', '2020-06-30')).toMatchObject({ row: { snapshotDate: '2019-12-31' } });
  });

  it('numbers concurrent writes so that a reader polling between them misses none', async () => {
    let seen = (await store.currentSince(-1)).seq;
    const tickers = new Set<string>();
    const writes = Array.from({ length: 8 }, (_, i) =>
      store.write([snapshot(`T${i}`, '2020-01-31', '2020-02-01T01:00:00.000'), snapshot(`U${i}`, '2020-01-31', '2020-02-01T01:00:00.000')]),
    );
    const polling = (async () => {
      for (let round = 0; round < 20; round += 1) {
        const changes = await store.currentSince(seen);
        for (const row of changes.rows) tickers.add(row.ticker);
        seen = changes.seq;
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    })();
    await Promise.all([...writes, polling]);
    for (const row of (await store.currentSince(seen)).rows) tickers.add(row.ticker);
    expect(tickers.size).toBe(16);
  });

  it('records the lake files it holds with the rows, and releases replaced ones', async () => {
    await store.write([snapshot('AAA', '2020-01-31', '2020-02-01T01:00:00.000')], { path: 'snapshots/a.parquet', signature: '10:1' });
    await store.holdFiles([{ path: 'snapshots/merged.parquet', signature: '20:2' }], ['snapshots/a.parquet']);
    expect([...(await store.heldFiles())]).toEqual([['snapshots/merged.parquet', '20:2']]);
    await store.setMeta('built', 'yes');
    expect(await store.meta('built')).toBe('yes');
    expect(await store.meta('absent')).toBeUndefined();
  });

  it('keeps each lake file’s listings and holdings, replaced when the file is republished and gone when it is released; texts only added', async () => {
    const listing = (ticker: string, name: string, dataSource: string) => ({
      market: 'us',
      ticker,
      name,
      exchange: 'XNAS',
      kind: 'stock',
      currency: 'USD',
      dataSource,
    });
    // The version comes with every poll of the change feed, rows or none.
    const listingsVersion = async () => (await store.currentSince(Number.MAX_SAFE_INTEGER)).listingsVersion;
    const v0 = await listingsVersion();
    await store.writeLakeFile(
      { path: 'listings/market=us/sample-c0.parquet', signature: '1:1' },
      {
        table: 'listings',
        rows: [listing('BBB', 'Sample B', 'sample'), listing('AAA', 'Sample A', 'sample')],
      },
    );
    await store.writeLakeFile(
      { path: 'listings/market=us/feed-c0.parquet', signature: '1:2' },
      {
        table: 'listings',
        rows: [listing('AAA', 'Feed A', 'feed')],
      },
    );
    const v1 = await listingsVersion();
    expect(v1).not.toBe(v0);
    // One per (market, ticker), the feed's before the sample's, in ticker order.
    expect((await store.listings()).map((l) => [l.ticker, l.name])).toEqual([
      ['AAA', 'Feed A'],
      ['BBB', 'Sample B'],
    ]);
    // Republished: the file's rows are replaced, not added to.
    await store.writeLakeFile(
      { path: 'listings/market=us/sample-c0.parquet', signature: '2:1' },
      {
        table: 'listings',
        rows: [listing('CCC', 'Sample C', 'sample')],
      },
    );
    expect((await store.listings()).map((l) => l.ticker)).toEqual(['AAA', 'CCC']);
    await store.holdFiles([], ['listings/market=us/feed-c0.parquet']);
    expect((await store.listings()).map((l) => l.ticker)).toEqual(['CCC']);
    expect(await listingsVersion()).not.toBe(v1);
    expect((await store.currentSince(-1)).listingsVersion).toBe(await listingsVersion());

    const holding = (asOf: string, ticker: string, weight: number) => ({
      fundMarket: 'us',
      fundTicker: 'FND',
      asOf,
      market: 'us',
      ticker,
      weight,
    });
    await store.writeLakeFile(
      { path: 'fund_holdings/fund_market=us/sample-c0.parquet', signature: '1:3' },
      {
        table: 'fund_holdings',
        rows: [
          holding('2024-03-31', 'AAA', 0.5),
          holding('2024-06-30', 'BBB', 0.2),
          holding('2024-06-30', 'AAA', 0.7),
          holding('2024-06-30', 'CCC', 0.1),
        ],
      },
    );
    expect(await store.fundHoldings('us', 'FND', 2)).toEqual({
      fundMarket: 'us',
      fundTicker: 'FND',
      asOf: '2024-06-30',
      totalHoldings: 3,
      holdings: [
        { market: 'us', ticker: 'AAA', weight: 0.7 },
        { market: 'us', ticker: 'BBB', weight: 0.2 },
      ],
    });
    expect(await store.fundHoldings('us', 'NONE', 10)).toBeUndefined();
    await store.holdFiles([], ['fund_holdings/fund_market=us/sample-c0.parquet']);
    expect(await store.fundHoldings('us', 'FND', 10)).toBeUndefined();

    await store.writeLakeFile(
      { path: 'methodology_texts/engine_version=1/texts-a.parquet', signature: '1:4' },
      {
        table: 'methodology_texts',
        rows: [{ textId: 'aaaaaaaaaaaa', text: 'Debt ≤ 33% — AAOIFI SS21' }],
      },
    );
    await store.writeLakeFile(
      { path: 'methodology_texts/engine_version=1/texts-b.parquet', signature: '1:5' },
      {
        table: 'methodology_texts',
        rows: [
          { textId: 'aaaaaaaaaaaa', text: 'Debt ≤ 33% — AAOIFI SS21' },
          { textId: 'bbbbbbbbbbbb', text: 'Cash' },
        ],
      },
    );
    expect([...(await store.texts())].sort()).toEqual([
      ['aaaaaaaaaaaa', 'Debt ≤ 33% — AAOIFI SS21'],
      ['bbbbbbbbbbbb', 'Cash'],
    ]);
  });

  it('keeps one pre-rendered report per ticker, the newer snapshot’s, whatever order they are written in', async () => {
    const report = (snapshotDate: string, screenedAt: string, text: string) => ({
      market: 'us',
      ticker: 'AAA',
      snapshotDate,
      screenedAt,
      companyName: 'Sample A',
      version: 'v1',
      report: Buffer.from(text),
    });
    const of = (snapshotDate: string, screenedAt: string) => ({ market: 'us', ticker: 'AAA', snapshotDate, screenedAt });
    expect(await store.report(of('2024-06-30', '2024-06-30T02:00:00.000'))).toBeUndefined();
    await store.writeReports([report('2024-06-30', '2024-06-30T02:00:00.000', 'june')]);
    await store.writeReports([report('2024-03-31', '2024-03-31T02:00:00.000', 'march')]);
    expect((await store.report(of('2024-06-30', '2024-06-30T02:00:00.000')))?.report.toString()).toBe('june');
    // Only a report of the snapshot asked for: the older one was not kept, and none is of a later screen yet.
    expect(await store.report(of('2024-03-31', '2024-03-31T02:00:00.000'))).toBeUndefined();
    expect(await store.report(of('2024-06-30', '2024-06-30T09:00:00.000'))).toBeUndefined();
    await store.writeReports([report('2024-06-30', '2024-06-30T09:00:00.000', 'june, re-screened')]);
    expect(await store.report(of('2024-06-30', '2024-06-30T09:00:00.000'))).toMatchObject({
      snapshotDate: '2024-06-30',
      screenedAt: '2024-06-30T09:00:00.000',
      version: 'v1',
    });
    expect((await store.report(of('2024-06-30', '2024-06-30T09:00:00.000')))?.report.toString()).toBe('june, re-screened');
    expect(await store.report(of('2024-06-30', '2024-06-30T02:00:00.000'))).toBeUndefined();
    // What the stored reports are of, several tickers in one read, in the order asked; none stored for BBB.
    expect(
      await store.reportStamps([
        { market: 'us', ticker: 'BBB' },
        { market: 'us', ticker: 'AAA' },
      ]),
    ).toEqual([
      undefined,
      {
        market: 'us',
        ticker: 'AAA',
        snapshotDate: '2024-06-30',
        screenedAt: '2024-06-30T09:00:00.000',
        companyName: 'Sample A',
        version: 'v1',
      },
    ]);
  });

  it('stores the reports a writer rendered with its snapshots, by the same newer-screen rule as reports written alone', async () => {
    const report = (ticker: string, snapshotDate: string, screenedAt: string, text: string) => ({
      market: 'us',
      ticker,
      snapshotDate,
      screenedAt,
      companyName: `Sample ${ticker}`,
      version: 'v1',
      report: Buffer.from(text),
    });
    const of = (ticker: string, snapshotDate: string, screenedAt: string) => ({ market: 'us', ticker, snapshotDate, screenedAt });
    const nightly = grouped([
      snapshot('AAA', '2024-06-30', '2024-06-30T02:00:00.000'),
      snapshot('BBB', '2024-06-30', '2024-06-30T02:00:00.000'),
    ]);
    await store.write(nightly.snapshots, undefined, nightly.blocks, [
      report('AAA', '2024-06-30', '2024-06-30T02:00:00.000', 'AAA june'),
      // Two of one ticker in one write (PostgreSQL refuses one statement that upserts a key twice): the newer screen's stays.
      report('BBB', '2024-06-30', '2024-06-30T02:00:00.000', 'BBB june'),
      report('BBB', '2024-03-31', '2024-03-31T02:00:00.000', 'BBB march'),
    ]);
    expect((await store.report(of('AAA', '2024-06-30', '2024-06-30T02:00:00.000')))?.report.toString()).toBe('AAA june');
    expect((await store.report(of('BBB', '2024-06-30', '2024-06-30T02:00:00.000')))?.report.toString()).toBe('BBB june');
    // A later write of an older screen (a late chunk of an earlier run) leaves the newer report.
    const older = grouped([snapshot('AAA', '2024-03-31', '2024-03-31T02:00:00.000')]);
    await store.write(older.snapshots, undefined, older.blocks, [report('AAA', '2024-03-31', '2024-03-31T02:00:00.000', 'AAA march')]);
    expect((await store.report(of('AAA', '2024-06-30', '2024-06-30T02:00:00.000')))?.report.toString()).toBe('AAA june');
    // A report the store refuses (no bytes) fails the write: its snapshots are not written either, one transaction.
    const ccc = grouped([snapshot('CCC', '2024-06-30', '2024-06-30T02:00:00.000')]);
    const refused = { ...report('CCC', '2024-06-30', '2024-06-30T02:00:00.000', ''), report: null as unknown as Buffer };
    await expect(store.write(ccc.snapshots, undefined, ccc.blocks, [refused])).rejects.toThrow();
    expect(await store.current('us', 'CCC')).toBeUndefined();
  });

  it('reads what stored reports are of from an index, not from the report rows', async () => {
    // SQLite: the plan of the stamp query; PostgreSQL (whose planner scans a table this small): the index it would use.
    const evidence = sqlite
      ? await storeRows(`EXPLAIN QUERY PLAN ${SELECT_REPORT_STAMP_SQLITE.replace(/\?/g, "'x'")}`)
      : await storeRows(`SELECT indexdef AS detail FROM pg_indexes WHERE indexname = 'serving_reports_stamps'`);
    expect(evidence.map((row) => String(row.detail)).join('\n')).toMatch(
      sqlite
        ? /^SEARCH serving_reports USING COVERING INDEX serving_reports_stamps/
        : /ON public\.serving_reports USING btree \(market, ticker, snapshot_date, screened_at, company_name, version\)/,
    );
  });

  it('reads each result of a block back, keeps the block for the rows a re-screen leaves, and drops it with its year', async () => {
    const months = ['2020-01-31', '2020-02-29', '2020-03-31', '2021-01-31', '2021-02-28'];
    const backfill = grouped([
      ...months.map((day) => snapshot('AAA', day, '2026-01-01T00:00:00.000')),
      ...months.map((day) => snapshot('BBB', day, '2026-01-01T00:00:00.000')),
      snapshot('CCC', '2020-01-31', '2026-01-01T00:00:00.000'),
    ]);
    // One block per ticker and year; a ticker with one day has its result alone.
    expect(backfill.blocks.map((b) => `${b.ticker} ${b.year}`)).toEqual(['AAA 2020', 'AAA 2021', 'BBB 2020', 'BBB 2021']);
    await store.write(backfill.snapshots, undefined, backfill.blocks);
    const keys = [
      ...months.map((day) => ({ market: 'us', ticker: 'AAA', snapshotDate: day })),
      { market: 'us', ticker: 'CCC', snapshotDate: '2020-01-31' },
    ];
    const results = await store.results(keys);
    expect(results.map((r) => JSON.parse(r!.toString('utf8')).snapshotDate)).toEqual([...months, '2020-01-31']);
    expect(results.every((r, i) => JSON.parse(r!.toString('utf8')).ticker === keys[i]!.ticker)).toBe(true);

    // A newer screen of one day replaces that row alone; the block still serves the others.
    await store.write([snapshot('AAA', '2020-02-29', '2026-02-01T00:00:00.000', 'non_compliant')]);
    const after = await store.results(keys.slice(0, 3));
    expect(after.map((r) => JSON.parse(r!.toString('utf8')).screenedAt)).toEqual([
      '2026-01-01T00:00:00.000',
      '2026-02-01T00:00:00.000',
      '2026-01-01T00:00:00.000',
    ]);
    expect(await blockCount()).toBe(4);

    // Forgetting 2020 takes its blocks; 2021's stay and still serve.
    await store.forgetSnapshots('us', '2020-01-01', '2020-12-31');
    expect(await blockCount()).toBe(2);
    const left = await store.results([{ market: 'us', ticker: 'BBB', snapshotDate: '2021-02-28' }, keys[0]!]);
    expect(JSON.parse(left[0]!.toString('utf8')).snapshotDate).toBe('2021-02-28');
    expect(left[1]).toBeNull();
  });

  it('refuses a status it cannot store instead of storing a wrong one', async () => {
    const bad = snapshot('AAA', '2020-01-31', '2020-02-01T01:00:00.000');
    (bad.statuses as Record<string, string>).shariah_aaoifi = 'maybe';
    await expect(store.write([bad])).rejects.toThrow();
    expect(await store.current('us', 'AAA')).toBeUndefined();
  });
});
