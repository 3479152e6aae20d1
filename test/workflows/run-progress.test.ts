import { describe, expect, it } from 'vitest';
import { addChunkOutcome, emptyProgress, FAILED_SAMPLE_LIMIT } from '../../workflows/run-progress.ts';

const failure = (i: number) => ({ market: 'us', ticker: `T${i}`, reason: 'no filing' });

describe('addChunkOutcome', () => {
  it('when chunks finish, then done, published, skipped and failed add up', () => {
    let p = emptyProgress('2026-11-21');
    p = addChunkOutcome(p, { index: 0, screened: 10, published: 9, skipped: 1, failed: [failure(1)], files: [] }, 10);
    p = addChunkOutcome(p, { index: 1, screened: 5, published: 5, skipped: 0, failed: [], files: [] }, 5);
    expect(p).toMatchObject({ doneTickers: 15, doneChunks: 2, published: 14, skipped: 1, failedCount: 1, failedSample: [failure(1)] });
  });

  it('when many tickers fail, then the count stays exact while the sample is capped', () => {
    const failed = Array.from({ length: FAILED_SAMPLE_LIMIT + 50 }, (_, i) => failure(i));
    const p = addChunkOutcome(emptyProgress('2026-11-21'), { index: 0, screened: 0, published: 0, skipped: 0, failed, files: [] }, failed.length);
    expect(p.failedCount).toBe(FAILED_SAMPLE_LIMIT + 50);
    expect(p.failedSample).toHaveLength(FAILED_SAMPLE_LIMIT);
  });
});
