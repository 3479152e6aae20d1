// Entry file of the history index builder's child process (docs/api.md, "as_of from the history
// index"): registers tsx (the child starts without the parent's loader), then builds or merges
// the segments the parent sends, one task at a time, answering each, until the parent says
// `exit`. A `cancel` message stops the running task at its next batch; a parent gone (the IPC
// channel closed) ends the child at once: its temp files are swept later.
import { register } from 'tsx/esm/api';

register();
const { IDLE_NICE, lowerCpuPriority } = await import('../../common/cpu-priority.ts');
try {
  // Below the API and the worker, before DuckDB starts its threads; the child leads its own
  // session, so its scheduler group is lowered too (docs/operations.md).
  lowerCpuPriority(IDLE_NICE);
} catch {
  // A courtesy to the API; some containers forbid it.
}
// Ctrl-C in a terminal reaches this child too: the API stops it (a message, or the channel closing), not the signal.
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => undefined);
const { buildHistorySegment } = await import('./api-reads-history-build.ts');
const { mergeHistorySegments } = await import('./api-reads-history-merge.ts');

const cancel = new SharedArrayBuffer(4);
const { exitWhenParentGone } = await import('../../common/child-process.ts');
// Nothing to drain: a segment is renamed into place only when complete.
exitWhenParentGone();

async function perform(message) {
  Atomics.store(new Int32Array(cancel), 0, 0);
  const task = { ...message.task, cancel };
  return message.type === 'merge' ? mergeHistorySegments(task) : buildHistorySegment(task);
}

process.on('message', (message) => {
  if (message.type === 'cancel') Atomics.store(new Int32Array(cancel), 0, 1);
  else if (message.type === 'exit') process.exit(0);
  else if (message.type === 'build' || message.type === 'merge')
    perform(message).then(
      (result) => process.send({ type: 'done', result: { ...result, maxRssMiB: process.resourceUsage().maxRSS / 1024 } }),
      (error) =>
        process.send({ type: 'failed', message: String(error?.stack ?? error), cancelled: error?.name === 'HistoryBuildCancelled' }),
    );
});
process.send({ type: 'ready' });
