import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateCatalog } from '../../warehouse/catalog.ts';
import { compactSnapshots } from '../../warehouse/compaction.ts';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { catalogPath, lakeRoot } from '../../warehouse/lake-paths.ts';
import { listPublishedSnapshotKeys } from '../../warehouse/lake-queries.ts';
import { writeSnapshots } from '../../warehouse/snapshot-writer.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { snapshotRow } from './small-warehouse.ts';
import { readSql, sql } from '../../warehouse/sql.ts';

describe('snapshots and verdict views', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    temp = await makeTempDir();
    await migrateCatalog(temp.dir);
  });
  afterEach(() => temp.cleanup());
  const query = (sql: string) =>
    withDuckDB(catalogPath(temp.dir), { readOnly: true }, async (c) => (await c.runAndReadAll(sql)).getRowObjectsJS());

  it('when nothing is published yet, then every view answers with zero rows', async () => {
    for (const view of [
      'universe',
      'fundamentals',
      'prices',
      'exposures',
      'fund_holdings',
      'snapshots',
      'current_verdicts',
      'verdict_changes',
    ]) {
      expect(await query(`SELECT count(*)::INTEGER AS n FROM ${view}`)).toEqual([{ n: 0 }]);
    }
  });

  it('when rows span years, then one file per (market, year) is published and a retry replaces it', async () => {
    const rows = [
      snapshotRow('us', 'QZAA', '2025-12-31', '2026-01-01T02:00:00', 'compliant'),
      snapshotRow('us', 'QZAA', '2026-11-20', '2026-11-20T02:00:00', 'compliant'),
    ];
    const first = await writeSnapshots(temp.dir, rows, { fileStem: 'nightly-r1-c0' });
    expect(first.files).toEqual([
      'lake/snapshots/market=us/year=2025/nightly-r1-c0.parquet',
      'lake/snapshots/market=us/year=2026/nightly-r1-c0.parquet',
    ]);
    await writeSnapshots(temp.dir, rows, { fileStem: 'nightly-r1-c0' });
    expect(await query('SELECT count(*)::INTEGER AS n FROM snapshots')).toEqual([{ n: 2 }]);
    expect(await query(`SELECT era FROM snapshots ORDER BY snapshot_date`)).toEqual([{ era: 'legacy' }, { era: 'current' }]);
  });

  it('when rows arrive out of order, then each file holds them by ticker, date and screen time (what row-group pruning relies on)', async () => {
    const rows = [
      snapshotRow('us', 'QZZB', '2026-11-20', '2026-11-20T02:00:00', 'compliant'),
      snapshotRow('us', 'QZAB', '2026-11-20', '2026-11-20T15:00:00', 'compliant'),
      snapshotRow('us', 'QZZA', '2026-11-20', '2026-11-20T02:00:00', 'compliant'),
      snapshotRow('us', 'QZAB', '2026-11-20', '2026-11-20T02:00:00', 'compliant'),
      snapshotRow('us', 'QZAB', '2026-06-30', '2026-07-01T02:00:00', 'compliant'),
    ];
    const written = await writeSnapshots(temp.dir, rows, { fileStem: 'unordered' });
    const file = path.join(temp.dir, written.files[0]!);
    const inFile = await withDuckDB(':memory:', {}, async (c) =>
      (
        await readSql(c, sql`SELECT ticker, snapshot_date::VARCHAR AS d, strftime(screened_at, '%H') AS h FROM read_parquet(${file})`)
      ).getRowObjectsJS(),
    );
    expect(inFile.map((r) => `${String(r.ticker)} ${String(r.d)} ${String(r.h)}`)).toEqual([
      'QZAB 2026-06-30 02',
      'QZAB 2026-11-20 02',
      'QZAB 2026-11-20 15',
      'QZZA 2026-11-20 02',
      'QZZB 2026-11-20 02',
    ]);
  });

  it('when a researcher holds the catalog open, then newly published snapshots show without reopening', async () => {
    await withDuckDB(catalogPath(temp.dir), { readOnly: true }, async (c) => {
      const count = async () => (await c.runAndReadAll('SELECT count(*)::INTEGER AS n FROM snapshots')).getRowObjectsJS()[0]!.n;
      expect(await count()).toBe(0);
      await writeSnapshots(temp.dir, [snapshotRow('gb', 'QZBB', '2026-11-20', '2026-11-20T02:00:00', 'compliant')], { fileStem: 'x' });
      expect(await count()).toBe(1);
    });
  });

  it('when a ticker is re-screened the same day, then the newest screen is current, history keeps both, and changes carry dates', async () => {
    await writeSnapshots(
      temp.dir,
      [
        snapshotRow('us', 'QZCC', '2024-12-31', '2025-01-01T02:00:00', 'compliant'),
        snapshotRow('us', 'QZCC', '2025-12-31', '2026-01-01T02:00:00', 'compliant'),
        snapshotRow('us', 'QZCC', '2026-11-20', '2026-11-20T02:00:00', 'compliant'),
      ],
      { fileStem: 'a' },
    );
    await writeSnapshots(
      temp.dir,
      [snapshotRow('us', 'QZCC', '2026-11-20', '2026-11-20T15:30:00', 'non_compliant', { source: 'refresh', run_id: 'r2' })],
      { fileStem: 'b' },
    );
    expect(await query(`SELECT shariah_aaoifi_status AS s, source FROM current_verdicts WHERE ticker = 'QZCC'`)).toEqual([
      { s: 'non_compliant', source: 'refresh' },
    ]);
    expect(await query(`SELECT count(*)::INTEGER AS n FROM snapshots WHERE ticker = 'QZCC' AND snapshot_date = DATE '2026-11-20'`)).toEqual(
      [{ n: 2 }],
    );
    const changes = await query(
      `SELECT framework, from_status, to_status, previous_snapshot_date::VARCHAR AS prev, changed_on::VARCHAR AS on FROM verdict_changes ` +
        `WHERE framework = 'shariah_djim'`,
    );
    expect(changes).toEqual([
      { framework: 'shariah_djim', from_status: 'compliant', to_status: 'non_compliant', prev: '2025-12-31', on: '2026-11-20' },
    ]);
    expect(await query(`SELECT snapshot_date::VARCHAR AS d FROM verdict_as_of('us', 'QZCC', '2026-06-30')`)).toEqual([{ d: '2025-12-31' }]);
    expect(await query(`SELECT count(*)::INTEGER AS n FROM verdict_as_of('us', 'QZCC', '2020-01-01')`)).toEqual([{ n: 0 }]);
    const keys = await withDuckDB(':memory:', {}, (c) =>
      listPublishedSnapshotKeys(c, temp.dir, { market: 'us', tickers: ['QZCC'], dates: ['2025-12-31', '2023-12-31'] }),
    );
    expect([...keys]).toEqual(['QZCC|2025-12-31']);
  });

  it('when a partition has many old files, then compaction merges them into one without losing or duplicating rows, and a rerun is a no-op', async () => {
    for (let i = 0; i < 10; i += 1) {
      await writeSnapshots(
        temp.dir,
        [snapshotRow('my', `QZD${String.fromCharCode(65 + i)}`, '2026-11-20', '2026-11-20T02:00:00', 'compliant')],
        { fileStem: `nightly-r1-c${i}` },
      );
    }
    const result = await compactSnapshots(temp.dir, { minFiles: 4, minAgeMs: 0 });
    expect(result).toMatchObject({ filesAfter: 1, rows: 10 });
    const dir = path.join(lakeRoot(temp.dir), 'snapshots', 'market=my', 'year=2026');
    expect((await readdir(dir)).filter((n) => n.endsWith('.parquet'))).toHaveLength(1);
    expect(await query(`SELECT count(*)::INTEGER AS n FROM snapshots WHERE market = 'my'`)).toEqual([{ n: 10 }]);
    expect((await compactSnapshots(temp.dir, { minFiles: 4, minAgeMs: 0 })).filesAfter).toBe(1);
  });
});
