// Entry file of the history index builder's worker thread: module hooks of the main thread do
// not reach worker threads on Node 20, so the thread registers tsx itself (as the sidecar builder does).
import { register } from 'tsx/esm/api';

register();
const { default: buildHistorySegment } = await import('./api-reads-history-thread.ts');

export default buildHistorySegment;
