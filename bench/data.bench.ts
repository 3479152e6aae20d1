/** Data benchmark: generate + ingest the full synthetic universe, then load screening inputs. `npx tsx bench/data.bench.ts` */
import { readdir, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sampleUniversePlan } from '../sources/sample/sample-plan.ts';
import { withDuckDB } from '../warehouse/duckdb.ts';
import { type TableCounts } from '../warehouse/ingest.ts';
import { ingestSource } from '../sources/ingest.ts';
import { lakeRoot } from '../warehouse/lake-paths.ts';
import { loadScreeningInputs, loadScreeningInputsForDates } from '../warehouse/screening-inputs.ts';
import { makeTempDir } from '../test/support/temp-dir.ts';

export interface DataBenchResult {
  cpus: number;
  scale: number;
  ingestSeconds: number;
  rows: TableCounts;
  bytesByTable: Record<string, number>;
  totalBytes: number;
  inputsNightly: { inputs: number; seconds: number };
  inputsBackfill: { inputs: number; seconds: number; dates: number };
}

async function sizeOf(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  let total = 0;
  for (const e of entries) if (e.isFile()) total += (await stat(path.join(e.parentPath, e.name))).size;
  return total;
}

/** Runs the data benchmark in a temp DATA_DIR and returns its figures. */
export async function runDataBench(scale = 1): Promise<DataBenchResult> {
  const temp = await makeTempDir('faithscreen-bench-');
  try {
    const asOf = '2026-11-21';
    const summary = await ingestSource({ dataDir: temp.dir, source: 'sample', scale, asOf, concurrency: 2 });
    const bytesByTable: Record<string, number> = {};
    for (const table of await readdir(lakeRoot(temp.dir))) bytesByTable[table] = await sizeOf(path.join(lakeRoot(temp.dir), table));
    const markets = sampleUniversePlan(scale).map((p) => p.market.marketKey);
    const nightly = await withDuckDB(':memory:', {}, async (c) => {
      const started = performance.now();
      let inputs = 0;
      for (const market of markets) {
        for (let offset = 0; ; offset += 20_000) {
          const chunk = await loadScreeningInputs(c, temp.dir, { date: asOf, market, offset, limit: 20_000 });
          inputs += chunk.length;
          if (chunk.length < 20_000) break;
        }
      }
      return { inputs, seconds: (performance.now() - started) / 1000 };
    });
    const dates = Array.from({ length: 2026 - 2009 }, (_, i) => `${2009 + i}-12-31`).concat(asOf);
    const backfill = await withDuckDB(':memory:', {}, async (c) => {
      const started = performance.now();
      const inputs = await loadScreeningInputsForDates(c, temp.dir, { market: 'us', dates, offset: 0, limit: 5_000 });
      return { inputs: inputs.length, seconds: (performance.now() - started) / 1000, dates: dates.length };
    });
    return {
      cpus: os.cpus().length,
      scale,
      ingestSeconds: summary.seconds,
      rows: summary.rows,
      bytesByTable,
      totalBytes: await sizeOf(temp.dir),
      inputsNightly: nightly,
      inputsBackfill: backfill,
    };
  } finally {
    await temp.cleanup();
  }
}

/** The figures as printable lines. */
export function describeDataBench(r: DataBenchResult): string[] {
  const mb = (b: number): string => `${(b / 2 ** 20).toFixed(1)} MiB`;
  return [
    `[data] cpus: ${r.cpus}; sample scale ${r.scale} (synthetic universe)`,
    `[data] generate + ingest: ${r.ingestSeconds.toFixed(1)} s (target < 180 s)`,
    `[data] rows: ${Object.entries(r.rows)
      .map(([t, n]) => `${t} ${n.toLocaleString('en-US')}`)
      .join(', ')}`,
    `[data] lake size: ${Object.entries(r.bytesByTable)
      .map(([t, b]) => `${t} ${mb(b)}`)
      .join(', ')}; DATA_DIR total ${mb(r.totalBytes)}`,
    `[data] nightly inputs: ${r.inputsNightly.inputs.toLocaleString('en-US')} in ${r.inputsNightly.seconds.toFixed(1)} s (chunks of 20,000)`,
    `[data] backfill inputs: ${r.inputsBackfill.inputs.toLocaleString('en-US')} (5,000 US tickers × ${r.inputsBackfill.dates} dates) ` +
      `in ${r.inputsBackfill.seconds.toFixed(1)} s`,
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const scale = Number(process.env.DATA_BENCH_SCALE ?? 1);
  for (const line of describeDataBench(await runDataBench(scale))) console.log(line);
}
