import { MockActivityEnvironment } from '@temporalio/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChunkRunner } from '../../activities/chunk-runner.ts';
import { createLakePipelineData } from '../../activities/lake-pipeline-data.ts';
import { createPipelineActivities } from '../../activities/pipeline.ts';
import type { ChunkOutcome, ScreenChunkRequest } from '../../activities/pipeline-types.ts';

const request: ScreenChunkRequest = {
  runId: 'r',
  source: 'nightly',
  chunk: { index: 3, market: 'us', offset: 0, limit: 10 },
  dates: ['2026-11-20'],
};
const outcome: ChunkOutcome = { index: 3, screened: 10, published: 10, skipped: 0, failed: [], files: [] };

describe('the screenChunk activity', () => {
  afterEach(() => vi.useRealTimers());

  it('when a chunk step runs long, then its latest progress is repeated as a heartbeat until the chunk ends', async () => {
    vi.useFakeTimers();
    let finish: (o: ChunkOutcome) => void = () => undefined;
    const runner: ChunkRunner = {
      run: (_request, progress) => {
        progress('publishing us #3');
        return new Promise((resolve) => (finish = resolve));
      },
      close: () => Promise.resolve(),
    };
    const activities = createPipelineActivities({ dataDir: '/nonexistent', data: createLakePipelineData('/nonexistent'), chunks: runner });
    const env = new MockActivityEnvironment();
    const beats: unknown[] = [];
    env.on('heartbeat', (detail: unknown) => beats.push(detail));

    const running = env.run(activities.screenChunk, request);
    await vi.advanceTimersByTimeAsync(16_000);
    finish(outcome);
    await expect(running).resolves.toEqual(outcome);
    await vi.advanceTimersByTimeAsync(20_000);

    expect(beats).toEqual(['publishing us #3', 'publishing us #3', 'publishing us #3', 'publishing us #3']);
  });

  it('when the activity is cancelled, then the runner sees the cancellation signal', async () => {
    let seen: AbortSignal | undefined;
    const runner: ChunkRunner = {
      run: (_request, _progress, signal) => {
        seen = signal;
        return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error)));
      },
      close: () => Promise.resolve(),
    };
    const activities = createPipelineActivities({ dataDir: '/nonexistent', data: createLakePipelineData('/nonexistent'), chunks: runner });
    const env = new MockActivityEnvironment();
    const running = env.run(activities.screenChunk, request);
    env.cancel();
    await expect(running).rejects.toBeDefined();
    expect(seen?.aborted).toBe(true);
  });
});
