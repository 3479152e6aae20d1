import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker, bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { Logger } from 'pino';
import { createActivities, threadedChunkRunner } from '../activities/index.ts';
import type { PipelineSource } from '../activities/lake-pipeline-data.ts';
import type { WebhookWorkerDeps } from '../activities/webhooks.ts';

/** Path of the workflows module the worker bundles into Temporal's deterministic sandbox. */
export const WORKFLOWS_PATH = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));

export interface WorkerOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  dataDir: string;
  source: PipelineSource;
  logger?: Logger;
  /** Activities run at once by this worker (default: one per core). */
  maxConcurrentActivities?: number;
  /** A prebuilt bundle (tests reuse one); otherwise the workflows are bundled at start. */
  workflowBundle?: WorkflowBundleWithSourceMap;
  /** Webhook delivery (docs/webhooks.md); without it the delivery workflow finds nothing to send. */
  webhooks?: WebhookWorkerDeps;
}

/** Bundles the workflow code once; reuse the result across workers in one process. */
export function bundleWorkflows(): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    logger: {
      log: () => undefined,
      trace: () => undefined,
      debug: () => undefined,
      info: () => undefined,
      warn: () => undefined,
      error: () => undefined,
    },
  });
}

export interface RunningWorker {
  worker: Worker;
  /** Resolves when the worker has drained and stopped. */
  done: Promise<void>;
  stop(): Promise<void>;
}

/** Connects to Temporal and starts polling the task queue with every workflow and activity. */
export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const slots = options.maxConcurrentActivities ?? Math.max(2, availableParallelism());
  const connection = await NativeConnection.connect({ address: options.address });
  const chunks = threadedChunkRunner({ dataDir: options.dataDir, threads: slots });
  const worker = await Worker.create({
    connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    workflowBundle: options.workflowBundle ?? (await bundleWorkflows()),
    activities: createActivities({
      dataDir: options.dataDir,
      source: options.source,
      chunks,
      ...(options.webhooks ? { webhooks: options.webhooks } : {}),
    }),
    maxConcurrentActivityTaskExecutions: slots,
  });
  const done = worker
    .run()
    .finally(() => chunks.close())
    .finally(() => connection.close());
  return {
    worker,
    done,
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done;
    },
  };
}
