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
  /** Activities run at once on `taskQueue` (default: one per core). */
  maxConcurrentActivities?: number;
  /**
   * Webhook deliveries' own task queue and how many attempts run on it at once: polled by a second
   * worker in this process, so slow receivers never hold a screen's slot (docs/webhooks.md).
   * Without it, deliveries run on `taskQueue`.
   */
  deliveries?: { taskQueue: string; slots: number };
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
  /** The slots each polled task queue gets, as the worker says at start. */
  slots: Record<string, number>;
  /** Resolves when the worker has drained and stopped. */
  done: Promise<void>;
  stop(): Promise<void>;
}

/** Connects to Temporal and starts polling the task queue with every workflow and activity. */
export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const slots = options.maxConcurrentActivities ?? Math.max(2, availableParallelism());
  const connection = await NativeConnection.connect({ address: options.address });
  const chunks = threadedChunkRunner({ dataDir: options.dataDir, threads: slots });
  const workflowBundle = options.workflowBundle ?? (await bundleWorkflows());
  const webhooks =
    options.webhooks && options.deliveries ? { ...options.webhooks, deliveryTaskQueue: options.deliveries.taskQueue } : options.webhooks;
  const activities = createActivities({ dataDir: options.dataDir, source: options.source, chunks, ...(webhooks ? { webhooks } : {}) });
  const common = { connection, namespace: options.namespace, workflowBundle, activities };
  const workers = [await Worker.create({ ...common, taskQueue: options.taskQueue, maxConcurrentActivityTaskExecutions: slots })];
  if (options.deliveries)
    workers.push(
      await Worker.create({
        ...common,
        taskQueue: options.deliveries.taskQueue,
        maxConcurrentActivityTaskExecutions: options.deliveries.slots,
      }),
    );
  const done = Promise.all(workers.map((worker) => worker.run()))
    .then(() => undefined)
    .finally(() => chunks.close())
    .finally(() => connection.close());
  const stop = async () => {
    for (const worker of workers) if (worker.getState() === 'RUNNING') worker.shutdown();
    await done;
  };
  // One queue's worker failing stops the other, so the process exits and is restarted whole.
  done.catch(() => stop().catch(() => undefined));
  return {
    worker: workers[0]!,
    slots: Object.fromEntries([
      [options.taskQueue, slots],
      ...(options.deliveries ? [[options.deliveries.taskQueue, options.deliveries.slots]] : []),
    ]),
    done,
    stop,
  };
}
