import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { closeLoadInstance, KEEP_OPEN_MS, loadCurrentBatch, loadInstancesOpened } from '../../warehouse/api-reads/api-reads-load-thread.ts';
import { publishTickerFile } from '../support/synthetic-snapshots.ts';
import { makeTempDir } from '../support/temp-dir.ts';

let temp: Awaited<ReturnType<typeof makeTempDir>>;
const files: string[] = [];

beforeAll(async () => {
  temp = await makeTempDir();
  files.push(
    await publishTickerFile(temp.dir, '2024-01-31', 30, 'load-2024-01-31'),
    await publishTickerFile(temp.dir, '2024-02-29', 20, 'load-2024-02-29'),
  );
});
afterEach(() => {
  vi.useRealTimers();
  closeLoadInstance();
});
afterAll(() => temp.cleanup());

describe('the API load thread keeps its DuckDB instance between loads', () => {
  it('when loads follow each other, then they share one instance and each answers its own files', async () => {
    const before = loadInstancesOpened();
    const first = await loadCurrentBatch({ files: [files[0]!] });
    const second = await loadCurrentBatch({ files: [files[1]!] });
    const both = await loadCurrentBatch({ files });
    expect([first.count, second.count, both.count]).toEqual([30, 20, 30]);
    expect(loadInstancesOpened() - before).toBe(1);
  });

  it('when a read fails, then it rejects and the next load opens a new instance and answers', async () => {
    await loadCurrentBatch({ files: [files[0]!] });
    const before = loadInstancesOpened();
    await expect(loadCurrentBatch({ files: [path.join(temp.dir, 'missing.parquet')] })).rejects.toThrow(/missing\.parquet/);
    expect((await loadCurrentBatch({ files: [files[1]!] })).count).toBe(20);
    expect(loadInstancesOpened() - before).toBe(1);
  });

  it('when no load comes for KEEP_OPEN_MS, or a close task comes, then the instance is closed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await loadCurrentBatch({ files: [files[0]!] });
    const before = loadInstancesOpened();
    vi.advanceTimersByTime(KEEP_OPEN_MS - 1);
    await loadCurrentBatch({ files: [files[0]!] });
    expect(loadInstancesOpened() - before).toBe(0);
    vi.advanceTimersByTime(KEEP_OPEN_MS);
    await loadCurrentBatch({ files: [files[0]!] });
    expect(loadInstancesOpened() - before).toBe(1);
    expect((await loadCurrentBatch({ files: [], close: true })).count).toBe(0);
    await loadCurrentBatch({ files: [files[1]!] });
    expect(loadInstancesOpened() - before).toBe(2);
  });
});
