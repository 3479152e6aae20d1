import { describe, expect, it } from 'vitest';
import { SNAPSHOT_RATIOS } from '../../common/snapshot-ratios.ts';
import { FRAMEWORK_IDS } from '../../engine/frameworks.ts';
import { newestPerDay, openPostgresServingStore, unnestUpsert } from '../../serving/postgres-serving-store.ts';
import { INSERT_SNAPSHOT, UPSERT_CURRENT } from '../../serving/serving-sql.ts';
import type { ServingSnapshot } from '../../serving/serving-types.ts';
import { freePort } from '../support/http.ts';

function snapshot(ticker: string, snapshotDate: string, screenedAt: string, dataSource = 'a'): ServingSnapshot {
  return {
    market: 'us',
    ticker,
    snapshotDate,
    screenedAt,
    source: 'nightly',
    statuses: Object.fromEntries(FRAMEWORK_IDS.map((id) => [id, 'compliant'])) as ServingSnapshot['statuses'],
    ratios: Object.fromEntries(SNAPSHOT_RATIOS.map((r) => [r, null])) as ServingSnapshot['ratios'],
    synthetic: false,
    dataSource,
    result: Buffer.from('{}'),
  };
}

describe('PostgreSQL serving store: bulk upserts', () => {
  it('turns the shared one-row upsert into one unnest of typed arrays and keeps its conflict rule', () => {
    const width = INSERT_SNAPSHOT.split('?').length - 1;
    const bulk = unnestUpsert(INSERT_SNAPSHOT, [...Array.from({ length: width - 1 }, () => 'text[]'), 'bytea[]']);
    expect(bulk).toContain('SELECT * FROM unnest($1::text[], $2::text[]');
    expect(bulk).toContain(`$${width}::bytea[])`);
    expect(bulk).not.toContain('?');
    expect(bulk).not.toContain('VALUES');
    expect(bulk).toContain('WHERE excluded.screened_at >= serving_snapshots.screened_at');
    const currentWidth = UPSERT_CURRENT.split('?').length - 1;
    const currentTypes = ['text[]', 'text[]', 'text[]', 'text[]', 'text[]', 'int8[]'];
    const bulkCurrent = unnestUpsert(UPSERT_CURRENT, [...currentTypes, ...Array.from({ length: currentWidth - 6 }, () => 'text[]')]);
    expect(bulkCurrent).toContain(
      'SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int8[], $7::text[]',
    );
    expect(bulkCurrent).toContain(`$${currentWidth}::text[])`);
  });

  it('refuses to build a bulk upsert whose array types do not match the placeholders', () => {
    expect(() => unnestUpsert(UPSERT_CURRENT, ['text[]', 'text[]'])).toThrow(/cannot make a bulk upsert/);
    expect(() => unnestUpsert('DELETE FROM serving_files WHERE path = ?', ['text[]'])).toThrow(/cannot make a bulk upsert/);
  });

  it('keeps one row per (market, ticker, day) of a batch: the later screen, or the later of two equal screens, in key order', () => {
    const rows = newestPerDay([
      snapshot('BBB', '2020-01-31', '2020-02-01T01:00:00.000'),
      snapshot('AAA', '2020-02-29', '2020-03-01T02:00:00.000', 'kept'),
      snapshot('AAA', '2020-02-29', '2020-03-01T01:00:00.000'),
      snapshot('AAA', '2020-01-31', '2020-02-01T01:00:00.000', 'first'),
      snapshot('AAA', '2020-01-31', '2020-02-01T01:00:00.000', 'retry'),
      snapshot('AA', '2020-03-31', '2020-04-01T01:00:00.000'),
    ]);
    expect(rows.map((r) => `${r.ticker} ${r.snapshotDate} ${r.dataSource}`)).toEqual([
      'AA 2020-03-31 a',
      'AAA 2020-01-31 retry',
      'AAA 2020-02-29 kept',
      'BBB 2020-01-31 a',
    ]);
  });

  it('when the server cannot be reached, then opening fails naming where, without the password', async () => {
    const port = await freePort();
    const error = await openPostgresServingStore(`postgresql://faithscreen:s3cret-pw@127.0.0.1:${port}/serving`).catch((e: Error) => e);
    expect((error as Error).message).toContain(
      `the serving store at postgresql://faithscreen:***@127.0.0.1:${port}/serving could not be opened`,
    );
    expect((error as Error).message).not.toContain('s3cret-pw');
  });
});
