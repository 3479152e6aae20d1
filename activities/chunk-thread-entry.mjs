// Entry file of a chunk worker thread. Module hooks registered in the main thread do not reach
// worker threads on Node 20 (nor does `--import` in a worker's execArgv), so each thread
// registers tsx itself before loading the TypeScript sources, as bin/faithscreen.js does.
import { register } from 'tsx/esm/api';

register();
const { default: screenChunkInThread } = await import('./chunk-thread.ts');

export default screenChunkInThread;
