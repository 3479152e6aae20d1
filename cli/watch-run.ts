import { setTimeout as sleep } from 'node:timers/promises';
import type { WorkflowHandle } from '@temporalio/client';
import type { RunProgress } from '../workflows/run-progress.ts';
import { createProgressView, progressLine, type ProgressView } from './progress-view.ts';

const POLL_MS = 500;

/**
 * Follows a pipeline run until it closes, showing its progress query; resolves with the final
 * progress, or throws with the failure reason when the run failed, was cancelled or timed out.
 * `signal` stops following (the run itself goes on in Temporal).
 */
export async function watchRun(
  handle: WorkflowHandle,
  view: ProgressView = createProgressView(),
  signal?: AbortSignal,
): Promise<RunProgress> {
  try {
    for (;;) {
      signal?.throwIfAborted();
      const description = await handle.describe();
      if (description.status.name !== 'RUNNING') {
        if (description.status.name !== 'COMPLETED' && description.status.name !== 'CONTINUED_AS_NEW') {
          await handle.result(); // throws the failure with its cause
          throw new Error(`run ${handle.workflowId} ended ${description.status.name}`);
        }
        const final = (await handle.result()) as RunProgress;
        view.update(final);
        return final;
      }
      try {
        view.update(await handle.query<RunProgress>('progress'));
      } catch {
        // The first workflow task may not have run yet; the next poll will tell.
      }
      await sleep(POLL_MS, undefined, { signal });
    }
  } finally {
    view.stop();
  }
}

/** The end-of-run summary printed by the CLI. */
export function summarise(progress: RunProgress): string {
  const lines = [progressLine(progress)];
  for (const failed of progress.failedSample.slice(0, 20)) lines.push(`  failed ${failed.market}/${failed.ticker}: ${failed.reason}`);
  if (progress.failedCount > 20) lines.push(`  … and ${progress.failedCount - 20} more`);
  const files = progress.failedFiles ?? [];
  if (files.length > 0)
    lines.push(
      `  every failure, one JSON line each, under DATA_DIR: ${files.slice(0, 5).join(', ')}${files.length > 5 ? ` and ${files.length - 5} more files` : ''}`,
    );
  return lines.join('\n');
}
