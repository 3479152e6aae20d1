import type { ChunkRunner } from './chunk-runner.ts';
import { createLakePipelineData, type PipelineSource } from './lake-pipeline-data.ts';
import { createIngestActivities } from './ingest.ts';
import { createMaintenanceActivities } from './maintenance.ts';
import { createPipelineActivities } from './pipeline.ts';
import type { PipelineData } from './pipeline-data.ts';
import { createWebhookActivities, type WebhookWorkerDeps } from './webhooks.ts';

export interface ActivityDeps {
  dataDir: string;
  /** The source the pipelines ingest from. */
  source: PipelineSource;
  /** Warehouse access for the pipeline activities (default: the lake under `dataDir`). */
  data?: PipelineData;
  /** Where chunks are screened: the worker passes a thread pool; default in the activity's thread over `data`. */
  chunks?: ChunkRunner;
  /** Status-change webhooks (docs/webhooks.md); without them the delivery workflow finds nothing to send. */
  webhooks?: WebhookWorkerDeps;
}

/** Every activity the worker registers, built from the worker's dependencies. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createMaintenanceActivities(deps),
    ...createIngestActivities({ dataDir: deps.dataDir, defaults: deps.source }),
    ...createPipelineActivities({
      dataDir: deps.dataDir,
      data: deps.data ?? createLakePipelineData(deps.dataDir),
      ...(deps.chunks ? { chunks: deps.chunks } : {}),
    }),
    ...createWebhookActivities(deps.dataDir, deps.webhooks),
  };
}

export type Activities = ReturnType<typeof createActivities>;
