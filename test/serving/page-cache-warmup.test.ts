import { stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { warmPageCache } from '../../serving/page-cache-warmup.ts';
import { makeTempDir } from '../support/temp-dir.ts';

/** A file of `bytes` bytes, larger than one read where it matters (reads are 4 MiB). */
async function fileOf(dir: string, name: string, bytes: number): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, Buffer.alloc(bytes, 1));
  return file;
}

describe('page-cache warm-up of the embedded store', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let big: string;
  let small: string;
  beforeAll(async () => {
    temp = await makeTempDir();
    big = await fileOf(temp.dir, 'serving.db', 9 * 1024 * 1024 + 123);
    small = await fileOf(temp.dir, 'serving.db-wal', 4_096);
  });
  afterAll(() => temp?.cleanup());

  it('when the budget covers the files, then it reads every byte of each and skips a file that is not there', async () => {
    const done = await warmPageCache([big, path.join(temp.dir, 'absent'), small], Number.MAX_SAFE_INTEGER);
    expect(done.bytes).toBe((await stat(big)).size + 4_096);
    expect(done.seconds).toBeGreaterThanOrEqual(0);
  });

  it('when the budget is smaller than the files, then it stops at the budget', async () => {
    expect((await warmPageCache([big, small], 5 * 1024 * 1024)).bytes).toBe(5 * 1024 * 1024);
    expect((await warmPageCache([big], 0)).bytes).toBe(0);
  });

  it('when the signal aborts, then it reads nothing more and says it was stopped', async () => {
    const stop = new AbortController();
    stop.abort();
    expect(await warmPageCache([big, small], Number.MAX_SAFE_INTEGER, stop.signal)).toMatchObject({ bytes: 0, aborted: true });
    expect((await warmPageCache([small], Number.MAX_SAFE_INTEGER)).aborted).toBe(false);
  });

  it('when the files are smaller than a read, then it counts what was read, not what it asked for', async () => {
    const tiny = await fileOf(temp.dir, 'tiny', 10);
    expect((await warmPageCache([tiny, tiny], Number.MAX_SAFE_INTEGER)).bytes).toBe(20);
  });

  it('when a path is a directory, then the warm-up fails rather than reporting a read it did not do', async () => {
    await expect(warmPageCache([temp.dir], Number.MAX_SAFE_INTEGER)).rejects.toThrow();
  });
});
