/**
 * A backfill chunk screens each company's month ends with reuse (engine/screen-series.ts) and
 * stores each compact result with cached framework parts; on the synthetic sample lake every
 * stored row must equal the row a screen from scratch gives.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLakePipelineData } from '../../activities/lake-pipeline-data.ts';
import { backfillSnapshotRow, compactResult, snapshotRowFrom } from '../../activities/snapshot-rows.ts';
import { screenCompany, type ScreeningInput } from '../../engine/index.ts';
import { SeriesScreener } from '../../engine/screen-series.ts';
import { ingestSource } from '../../sources/ingest.ts';
import { cadenceDates } from '../../workflows/cadence.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const TODAY = '2026-11-21';
const META = { source: 'backfill' as const, runId: 'reuse-test', screenedAt: '2026-11-22T02:00:00.000' };

let temp: { dir: string; cleanup: () => Promise<void> };
let inputs: ScreeningInput[];

beforeAll(async () => {
  temp = await makeTempDir('faithscreen-backfill-reuse-');
  await ingestSource({ dataDir: temp.dir, source: 'sample', scale: 0.002, asOf: TODAY, concurrency: 1 });
  const data = createLakePipelineData(temp.dir, { threads: 1 });
  const loaded = await data.loadInputs({ index: 0, market: 'us', offset: 0, limit: 40 }, cadenceDates('2009-01-01', TODAY, 'month-end'));
  inputs = loaded.flatMap((item) => (item.ok ? [item.input] : []));
}, 120_000);

afterAll(() => temp.cleanup());

/** The company delisted: from `from` on, the last close stays and month-end caps leave the trailing windows. */
function delistedFrom(series: ScreeningInput[], from: string): ScreeningInput[] {
  const at = series.findIndex((i) => i.screeningDate >= from);
  return series.map((input, i) => {
    if (i < at) return input;
    const gone = i - at + 1;
    const { marketCap } = series[at - 1]!;
    const months24 = Math.max(0, marketCap.months24 - gone);
    const months36 = Math.max(0, marketCap.months36 - gone);
    return {
      ...input,
      marketCap: {
        ...marketCap,
        months24,
        months36,
        avg24m: months24 === 0 ? null : marketCap.avg24m,
        avg36m: months36 === 0 ? null : marketCap.avg36m,
      },
    };
  });
}

describe('backfill rows with reuse across dates, on the sample lake', () => {
  it('when a chunk of companies is screened over every month end since 2009, then each row equals a from-scratch row', () => {
    const tickers = [...new Set(inputs.map((i) => i.listing.ticker))];
    expect(tickers.length).toBeGreaterThan(20);
    // New filings land between month ends, and filings of some companies start after 2009.
    const filingChanges = inputs.filter(
      (input, i) =>
        i > 0 &&
        inputs[i - 1]!.listing.ticker === input.listing.ticker &&
        inputs[i - 1]!.fundamentals?.sourceRef !== input.fundamentals?.sourceRef,
    );
    expect(filingChanges.length).toBeGreaterThan(tickers.length * 10);
    // One company delisted in 2020, one month of another without a price.
    const first = inputs.filter((i) => i.listing.ticker === tickers[0]);
    const second = inputs.filter((i) => i.listing.ticker === tickers[1]);
    const gap = Math.floor(second.length / 2);
    second[gap] = { ...second[gap]!, marketCap: { spot: null, spotPriceDate: null, avg24m: null, avg36m: null, months24: 0, months36: 0 } };
    const series = [
      ...delistedFrom(first, '2020-01-31'),
      ...second,
      ...inputs.filter((i) => i.listing.ticker !== tickers[0] && i.listing.ticker !== tickers[1]),
    ];

    const screener = new SeriesScreener();
    const mismatches: string[] = [];
    for (const input of series) {
      const reused = backfillSnapshotRow(input, screener.screen(input), META);
      const fresh = snapshotRowFrom(input, compactResult(screenCompany(input)), META);
      if (JSON.stringify(reused) !== JSON.stringify(fresh)) mismatches.push(`${input.listing.ticker} ${input.screeningDate}`);
    }
    expect(mismatches).toStrictEqual([]);
    expect(screener.reused).toBeGreaterThan(series.length * 4);

    // Fail closed: no Shariah framework on market cap is compliant without a price or long after the delisting.
    const noPrice = screenCompany(second[gap]!);
    expect([noPrice.frameworks.shariah_aaoifi!.status, noPrice.frameworks.shariah_djim!.status]).toStrictEqual([
      'insufficient_data',
      'insufficient_data',
    ]);
    const delisted = delistedFrom(first, '2020-01-31').filter((i) => i.screeningDate > '2022-06-30');
    expect(delisted.length).toBeGreaterThan(0);
    expect(delisted.map((i) => screenCompany(i).frameworks.shariah_djim!.status).filter((s) => s === 'compliant')).toStrictEqual([]);
  });
});
