// Entry file of an API's background child process (common/idle-child.ts): registers tsx (the
// child starts without the parent's loader), lowers its CPU priority, then runs the tasks the
// parent sends with the module named by its first argument, one at a time, answering each,
// until the parent says `exit`. A `cancel` message stops the running task at its next batch; a
// parent gone (the IPC channel closed) ends the child at once: its temp files are swept later.
import { register } from 'tsx/esm/api';

register();
const { IDLE_NICE, lowerCpuPriority } = await import('./cpu-priority.ts');
try {
  // Below the API and the worker, before DuckDB starts its threads; the child leads its own
  // session, so its scheduler group is lowered too (docs/operations.md).
  lowerCpuPriority(IDLE_NICE);
} catch {
  // A courtesy to the API; some containers forbid it.
}
// Ctrl-C in a terminal reaches this child too: the parent stops it (a message, or the channel closing), not the signal.
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => undefined);
const { default: runTask } = await import(process.argv[2]);
const { exitWhenParentGone } = await import('./child-process.ts');
// Nothing to drain: what a task writes is renamed into place only when complete.
exitWhenParentGone();

const cancel = new Int32Array(new SharedArrayBuffer(4));
process.on('message', (message) => {
  if (message.type === 'cancel') Atomics.store(cancel, 0, 1);
  else if (message.type === 'exit') process.exit(0);
  else if (message.type === 'task') {
    Atomics.store(cancel, 0, 0);
    Promise.resolve()
      .then(() => runTask(message.task, cancel))
      .then(
        (result) => process.send({ type: 'done', result: { ...result, maxRssMiB: process.resourceUsage().maxRSS / 1024 } }),
        (error) =>
          process.send({
            type: 'failed',
            message: String(error?.stack ?? error),
            cancelled: error?.name === 'IdleTaskCancelled',
          }),
      );
  }
});
process.send({ type: 'ready' });
