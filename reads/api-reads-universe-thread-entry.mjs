// Entry file of the API's universe thread: module hooks of the main thread do not reach worker
// threads on Node 20, so the thread registers tsx itself (as the render threads' entry does).
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { register } from 'tsx/esm/api';

register();
const { buildUniverseInThread } = await import('./api-reads-universe-thread.ts');

/** The index's typed arrays are handed over (transferred), not copied back. */
export default async function universeInThread(task) {
  const parts = await buildUniverseInThread(task);
  const slices = [parts.all, ...parts.perMarket.map(([, slice]) => slice)];
  const buffers = [parts.gramKeys, parts.gramStarts, parts.gramIds, ...slices.flatMap((s) => [s.byTicker, s.byName, s.wordIds])].map(
    (array) => array.buffer,
  );
  return move({ [transferableSymbol]: buffers, [valueSymbol]: parts });
}
