import { createHash } from 'node:crypto';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { screenCompany } from '../engine/index.ts';
import { writeSnapshots } from '../warehouse/snapshot-writer.ts';
import type { SnapshotRow } from '../warehouse/snapshot-schema.ts';
import type { PipelineData } from './pipeline-data.ts';
import type { ChunkOutcome, FailedTicker, PlanRequest, RefreshedScreen, ScreenChunkRequest, ScreenPlan, TickerChunk, TickerRequest } from './pipeline-types.ts';
import { compactResult, screenedAtNow, snapshotRowFrom } from './snapshot-rows.ts';

export interface PipelineDeps {
  dataDir: string;
  data: PipelineData;
}

/** Heartbeats with a detail and stops early when the workflow cancelled the activity. */
function beat(detail: string): void {
  const context = Context.current();
  context.heartbeat(detail);
  context.cancellationSignal.throwIfAborted();
}

/** Splits each market's listings into chunks of at most `size`, in market order. */
export function planChunks(counts: Array<{ market: string; count: number }>, size: number): TickerChunk[] {
  const chunks: TickerChunk[] = [];
  for (const { market, count } of counts) {
    for (let offset = 0; offset < count; offset += size) {
      chunks.push({ index: chunks.length, market, offset, limit: Math.min(size, count - offset) });
    }
  }
  return chunks;
}

/** A deterministic file stem from what a chunk writes, so a retry of the same work replaces its own file. */
export function fileStemFor(runId: string, chunk: TickerChunk, keys: readonly string[]): string {
  const digest = createHash('sha256').update(keys.join('\n')).digest('hex').slice(0, 16);
  return `${runId}-${chunk.market}-c${String(chunk.index).padStart(5, '0')}-${digest}`;
}

/** The pipeline activities: plan, ingest, screen chunks, refresh one ticker. */
export function createPipelineActivities(deps: PipelineDeps) {
  return {
    async planScreen(request: PlanRequest): Promise<ScreenPlan> {
      const counts = await deps.data.listingCounts(request.date, request.markets);
      if (counts.length === 0) {
        throw ApplicationFailure.nonRetryable(`no listings for ${request.markets?.join(', ') ?? 'any market'} on ${request.date}: ingest data first`, 'EmptyUniverse');
      }
      const chunks = planChunks(counts, request.chunkSize);
      return { date: request.date, totalTickers: counts.reduce((sum, c) => sum + c.count, 0), chunks };
    },

    /** Screens a chunk on each date; one bad ticker is recorded and skipped, never fatal. */
    async screenChunk(request: ScreenChunkRequest): Promise<ChunkOutcome> {
      const { chunk, dates, source, runId } = request;
      beat(`loading ${chunk.market} #${chunk.index}`);
      const done = source === 'backfill' ? await deps.data.publishedKeys(chunk, dates, source) : new Set<string>();
      const loaded = await deps.data.loadInputs(chunk, dates);
      const screenedAt = screenedAtNow();
      const failed: FailedTicker[] = [];
      const rows: SnapshotRow[] = [];
      let skipped = 0;
      for (const [i, item] of loaded.entries()) {
        if (i % 2_000 === 0) beat(`screening ${chunk.market} #${chunk.index}: ${i}/${loaded.length}`);
        if (!item.ok) {
          failed.push({ market: item.market, ticker: item.ticker, reason: `${item.date}: ${item.reason}` });
          continue;
        }
        const { input } = item;
        if (done.has(`${input.listing.ticker}|${input.screeningDate}`)) {
          skipped += 1;
          continue;
        }
        try {
          const result = screenCompany(input);
          rows.push(snapshotRowFrom(input, source === 'backfill' ? compactResult(result) : result, { source, runId, screenedAt }));
        } catch (error) {
          failed.push({ market: input.listing.market, ticker: input.listing.ticker, reason: `${input.screeningDate}: ${(error as Error).message}` });
        }
      }
      beat(`publishing ${chunk.market} #${chunk.index}`);
      const stem = fileStemFor(runId, chunk, rows.map((r) => `${r.ticker}|${r.snapshot_date}`));
      const written = await writeSnapshots(deps.dataDir, rows, { fileStem: stem });
      const screened = new Set(rows.map((r) => r.ticker)).size;
      return { index: chunk.index, screened, published: written.rows, skipped, failed, files: written.files };
    },

    async refreshTickerData(request: TickerRequest): Promise<void> {
      beat(`refreshing ${request.market}/${request.ticker}`);
      await deps.data.refreshTicker(request.market, request.ticker, request.date);
    },

    /** Screens one listing now and publishes a `refresh` snapshot; returns the full result. */
    async screenTicker(request: TickerRequest & { runId: string }): Promise<RefreshedScreen> {
      const input = await deps.data.loadTickerInput(request.market, request.ticker, request.date);
      if (!input) {
        throw ApplicationFailure.nonRetryable(`${request.market}/${request.ticker} is not a listed ticker`, 'TickerNotFound');
      }
      const result = screenCompany(input);
      const screenedAt = screenedAtNow();
      const row = snapshotRowFrom(input, result, { source: 'refresh', runId: request.runId, screenedAt });
      await writeSnapshots(deps.dataDir, [row], { fileStem: `refresh-${request.runId}` });
      return { market: request.market, ticker: input.listing.ticker, snapshotDate: request.date, screenedAt, source: 'refresh', result };
    },
  };
}
