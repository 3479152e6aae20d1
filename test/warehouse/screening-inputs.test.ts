import { cp, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenCompany } from '../../engine/index.ts';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { ingestSource } from '../../sources/ingest.ts';
import { readTableSql } from '../../warehouse/lake-sql.ts';
import { lakeRoot } from '../../warehouse/lake-paths.ts';
import { loadScreeningInputs, loadScreeningInputsForDates } from '../../warehouse/screening-inputs.ts';
import { inlineSql } from '../../warehouse/sql.ts';
import { cadenceDates } from '../../workflows/cadence.ts';
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

  it('when the prices stop months before the date, then the inputs name the missing month-ends and DJIM and S&P cannot use their averages', async () => {
    // QZXA's last close is 2026-09-30, 227 days before 2027-05-15: 2026-10 … 2027-04 have no month-end.
    const [input] = await load('2027-05-15', ['QZXA']);
    expect(input!.marketCap).toMatchObject({ spotPriceDate: '2026-09-30', months24: 3, months36: 3 });
    expect(input!.marketCap.missingMonths).toEqual(['2026-10', '2026-11', '2026-12', '2027-01', '2027-02', '2027-03', '2027-04']);
    const result = screenCompany(input!);
    for (const id of ['shariah_djim', 'shariah_sp'] as const) {
      const debt = result.frameworks[id]!.reasons.find(
        (r) => r.code === (id === 'shariah_sp' ? 'shariah_sp.leverage' : 'shariah_djim.interest_bearing_debt'),
      );
      expect(debt, id).toMatchObject({ result: 'insufficient_data' });
      expect(debt!.message).toContain('no month-end price for 2026-10 to 2027-04');
    }
    // Loaded with another date, the same (listing, date) gets the same months: point in time.
    const both = await withDuckDB(':memory:', {}, (c) =>
      loadScreeningInputsForDates(c, temp.dir, { market: 'us', tickers: ['QZXA'], dates: ['2026-10-01', '2027-05-15'] }),
    );
    expect(both.find((i) => i.screeningDate === '2027-05-15')).toEqual(input);
    expect(both.find((i) => i.screeningDate === '2026-10-01')!.marketCap).not.toHaveProperty('missingMonths');
  });

  it('when nothing is filed yet, then fundamentals are null and exposures empty', async () => {
    const [input] = await load('2025-01-01', ['QZXB']);
    expect(input!.fundamentals).toBeNull();
    expect(input!.marketCap.spot).toBeNull();
  });

  it('when several dates are loaded at once, then each date takes the filing filed by then and a date before any filing has none', async () => {
    const inputs = await withDuckDB(':memory:', {}, (c) =>
      loadScreeningInputsForDates(c, temp.dir, {
        market: 'us',
        tickers: ['QZXA', 'QZXB'],
        dates: ['2025-01-01', '2026-08-04', '2026-08-05', '2026-10-01'],
      }),
    );
    const on = (ticker: string, date: string) => inputs.find((i) => i.listing.ticker === ticker && i.screeningDate === date)!;
    expect(on('QZXA', '2026-08-04').fundamentals).toMatchObject({ periodEnd: '2025-12-31', totalDebt: 250_000_000 });
    expect(on('QZXA', '2026-08-05').fundamentals).toMatchObject({ periodEnd: '2026-06-30', totalDebt: 400_000_000 });
    expect(on('QZXA', '2026-10-01').fundamentals).toEqual(on('QZXA', '2026-08-05').fundamentals);
    expect(on('QZXB', '2025-01-01').fundamentals).toBeNull();
    expect(on('QZXB', '2025-01-01').marketCap.spot).toBeNull();
    for (const date of ['2026-08-04', '2026-10-01']) expect(on('QZXA', date)).toEqual((await load(date, ['QZXA']))[0]);
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

describe('loadScreeningInputsForDates: exposure reports over several dates', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeAll(async () => {
    temp = await makeTempDir();
    const folder = path.join(temp.dir, 'delivery');
    await cp(path.resolve('test/fixtures/feed/good'), folder, { recursive: true });
    await writeFile(
      path.join(folder, 'exposures.csv'),
      [
        'market,ticker,as_of,activity,revenue_share,source_ref',
        'us,QZXA,2026-03-31,alcohol,0.048,vendor:QZXA:seg-2025',
        'us,QZXA,2026-03-31,pork,0.021,vendor:QZXA:seg-2025',
        'us,QZXA,2026-09-30,alcohol,0.061,vendor:QZXA:seg-2026',
        'us,QZXB,2026-03-31,none,0,vendor:QZXB:review-2025',
      ].join('\n') + '\n',
    );
    await ingestSource({ dataDir: temp.dir, source: 'feed', path: folder });
  });
  afterAll(() => temp.cleanup());

  it('when a report is restated, then each date takes the latest report per activity known that day, and a review without activities only dates it', async () => {
    const inputs = await withDuckDB(':memory:', {}, (c) =>
      loadScreeningInputsForDates(c, temp.dir, {
        market: 'us',
        tickers: ['QZXA', 'QZXB'],
        dates: ['2026-03-30', '2026-06-30', '2026-10-01'],
      }),
    );
    const on = (ticker: string, date: string) => inputs.find((i) => i.listing.ticker === ticker && i.screeningDate === date)!;
    const shares = (ticker: string, date: string) => on(ticker, date).exposures.map((e) => [e.activity, e.revenueShare, e.asOf]);
    expect(shares('QZXA', '2026-03-30')).toEqual([]);
    expect(shares('QZXA', '2026-06-30')).toEqual([
      ['alcohol', 0.048, '2026-03-31'],
      ['pork', 0.021, '2026-03-31'],
    ]);
    expect(shares('QZXA', '2026-10-01')).toEqual([
      ['alcohol', 0.061, '2026-09-30'],
      ['pork', 0.021, '2026-03-31'],
    ]);
    expect(on('QZXA', '2026-10-01').activitiesReviewedOn).toBeNull();
    expect(on('QZXB', '2026-03-30').activitiesReviewedOn).toBeNull();
    expect(on('QZXB', '2026-06-30').activitiesReviewedOn).toBe('2026-03-31');
    expect(on('QZXB', '2026-06-30').exposures).toEqual([]);
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

  /**
   * The trailing averages as one SQL query over the lake computes them: each (listing, date)
   * joined to the month-end caps of its window, `avg(cap ORDER BY month)`. The loader computes
   * them in JavaScript from each listing's caps (docs/pipelines.md); this is the reference.
   */
  async function averagesInSql(dates: readonly string[], tickers: readonly string[]): Promise<Map<string, unknown[]>> {
    const root = lakeRoot(temp.dir);
    const table = (name: 'prices' | 'fundamentals' | 'splits'): string => inlineSql(readTableSql(root, name, 'us'));
    const query = `WITH
      m AS (SELECT market, ticker, date_trunc('month', date)::DATE AS month, max(date) AS date, arg_max(close, date) AS close,
              arg_max(split_adjusted_through, date) AS sat FROM ${table('prices')} GROUP BY ALL),
      j AS (SELECT m.*, f.shares_outstanding, f.filed_on FROM m
              ASOF LEFT JOIN ${table('fundamentals')} f ON f.market = m.market AND f.ticker = m.ticker AND f.filed_on <= m.date),
      caps AS (SELECT market, ticker, month, date, close * shares_outstanding * coalesce((SELECT product(s.ratio ORDER BY s.ex_date)
              FROM ${table('splits')} s WHERE s.ratio > 0 AND s.market = j.market AND s.ticker = j.ticker
              AND s.ex_date > j.filed_on AND s.ex_date <= coalesce(j.sat, j.date)), 1) AS cap FROM j),
      grid AS (SELECT ticker, unnest([${dates.map((d) => `DATE '${d}'`).join(', ')}]) AS date
              FROM (SELECT unnest([${tickers.map((t) => `'${t}'`).join(', ')}]) AS ticker))
      SELECT g.ticker || ' ' || strftime(g.date, '%Y-%m-%d') AS key,
        avg(c.cap ORDER BY c.month) FILTER (WHERE c.month > date_trunc('month', g.date) - INTERVAL 24 MONTH) AS avg24m,
        avg(c.cap ORDER BY c.month) AS avg36m,
        count(c.cap) FILTER (WHERE c.month > date_trunc('month', g.date) - INTERVAL 24 MONTH)::INTEGER AS months24,
        count(c.cap)::INTEGER AS months36
      FROM grid g JOIN caps c ON c.ticker = g.ticker AND c.month > date_trunc('month', g.date) - INTERVAL 36 MONTH AND c.date <= g.date
      GROUP BY ALL`;
    const rows = await withDuckDB(':memory:', { threads: 1 }, async (c) => (await c.runAndReadAll(query)).getRows());
    return new Map(rows.map(([key, ...averages]) => [String(key), averages]));
  }

  it('when a month-end backfill is loaded, then every average is bit for bit what one SQL query over the lake gives', async () => {
    const dates = cadenceDates('2009-01-01', '2026-11-20', 'month-end');
    const inputs = await withDuckDB(':memory:', { threads: 1 }, (c) =>
      loadScreeningInputsForDates(c, temp.dir, { market: 'us', dates, kind: 'stock', limit: 60 }),
    );
    const reference = await averagesInSql(dates, [...new Set(inputs.map((i) => i.listing.ticker))]);
    const differing = inputs.filter((input) => {
      const [avg24m = null, avg36m = null, months24 = 0, months36 = 0] =
        reference.get(`${input.listing.ticker} ${input.screeningDate}`) ?? [];
      const { marketCap } = input;
      return !(
        Object.is(marketCap.avg24m, avg24m) &&
        Object.is(marketCap.avg36m, avg36m) &&
        marketCap.months24 === months24 &&
        marketCap.months36 === months36
      );
    });
    expect(inputs.length).toBeGreaterThan(5_000);
    expect(inputs.filter((i) => i.marketCap.months36 === 36).length).toBeGreaterThan(1_000);
    expect(inputs.filter((i) => i.marketCap.avg36m === null).length).toBeGreaterThan(0);
    expect(differing.map((i) => `${i.listing.ticker} ${i.screeningDate}`)).toEqual([]);
  });
});
