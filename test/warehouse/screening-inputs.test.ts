import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { ingestSource } from '../../sources/ingest.ts';
import { loadScreeningInputs, loadScreeningInputsForDates } from '../../warehouse/screening-inputs.ts';
import { makeTempDir } from '../support/temp-dir.ts';

describe('loadScreeningInputs', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeAll(async () => {
    temp = await makeTempDir();
    await ingestSource({ dataDir: temp.dir, source: 'feed', path: path.resolve('test/fixtures/feed/good') });
    await ingestSource({ dataDir: temp.dir, source: 'sample', scale: 0.01, seed: 5, asOf: '2026-11-21', markets: ['qa'] });
  });
  afterAll(() => temp.cleanup());
  const load = (date: string, tickers: string[]) =>
    withDuckDB(':memory:', {}, (c) => loadScreeningInputs(c, temp.dir, { date, market: 'us', tickers }));

  it('when a filing is not yet filed on the date, then the earlier filing is used (point in time)', async () => {
    const [before] = await load('2026-08-04', ['QZXA']);
    const [after] = await load('2026-08-05', ['QZXA']);
    expect(before!.fundamentals).toMatchObject({ periodEnd: '2025-12-31', totalDebt: 250_000_000 });
    expect(after!.fundamentals).toMatchObject({ periodEnd: '2026-06-30', totalDebt: 400_000_000 });
  });

  it('when month-end closes exist, then spot = latest close × shares and the averages count their months', async () => {
    const [input] = await load('2026-10-01', ['QZXA']);
    expect(input!.marketCap).toEqual({
      spot: 1_975_000_000,
      spotPriceDate: '2026-09-30',
      avg24m: 6_125_000_000 / 3,
      avg36m: 6_125_000_000 / 3,
      months24: 3,
      months36: 3,
    });
    expect(input!.exposures.map((e) => [e.activity, e.revenueShare])).toEqual([
      ['alcohol', 0.048],
      ['pork', 0.021],
    ]);
  });

  it('when nothing is filed yet, then fundamentals are null and exposures empty', async () => {
    const [input] = await load('2025-01-01', ['QZXB']);
    expect(input!.fundamentals).toBeNull();
    expect(input!.marketCap.spot).toBeNull();
  });

  it('when a sample market is loaded for many dates, then each listing has one input per date since it listed, with 24 and 36 months of history', async () => {
    const inputs = await withDuckDB(':memory:', {}, (c) =>
      loadScreeningInputsForDates(c, temp.dir, { market: 'qa', dates: ['2015-12-31', '2026-11-21'], offset: 0, limit: 3 }),
    );
    expect(inputs.every((i) => i.synthetic && i.dataSource.includes('synthetic'))).toBe(true);
    const latest = inputs.filter((i) => i.screeningDate === '2026-11-21');
    expect(latest).toHaveLength(3);
    for (const i of latest) {
      expect(i.marketCap.months24).toBeLessThanOrEqual(24);
      expect(i.marketCap.months36).toBeLessThanOrEqual(36);
      expect(i.fundamentals === null || i.fundamentals.filedOn <= '2026-11-21').toBe(true);
    }
    const old = await withDuckDB(':memory:', {}, (c) => loadScreeningInputs(c, temp.dir, { date: '2020-06-30', market: 'qa' }));
    expect(old.some((i) => i.marketCap.months24 === 24 && i.marketCap.months36 === 36)).toBe(true);
  });
});

describe('loadScreeningInputs: the same lake gives the same inputs', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeAll(async () => {
    temp = await makeTempDir();
    await ingestSource({ dataDir: temp.dir, source: 'sample', scale: 0.02, asOf: '2026-11-20', markets: ['us'], concurrency: 2 });
  }, 120_000);
  afterAll(() => temp.cleanup());

  it('when inputs are loaded with one DuckDB thread and with four, then every market-cap average is bit for bit the same', async () => {
    // A parallel sum of doubles depends on the order its parts are added; the averages add months in date order.
    const dates = ['2020-12-31', '2021-12-31', '2022-12-31', '2023-12-31', '2024-12-31', '2025-12-31', '2026-11-20'];
    const caps = async (threads: number) => {
      const inputs = await withDuckDB(':memory:', { threads }, (c) =>
        loadScreeningInputsForDates(c, temp.dir, { market: 'us', dates, kind: 'stock' }),
      );
      return new Map(inputs.map((input) => [`${input.listing.ticker} ${input.screeningDate}`, input.marketCap]));
    };
    const single = await caps(1);
    expect(single.size).toBeGreaterThan(3_000);
    for (const run of [await caps(4), await caps(4)]) {
      const differing = [...single].filter(([key, cap]) => JSON.stringify(run.get(key)) !== JSON.stringify(cap)).map(([key]) => key);
      expect(differing).toEqual([]);
    }
  });
});
