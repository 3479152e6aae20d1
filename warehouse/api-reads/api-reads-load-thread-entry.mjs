// Entry file of the API's load thread: module hooks of the main thread do not reach worker
// threads on Node 20, so the thread registers tsx itself (as the sidecar builder does).
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { register } from 'tsx/esm/api';

register();
const { default: loadCurrentBatch } = await import('./api-reads-load-thread.ts');

/** The batch's typed arrays are handed over (transferred), not copied back. */
export default async function loadInThread(task) {
  const batch = await loadCurrentBatch(task);
  const buffers = [
    batch.market,
    batch.source,
    batch.dataSource,
    batch.file,
    batch.day,
    batch.firstDay,
    batch.atMs,
    batch.statusBits,
    batch.ratios,
    batch.synthetic,
  ].map((array) => array.buffer);
  return move({ [transferableSymbol]: buffers, [valueSymbol]: batch });
}
