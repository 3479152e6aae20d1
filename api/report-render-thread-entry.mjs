// Entry file of a report render thread: module hooks of the main thread do not reach worker
// threads on Node 20, so the thread registers tsx itself (as the pipelines' chunk threads do).
import { move } from 'piscina';
import { register } from 'tsx/esm/api';

register();
const { default: renderReport } = await import('./report-render-thread.ts');

/** The rendered bytes are handed over (transferred), not copied back. */
export default function renderInThread(task) {
  const bytes = renderReport(task);
  return bytes === null ? null : move(bytes);
}
