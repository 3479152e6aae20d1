import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { screenCompany } from '../engine/index.ts';
import { writeSnapshots } from '../warehouse/snapshot-writer.ts';
import { inlineChunkRunner, type ChunkRunner } from './chunk-runner.ts';
import type { PipelineData } from './pipeline-data.ts';
import type { ChunkOutcome, PlanRequest, ScreenChunkRequest, ScreenPlan, TickerChunk, TickerRequest } from './pipeline-types.ts';
import type { RefreshedScreen } from '../warehouse/snapshot-schema.ts';
import { defaultReportOf, screenedAtNow, snapshotRowFrom } from './snapshot-rows.ts';
import { beat } from './heartbeat.ts';

export interface PipelineDeps {
  dataDir: string;
  data: PipelineData;
  /** Where chunks are screened (default: in the activity's thread, over `data`). */
  chunks?: ChunkRunner;
}

/** How often a running chunk's latest progress is repeated as a heartbeat (chunk heartbeat timeout: 30 s). */
const HEARTBEAT_RELAY_MS = 5_000;

/** Heartbeats with a detail and stops early when the workflow cancelled the activity. */
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

/** The pipeline activities: plan, ingest, screen chunks, refresh one ticker. */
export function createPipelineActivities(deps: PipelineDeps) {
  const chunkRunner = deps.chunks ?? inlineChunkRunner(deps);
  return {
    async planScreen(request: PlanRequest): Promise<ScreenPlan> {
      const counts = await deps.data.listingCounts(request.date, request.markets);
      if (counts.length === 0) {
        throw ApplicationFailure.nonRetryable(
          `no listings for ${request.markets?.join(', ') ?? 'any market'} on ${request.date}: ingest data first`,
          'EmptyUniverse',
        );
      }
      const chunks = planChunks(counts, request.chunkSize);
      return { date: request.date, totalTickers: counts.reduce((sum, c) => sum + c.count, 0), chunks };
    },

    /**
     * Screens a chunk on each date; one bad ticker is recorded and skipped, never fatal. Besides
     * the chunk's own progress, the latest detail is repeated every few seconds while the chunk
     * runs, so one long DuckDB step (a big write) does not read as a dead worker; a chunk that
     * hangs is still bounded by the activity's start-to-close timeout.
     */
    async screenChunk(request: ScreenChunkRequest): Promise<ChunkOutcome> {
      const context = Context.current();
      let latest = `queued ${request.chunk.market} #${request.chunk.index}`;
      const relay = setInterval(() => context.heartbeat(latest), HEARTBEAT_RELAY_MS);
      try {
        return await chunkRunner.run(
          request,
          (detail) => {
            latest = detail;
            context.heartbeat(detail);
          },
          context.cancellationSignal,
        );
      } finally {
        clearInterval(relay);
      }
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
      await writeSnapshots(deps.dataDir, [row], {
        fileStem: `refresh-${request.runId}`,
        reports: [defaultReportOf(row, result, input.listing.name)],
      });
      return { market: request.market, ticker: input.listing.ticker, snapshotDate: request.date, screenedAt, source: 'refresh', result };
    },
  };
}
