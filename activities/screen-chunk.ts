import { createHash } from 'node:crypto';
import { screenCompany } from '../engine/index.ts';
import type { StoredReport } from '../serving/serving-types.ts';
import { SeriesScreener } from '../engine/screen-series.ts';
import type { SnapshotRow } from '../warehouse/snapshot-schema.ts';
import { SnapshotStage, type WrittenSnapshots } from '../warehouse/snapshot-writer.ts';
import type { PipelineData } from './pipeline-data.ts';
import { writeChunkFailures } from './failure-log.ts';
import { FAILED_PER_OUTCOME, type ChunkOutcome, type FailedTicker, type ScreenChunkRequest, type TickerChunk } from './pipeline-types.ts';
import { backfillSnapshotRow, compactResult, defaultReportOf, screenedAtNow, snapshotRowFrom } from './snapshot-rows.ts';

export interface ChunkWorkDeps {
  dataDir: string;
  data: PipelineData;
  /** DuckDB threads for publishing (default: all cores). */
  writeThreads?: number;
  /**
   * Reuse work across a backfill's dates (engine/screen-series.ts; default true). False screens
   * and serialises every date from scratch, as before the reuse: the benchmark's baseline.
   */
  reuseAcrossDates?: boolean;
}

/** Reports where a chunk is (`loading us #3`, `screening us #3: 2000/5000`); the activity heartbeats with it. */
export type ChunkProgress = (detail: string) => void;

/** A deterministic file stem from what a chunk writes, so a retry of the same work replaces its own file. */
export function fileStemFor(runId: string, chunk: TickerChunk, keys: readonly string[]): string {
  const digest = createHash('sha256').update(keys.join('\n')).digest('hex').slice(0, 16);
  return `${runId}-${chunk.market}-c${String(chunk.index).padStart(5, '0')}-${digest}`;
}

/**
 * Screens a chunk on each date and publishes its snapshots: load inputs, screen, write one
 * file per (market, year). One bad ticker is recorded and skipped, never fatal. Knows nothing
 * of Temporal or threads: the activity runs it in a worker thread or in its own.
 */
export async function screenChunkWork(deps: ChunkWorkDeps, request: ScreenChunkRequest, progress: ChunkProgress): Promise<ChunkOutcome> {
  const { chunk, dates, source, runId } = request;
  progress(`loading ${chunk.market} #${chunk.index}`);
  // A day that already has a snapshot (a nightly, a refresh, an earlier backfill) is already that
  // day's point in history: a backfill screen of it would only add a compact copy, which, on the
  // backfill's last day (today), would also replace the nightly's full current report.
  const done = source === 'backfill' ? await deps.data.publishedKeys(chunk, dates) : new Set<string>();
  const loaded = await deps.data.loadInputs(chunk, dates);
  const screenedAt = screenedAtNow();
  const failed: FailedTicker[] = [];
  // Each row goes to the stage as soon as it is screened: a month-end chunk's 36,000 results
  // never sit in the JavaScript heap together (docs/pipelines.md).
  const stage = await SnapshotStage.open(deps.writeThreads === undefined ? {} : { threads: deps.writeThreads });
  const keys: string[] = [];
  const tickers = new Set<string>();
  // Inputs come ordered by ticker, then date: consecutive dates of a company share what did not change.
  const reuse = source === 'backfill' && deps.reuseAcrossDates !== false;
  const series = new SeriesScreener();
  let skipped = 0;
  let written: WrittenSnapshots;
  try {
    for (const [i, item] of loaded.entries()) {
      if (i % 2_000 === 0) progress(`screening ${chunk.market} #${chunk.index}: ${i}/${loaded.length}`);
      if (!item.ok) {
        failed.push({ market: item.market, ticker: item.ticker, reason: `${item.date}: ${item.reason}` });
        continue;
      }
      const { input } = item;
      const key = `${input.listing.ticker}|${input.screeningDate}`;
      if (done.has(key)) {
        skipped += 1;
        continue;
      }
      let row: SnapshotRow;
      let report: StoredReport | undefined;
      try {
        const meta = { source, runId, screenedAt };
        if (reuse) row = backfillSnapshotRow(input, series.screen(input), meta);
        else if (source === 'backfill') row = snapshotRowFrom(input, compactResult(screenCompany(input)), meta);
        else {
          const result = screenCompany(input);
          row = snapshotRowFrom(input, result, meta);
          report = defaultReportOf(row, result, input.listing.name);
        }
      } catch (error) {
        failed.push({
          market: input.listing.market,
          ticker: input.listing.ticker,
          reason: `${input.screeningDate}: ${(error as Error).message}`,
        });
        continue;
      }
      // Outside the per-ticker catch: a failing stage fails the chunk (Temporal retries it).
      stage.add(row, report);
      keys.push(key);
      tickers.add(input.listing.ticker);
    }
    progress(`publishing ${chunk.market} #${chunk.index}`);
    written = await stage.publish(deps.dataDir, fileStemFor(runId, chunk, keys));
  } finally {
    await stage.close();
  }
  const failedFile =
    failed.length === 0
      ? null
      : await writeChunkFailures(
          deps.dataDir,
          runId,
          fileStemFor(
            runId,
            chunk,
            failed.map((f) => `${f.ticker}|${f.reason}`),
          ),
          failed,
        );
  return {
    index: chunk.index,
    screened: tickers.size,
    published: written.rows,
    skipped,
    failed: failed.slice(0, FAILED_PER_OUTCOME),
    failedCount: failed.length,
    failedFile,
    files: written.files,
  };
}
