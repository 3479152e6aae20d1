import { describe, expect, it } from 'vitest';
import { summarise } from '../../cli/watch-run.ts';
import { addChunkOutcome, emptyProgress, FAILED_SAMPLE_LIMIT, type RunProgress } from '../../workflows/run-progress.ts';

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
    const p = addChunkOutcome(
      emptyProgress('2026-11-21'),
      { index: 0, screened: 0, published: 0, skipped: 0, failed, files: [] },
      failed.length,
    );
    expect(p.failedCount).toBe(FAILED_SAMPLE_LIMIT + 50);
    expect(p.failedSample).toHaveLength(FAILED_SAMPLE_LIMIT);
  });

  it('when an outcome carries a capped sample, then the count comes from failedCount and its failure file is kept', () => {
    const sample = Array.from({ length: 3 }, (_, i) => failure(i));
    let p = addChunkOutcome(
      emptyProgress('2026-11-21'),
      {
        index: 0,
        screened: 0,
        published: 0,
        skipped: 0,
        failed: sample,
        failedCount: 5_000,
        failedFile: 'runs/r/failed-a.ndjson',
        files: [],
      },
      5_000,
    );
    p = addChunkOutcome(p, { index: 1, screened: 5, published: 5, skipped: 0, failed: [], failedCount: 0, failedFile: null, files: [] }, 5);
    expect(p).toMatchObject({ failedCount: 5_000, failedSample: sample, failedFiles: ['runs/r/failed-a.ndjson'] });
  });

  it('when progress carried over from an older run has no failure files, then folding still works', () => {
    const older: Partial<RunProgress> = emptyProgress('2026-11-21');
    delete older.failedFiles;
    const p = addChunkOutcome(
      older as RunProgress,
      { index: 0, screened: 0, published: 0, skipped: 0, failed: [failure(1)], failedFile: 'runs/r/failed-b.ndjson', files: [] },
      1,
    );
    expect(p).toMatchObject({ failedCount: 1, failedFiles: ['runs/r/failed-b.ndjson'] });
  });
});

describe('summarise', () => {
  it('when tickers failed, then the summary lists a few, counts the rest and names the files with all of them', () => {
    const failedSample = Array.from({ length: 25 }, (_, i) => failure(i));
    const text = summarise({
      ...emptyProgress('2026-11-21'),
      phase: 'done',
      failedCount: 30,
      failedSample,
      failedFiles: ['runs/r/failed-a.ndjson'],
    });
    expect(text).toContain('  failed us/T19: no filing');
    expect(text).not.toContain('us/T20');
    expect(text).toContain('… and 10 more');
    expect(text).toContain('runs/r/failed-a.ndjson');
  });
});
