/**
 * The status timeline under a custom screen beside the built-in one, over real HTTP on the same
 * history: the synthetic US sample at every quarter end from 2009 (compact results, as a backfill
 * writes them, one file a year) and today's nightly screen. A custom timeline reads and judges the
 * stored result of every snapshot; a built-in one reads only those of its changes. Run with
 * `npx tsx bench/custom-timeline.bench.ts` (`CUSTOM_TIMELINE_BENCH_SCALE`, default 0.002: 60 stocks).
 */
import { pathToFileURL } from 'node:url';
import type { SnapshotRow } from '../warehouse/snapshot-schema.ts';
import { writeSnapshots } from '../warehouse/snapshot-writer.ts';
import { ingestSource } from '../sources/ingest.ts';
import { cadenceDates } from '../workflows/cadence.ts';
import { serveCustomScreensApi } from '../test/api/support/custom-screens-server.ts';
import { inputsOn, rowsOf } from '../test/api/support/lake-fixture.ts';
import { makeTempDir } from '../test/support/temp-dir.ts';
import { describeMachine } from './machine.ts';

/** Median and worst of one kind of request, milliseconds. */
interface Latency {
  p50Ms: number;
  maxMs: number;
}

export interface CustomTimelineBenchFigures {
  tickers: number;
  snapshotsPerTicker: number;
  builtIn: Latency;
  customCold: Latency;
  customAgain: Latency;
}

const latency = (samples: number[]): Latency => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50Ms: sorted[Math.floor(sorted.length / 2)]!, maxMs: sorted.at(-1)! };
};

export async function runCustomTimelineBench(
  scale = Number(process.env.CUSTOM_TIMELINE_BENCH_SCALE ?? 0.002),
): Promise<CustomTimelineBenchFigures> {
  const temp = await makeTempDir('custom-timeline-bench-');
  try {
    const today = new Date().toISOString().slice(0, 10);
    await ingestSource({ source: 'sample', scale, dataDir: temp.dir, asOf: today, markets: ['us'], concurrency: 2 });
    const dates = cadenceDates('2009-01-01', today, 'quarter-end').filter((date) => date < today);
    for (const year of new Set(dates.map((date) => date.slice(0, 4)))) {
      const rows: SnapshotRow[] = [];
      for (const date of dates.filter((d) => d.startsWith(year)))
        rows.push(...rowsOf(await inputsOn(temp.dir, 'us', date), 'backfill', `backfill-${date}`));
      await writeSnapshots(temp.dir, rows, { fileStem: `backfill-${year}` });
    }
    const nightly = rowsOf(await inputsOn(temp.dir, 'us', today), 'nightly', 'nightly-today');
    await writeSnapshots(temp.dir, nightly, { fileStem: 'nightly' });
    const tickers = nightly.map((row) => row.ticker);
    const api = await serveCustomScreensApi(temp.dir);
    try {
      const { key } = await api.newKey();
      const mandate = {
        slug: 'bench',
        base: 'shariah_aaoifi',
        thresholds: { debt_to_market_cap_spot: 0.2, non_permissible_income_to_total_income: 0.03 },
        exclude_activities: [{ activity: 'coffee', max_revenue_share: 0 }],
      };
      if ((await api.call('/api/screens', key, { method: 'POST', body: mandate })).status !== 201) throw new Error('screen not created');
      const pass = async (framework: string) => {
        const samples: number[] = [];
        for (const ticker of tickers) {
          const started = performance.now();
          const answer = await api.call(`/api/screen/us/${ticker}/timeline?framework=${framework}`, key);
          if (answer.status !== 200) throw new Error(`${ticker}: ${answer.status} ${JSON.stringify(answer.body)}`);
          samples.push(performance.now() - started);
        }
        return latency(samples);
      };
      const builtIn = await pass('shariah_aaoifi');
      const customCold = await pass('custom:bench');
      const customAgain = await pass('custom:bench');
      return { tickers: tickers.length, snapshotsPerTicker: dates.length + 1, builtIn, customCold, customAgain };
    } finally {
      await api.close();
    }
  } finally {
    await temp.cleanup();
  }
}

export function formatCustomTimelineBench(f: CustomTimelineBenchFigures): string[] {
  const row = (name: string, l: Latency) => `[custom-timeline]   ${name}: p50 ${l.p50Ms.toFixed(1)} ms, max ${l.maxMs.toFixed(1)} ms`;
  return [
    `[custom-timeline] ${f.tickers} synthetic US stocks × ${f.snapshotsPerTicker} snapshots (quarter ends from 2009, then today)`,
    row('built-in timeline (shariah_aaoifi)', f.builtIn),
    row('custom timeline, first ask', f.customCold),
    row('custom timeline, asked again', f.customAgain),
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(describeMachine());
  for (const line of formatCustomTimelineBench(await runCustomTimelineBench())) console.log(line);
}
