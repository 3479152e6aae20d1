import { Context } from '@temporalio/activity';
import { migrateCatalog, type CatalogStatus } from '../warehouse/catalog.ts';
import { type ChunkIngestResult } from '../warehouse/ingest.ts';
import { ingestChunk, planIngest, type IngestOptions } from '../sources/ingest.ts';
import type { SourceChunk } from '../warehouse/source-contract.ts';
import { beat } from './heartbeat.ts';

/** What crosses Temporal for an ingest: the source's options, never its rows. */
export type SourceIngestRequest = Omit<IngestOptions, 'dataDir' | 'onProgress' | 'concurrency'>;

export interface IngestActivityDeps {
  dataDir: string;
  /** The worker's configured source; a request's own fields override it (a pipeline sends only `asOf` and `markets`). */
  defaults?: Partial<SourceIngestRequest>;
}

/**
 * Ingestion as Temporal activities: plan the chunks, ingest each (a retry rewrites the same
 * deterministic files), then make sure the catalog is current. Heartbeats while working.
 */
export function createIngestActivities(deps: IngestActivityDeps) {
  return {
    /** The chunks of a source ingest; for a feed this validates every row (fails with file/line/reason). */
    async planSourceIngest(request: Partial<SourceIngestRequest>): Promise<SourceChunk[]> {
      const options = { ...deps.defaults, ...request } as SourceIngestRequest;
      beat({ phase: 'planning', source: options.source });
      return planIngest({ ...options, dataDir: deps.dataDir });
    },
    /** Ingests one chunk; heartbeats every few seconds while DuckDB writes. */
    async ingestSourceChunk(request: Partial<SourceIngestRequest> & { chunkId: string }): Promise<ChunkIngestResult> {
      const { chunkId, ...options } = request;
      beat({ phase: 'ingesting', chunkId });
      const timer = setInterval(() => Context.current().heartbeat({ phase: 'ingesting', chunkId }), 5_000);
      try {
        return await ingestChunk({ ...deps.defaults, ...options, dataDir: deps.dataDir } as IngestOptions, chunkId);
      } finally {
        clearInterval(timer);
      }
    },
    /** Creates or migrates the catalog so the views see the new files. */
    async finishSourceIngest(): Promise<CatalogStatus> {
      beat({ phase: 'catalog' });
      return migrateCatalog(deps.dataDir);
    },
  };
}
