import { open } from 'node:fs/promises';

/** What a warm-up read. */
export interface PageCacheWarmup {
  bytes: number;
  seconds: number;
}

const CHUNK_BYTES = 4 * 1024 * 1024;
const READS_IN_FLIGHT = 4;

/**
 * Reads files front to back, up to `budgetBytes` in all, so that the operating system holds them
 * in its page cache (docs/serving.md, "A cold start"). The embedded store's reads are
 * synchronous: each one that misses the cache stops the event loop for a disk read, while one
 * sequential pass brings the file in at the disk's full speed. The reads run on libuv's thread
 * pool, never on the event loop; a missing file is skipped, and `signal` stops the pass.
 */
export async function warmPageCache(paths: readonly string[], budgetBytes: number, signal?: AbortSignal): Promise<PageCacheWarmup> {
  const started = performance.now();
  let bytes = 0;
  for (const file of paths) {
    const handle = await open(file, 'r').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (handle === null) continue;
    try {
      const size = (await handle.stat()).size;
      let next = 0;
      // A few reads in flight: a disk serves several requests at once faster than one after another.
      const reader = async () => {
        const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
        while (!signal?.aborted && next < size && bytes < budgetBytes) {
          const position = next;
          const length = Math.min(CHUNK_BYTES, size - position, budgetBytes - bytes);
          next += length;
          bytes += length;
          await handle.read(buffer, 0, length, position);
        }
      };
      await Promise.all(Array.from({ length: READS_IN_FLIGHT }, reader));
    } finally {
      await handle.close();
    }
  }
  return { bytes, seconds: (performance.now() - started) / 1000 };
}
