import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionPool } from '../../warehouse/api-reads/api-reads-lake.ts';
import { PointReadQueue, ReadsSaturatedError } from '../../warehouse/api-reads/api-reads-queue.ts';
import { dayNumber } from '../../engine/dates.ts';
import { buildSpreadLake, type SpreadLake } from '../api/support/spread-lake.ts';
import { makeTempDir } from '../support/temp-dir.ts';

describe('PointReadQueue over real Parquet files', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let lake: SpreadLake;
  const today = new Date().toISOString().slice(0, 10);
  const keyOf = (ticker: string) => ({ ticker, day: dayNumber(today), atMs: Date.parse(`${today}T02:00:00.000Z`) });

  beforeAll(async () => {
    temp = await makeTempDir();
    lake = await buildSpreadLake(temp.dir, { scale: 0.01, markets: ['us'], chunkSize: 5_000, date: today });
  }, 120_000);
  afterAll(() => temp?.cleanup());

  it('when many rows of one file wait, then one query answers them all, in order, null for a row the file lacks', async () => {
    const pool = await ConnectionPool.open();
    try {
      const queue = new PointReadQueue(pool);
      const file = path.join(temp.dir, lake.fileOf.get(lake.stocks[0]!.ticker)!);
      const tickers = lake.stocks.slice(0, 40).map((s) => s.ticker);
      const [first, ...rest] = await Promise.all([
        queue.readMany(file, [keyOf(tickers[0]!)]),
        ...tickers.slice(1).map((t) => queue.readMany(file, [keyOf(t), keyOf('NO-SUCH')])),
      ]);
      expect(JSON.parse(first![0]!).ticker).toBe(tickers[0]);
      rest.forEach((pair, i) => {
        expect(JSON.parse(pair[0]!).ticker).toBe(tickers[i + 1]);
        expect(pair[1]).toBeNull();
      });
      // The first read started a query at once; every later one waited and shared the second.
      expect(queue.queriesRun).toBe(2);
    } finally {
      pool.close();
    }
  });

  it('when more rows would wait than the limit, then the read is refused with ReadsSaturatedError and its retry delay', async () => {
    const pool = await ConnectionPool.open();
    try {
      const queue = new PointReadQueue(pool, { maxQueued: 3, retryAfterSeconds: 5 });
      const file = path.join(temp.dir, lake.fileOf.get(lake.stocks[0]!.ticker)!);
      const running = queue.readMany(file, [keyOf(lake.stocks[0]!.ticker)]);
      const refused = queue.readMany(
        file,
        lake.stocks.slice(1, 5).map((s) => keyOf(s.ticker)),
      );
      await expect(refused).rejects.toBeInstanceOf(ReadsSaturatedError);
      await expect(refused).rejects.toMatchObject({ retryAfterSeconds: 5 });
      expect((await running)[0]).not.toBeNull();
    } finally {
      pool.close();
    }
  });

  it('when DuckDB runs out of memory reading a row group, then the read fails with ReadsSaturatedError, not the raw error', async () => {
    const pool = await ConnectionPool.open({ memoryLimitMiB: 1 });
    try {
      const queue = new PointReadQueue(pool);
      const file = path.join(temp.dir, lake.fileOf.get(lake.stocks[0]!.ticker)!);
      await expect(queue.readMany(file, [keyOf(lake.stocks[0]!.ticker)])).rejects.toThrow(/out of memory for now/);
    } finally {
      pool.close();
    }
  });
});
