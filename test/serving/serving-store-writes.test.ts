import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FRAMEWORK_IDS } from '../../engine/frameworks.ts';
import type { VerdictStatus } from '../../engine/result-types.ts';
import { openServingStore, type ServingTarget } from '../../serving/open-serving-store.ts';
import type { ServingSnapshot, ServingStore } from '../../serving/serving-types.ts';
import { servingRow } from '../support/serving-rows.ts';
import { testServiceState } from '../support/service-state.ts';
import { makeTempDir } from '../support/temp-dir.ts';

/** A snapshot whose result is about as large as a real one (about 600 bytes of JSON). */
function snapshot(ticker: string, snapshotDate: string, screenedAt: string, status: VerdictStatus = 'compliant'): ServingSnapshot {
  const checks = FRAMEWORK_IDS.map((id) => ({ id, status, margin: ticker.length / 13 }));
  return {
    ...servingRow(ticker, snapshotDate, screenedAt, status, { ratioDivisor: 7, synthetic: false, dataSource: 'sec-companyfacts' }),
    result: Buffer.from(JSON.stringify({ ticker, snapshotDate, screenedAt, checks })),
  };
}

const MONTH_ENDS = ['2020-01-31', '2020-02-29', '2020-03-31', '2020-04-30', '2020-05-31', '2020-06-30', '2020-07-31', '2020-08-31'];

describe('serving store writes (on the engine under test)', () => {
  let target: ServingTarget;
  let stores: ServingStore[];
  let cleanup: () => Promise<void>;
  const open = async () => {
    const store = await openServingStore(target);
    stores.push(store);
    return store;
  };

  beforeEach(async () => {
    const temp = await makeTempDir();
    cleanup = temp.cleanup;
    target = await testServiceState(temp.dir);
    stores = [];
  });
  afterEach(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await cleanup();
  });

  it('when one batch holds two screens of the same day, then the later screen is stored and the batch is not refused', async () => {
    const store = await open();
    await store.write([
      snapshot('AAA', '2020-03-31', '2020-04-01T02:00:00.000', 'non_compliant'),
      snapshot('AAA', '2020-03-31', '2020-04-01T03:00:00.000', 'questionable'),
      snapshot('AAA', '2020-03-31', '2020-04-01T01:00:00.000', 'compliant'),
      snapshot('AAA', '2020-01-31', '2020-02-01T01:00:00.000'),
    ]);
    expect((await store.history('us', 'AAA')).map((r) => [r.snapshotDate, r.statuses.shariah_aaoifi])).toEqual([
      ['2020-01-31', 'compliant'],
      ['2020-03-31', 'questionable'],
    ]);
    expect((await store.current('us', 'AAA'))?.screenedAt).toBe('2020-04-01T03:00:00.000');
    const [result] = await store.results([{ market: 'us', ticker: 'AAA', snapshotDate: '2020-03-31' }]);
    expect(JSON.parse(result!.toString('utf8')).screenedAt).toBe('2020-04-01T03:00:00.000');
    // An older screen of the day in a later batch does not replace it.
    await store.write([snapshot('AAA', '2020-03-31', '2020-04-01T02:30:00.000', 'non_compliant')]);
    expect((await store.onDay('us', 'AAA', '2020-03-31'))?.statuses.shariah_aaoifi).toBe('questionable');
  });

  it('when a batch writes 5,000 rows, then every row, day and current verdict reads back', async () => {
    const store = await open();
    const tickers = Array.from({ length: 625 }, (_, i) => `T${String(i).padStart(4, '0')}`);
    const batch = tickers.flatMap((t) => MONTH_ENDS.map((d) => snapshot(t, d, `${d}T23:00:00.000`)));
    expect(batch).toHaveLength(5_000);
    await store.write(batch.reverse(), { path: 'snapshots/2020.parquet', signature: '1:1' });
    expect(await store.history('us', 'T0311')).toHaveLength(MONTH_ENDS.length);
    expect((await store.current('us', 'T0624'))?.snapshotDate).toBe('2020-08-31');
    expect((await store.asOf('us', 'T0000', '2019-12-31')).firstSnapshotDate).toBe('2020-01-31');
    const day = await store.marketOn('us', '2020-05-31');
    expect(day.map((r) => r.ticker)).toEqual(tickers);
    expect(day[0]!.ratios.cash_to_market_cap).toBeCloseTo(1 / 7, 12);
    const keys = [tickers[5]!, 'NONE', tickers[600]!].map((ticker) => ({ market: 'us', ticker, snapshotDate: '2020-02-29' }));
    const results = await store.results(keys);
    expect(results.map((r) => (r === null ? null : JSON.parse(r.toString('utf8')).ticker))).toEqual([tickers[5], null, tickers[600]]);
    expect(await store.heldFiles()).toEqual(new Map([['snapshots/2020.parquet', '1:1']]));
  });

  it('when two writers upsert the same tickers at once in opposite orders, then both commit and the newer screen stays', async () => {
    const first = await open();
    const second = await open();
    const tickers = Array.from({ length: 300 }, (_, i) => `W${String(i).padStart(3, '0')}`);
    const early = tickers.map((t) => snapshot(t, '2020-06-30', '2020-07-01T01:00:00.000', 'non_compliant'));
    const late = tickers.map((t) => snapshot(t, '2020-06-30', '2020-07-01T02:00:00.000', 'compliant')).reverse();
    const older = tickers.map((t) => snapshot(t, '2020-05-31', '2020-06-01T01:00:00.000'));
    await Promise.all([first.write([...early, ...older]), second.write(late), first.write(late), second.write(early)]);
    const day = await first.marketOn('us', '2020-06-30');
    expect(day.map((r) => r.statuses.shariah_aaoifi)).toEqual(tickers.map(() => 'compliant'));
    expect((await second.current('us', 'W150'))?.screenedAt).toBe('2020-07-01T02:00:00.000');
    expect((await second.asOf('us', 'W150', '2020-06-15')).row?.snapshotDate).toBe('2020-05-31');
  });

  it('when two processes open the same empty store at once, then both open and read what the other wrote', async () => {
    const [a, b, c] = await Promise.all([open(), open(), open()]);
    await a!.write([snapshot('AAA', '2020-01-31', '2020-02-01T01:00:00.000')]);
    await b!.setMeta('rebuilt', '2020-01-31');
    expect((await b!.current('us', 'AAA'))?.snapshotDate).toBe('2020-01-31');
    expect(await c!.meta('rebuilt')).toBe('2020-01-31');
    // A later start finds the schema in place and applies nothing twice.
    const d = await open();
    expect((await d.history('us', 'AAA')).map((r) => r.snapshotDate)).toEqual(['2020-01-31']);
  });
});
