// Entry file of the history index builder's child process (docs/api.md, "as_of from the history
// index"): registers tsx (the child starts without the parent's loader), builds the one segment
// the parent sends, answers, and exits. A `cancel` message stops the build at its next batch; a
// parent gone (the IPC channel closed) ends the child at once: its temp files are swept later.
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
// Ctrl-C in a terminal reaches this child too: the API stops it (cancel, or the channel closing), not the signal.
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => undefined);
const { buildHistorySegment } = await import('./api-reads-history-build.ts');

const cancel = new SharedArrayBuffer(4);
const { exitWhenParentGone } = await import('../../common/child-process.ts');
// Nothing to drain: the segment is renamed into place only when complete.
exitWhenParentGone();
process.on('message', (message) => {
  if (message.type === 'cancel') {
    Atomics.store(new Int32Array(cancel), 0, 1);
    return;
  }
  if (message.type !== 'build') return;
  buildHistorySegment({ ...message.task, cancel }).then(
    (result) =>
      process.send({ type: 'done', result: { ...result, maxRssMiB: process.resourceUsage().maxRSS / 1024 } }, () => process.exit(0)),
    (error) =>
      process.send({ type: 'failed', message: String(error?.stack ?? error), cancelled: error?.name === 'HistoryBuildCancelled' }, () =>
        process.exit(0),
      ),
  );
});
process.send({ type: 'ready' });
