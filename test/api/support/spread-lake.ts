import { snapshotRowFrom } from '../../../activities/snapshot-rows.ts';
import { screenCompany } from '../../../engine/index.ts';
import { withDuckDB } from '../../../warehouse/duckdb.ts';
import { ingestSource } from '../../../sources/ingest.ts';
import { loadScreeningInputs } from '../../../warehouse/screening-inputs.ts';
import { writeSnapshots } from '../../../warehouse/snapshot-writer.ts';
import type { SnapshotRow } from '../../../warehouse/snapshot-schema.ts';

export interface SpreadLakeOptions {
  /** Sample universe scale (1 = the full 124,000+ tickers). */
  scale: number;
  markets: string[];
  /** Snapshots per published file, as a nightly chunk writes them (the nightly default is 5,000). */
  chunkSize?: number;
  /** Snapshot date and screening day (`YYYY-MM-DD`); defaults to today (UTC). */
  date?: string;
}

export interface SpreadLake {
  /** Every screened stock, in the order they were written. */
  stocks: Array<{ market: string; ticker: string }>;
  /** Published file of each ticker's snapshot (relative to the data dir). */
  fileOf: Map<string, string>;
  files: number;
}

/**
 * A lake as the nightly screen leaves it: the synthetic sample universe, every stock screened
 * by the engine with its full result (reasons and all, ~20 kB each) and published in files of
 * `chunkSize` snapshots with the pipelines' writer. What spread reads (each request a
 * different ticker) meet in production.
 */
export async function buildSpreadLake(dataDir: string, options: SpreadLakeOptions): Promise<SpreadLake> {
  const date = options.date ?? new Date().toISOString().slice(0, 10);
  const chunkSize = options.chunkSize ?? 5_000;
  await ingestSource({ source: 'sample', scale: options.scale, dataDir, asOf: date, markets: options.markets, concurrency: 2 });
  const stocks: SpreadLake['stocks'] = [];
  const fileOf = new Map<string, string>();
  let files = 0;
  for (const market of options.markets) {
    const inputs = await withDuckDB(':memory:', {}, (c) => loadScreeningInputs(c, dataDir, { market, date, kind: 'stock' }));
    for (let start = 0; start < inputs.length; start += chunkSize) {
      const rows: SnapshotRow[] = inputs
        .slice(start, start + chunkSize)
        .map((input) =>
          snapshotRowFrom(input, screenCompany(input), { source: 'nightly', runId: 'spread', screenedAt: `${date}T02:00:00.000` }),
        );
      const written = await writeSnapshots(dataDir, rows, { fileStem: `nightly-spread-${market}-c${start / chunkSize}` });
      files += written.files.length;
      stocks.push(...rows.map((r) => ({ market: r.market, ticker: r.ticker })));
      for (const row of rows) fileOf.set(row.ticker, written.files[0]!);
    }
  }
  return { stocks, fileOf, files };
}
