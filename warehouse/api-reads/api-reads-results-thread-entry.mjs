// Entry file of the result sidecar builder's worker thread: module hooks of the main thread do
// not reach worker threads on Node 20, so the thread registers tsx itself (as the chunk threads do).
import { register } from 'tsx/esm/api';

register();
const { default: buildSidecar } = await import('./api-reads-results-thread.ts');

export default buildSidecar;
