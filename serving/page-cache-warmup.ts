import { open } from 'node:fs/promises';
import os from 'node:os';

/** What a warm-up read; `aborted` when it was stopped before the end. */
export interface PageCacheWarmup {
  bytes: number;
  seconds: number;
  aborted: boolean;
}

const CHUNK_BYTES = 4 * 1024 * 1024;
/** A disk serves a few requests at once faster than one after another; libuv's pool has four threads, one is left for the rest. */
const READS_IN_FLIGHT = 3;

/** A quarter of the memory this process may use: the host's, or its container's limit when lower. */
export function defaultWarmupBudget(): number {
  const limit = process.constrainedMemory?.() ?? 0;
  const memory = limit > 0 ? Math.min(limit, os.totalmem()) : os.totalmem();
  return Math.floor(memory / 4);
}

/**
 * Reads files front to back, in the order given, up to `budgetBytes` in all, so that the
 * operating system holds them in its page cache (docs/serving.md, "A cold start"). The embedded
 * store's reads are synchronous: each one that misses the cache stops the event loop for a disk
 * read, while one sequential pass brings the file in at the disk's full speed. The reads run on
 * libuv's thread pool, never on the event loop; a missing file is skipped, and `signal` stops
 * the pass.
 */
export async function warmPageCache(paths: readonly string[], budgetBytes: number, signal?: AbortSignal): Promise<PageCacheWarmup> {
  const started = performance.now();
  const buffers = Array.from({ length: READS_IN_FLIGHT }, () => Buffer.allocUnsafe(CHUNK_BYTES));
  let bytes = 0;
  // Bytes asked for and not yet read: the budget counts them, so the readers never ask for more than it.
  let asked = 0;
  for (const file of paths) {
    if (signal?.aborted || bytes >= budgetBytes) break;
    const handle = await open(file, 'r').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (handle === null) continue;
    try {
      const size = (await handle.stat()).size;
      let next = 0;
      let ended = false;
      const reader = async (buffer: Buffer) => {
        while (!signal?.aborted && !ended && next < size && bytes + asked < budgetBytes) {
          const position = next;
          const length = Math.min(CHUNK_BYTES, size - position, budgetBytes - bytes - asked);
          next += length;
          asked += length;
          try {
            const { bytesRead } = await handle.read(buffer, 0, length, position);
            bytes += bytesRead;
            // The file ended early (it shrank since its size was read).
            if (bytesRead < length) ended = true;
          } finally {
            asked -= length;
          }
        }
      };
      // Every reader settles before the handle closes, whichever fails.
      const outcomes = await Promise.allSettled(buffers.map(reader));
      const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
      if (failed) throw failed.reason;
    } finally {
      await handle.close();
    }
  }
  return { bytes, seconds: (performance.now() - started) / 1000, aborted: signal?.aborted === true };
}
