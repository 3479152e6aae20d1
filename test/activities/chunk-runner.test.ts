import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inlineChunkRunner, threadedChunkRunner, type ChunkRunner } from '../../activities/chunk-runner.ts';
import { createLakePipelineData } from '../../activities/lake-pipeline-data.ts';
import { planChunks } from '../../activities/pipeline.ts';
import type { ScreenChunkRequest, TickerChunk } from '../../activities/pipeline-types.ts';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { ingestSource } from '../../sources/ingest.ts';
import { countListings } from '../../warehouse/lake-queries.ts';
import { catalogQuery, testSource } from '../support/pipeline-env.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const DATE = '2026-11-20';

describe('chunk runners', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let threaded: ChunkRunner;
  let chunks: TickerChunk[];
  const never = new AbortController().signal;

  beforeAll(async () => {
    temp = await makeTempDir('faithscreen-chunk-runner-');
    await ingestSource({ ...testSource, dataDir: temp.dir, asOf: DATE });
    chunks = planChunks(await withDuckDB(':memory:', {}, (c) => countListings(c, temp.dir, { date: DATE, kind: 'stock' })), 1_000);
    threaded = threadedChunkRunner({ dataDir: temp.dir, threads: 2 });
  });
  afterAll(async () => {
    await threaded?.close();
    await temp?.cleanup();
  });

  const request = (chunk: TickerChunk, runId: string, dates = [DATE]): ScreenChunkRequest => ({ runId, source: 'nightly', chunk, dates });

  it('when a chunk runs in a worker thread, then it publishes what the in-thread runner publishes and reports progress on the way', async () => {
    const chunk = chunks.find((c) => c.market === 'us')!;
    const details: string[] = [];
    const inThread = await threaded.run(request(chunk, 'threaded'), (d) => details.push(d), never);
    const inline = await inlineChunkRunner({ dataDir: temp.dir, data: createLakePipelineData(temp.dir) }).run(
      request(chunk, 'inline'),
      () => undefined,
      never,
    );

    expect(inThread.published).toBe(chunk.limit);
    expect({ ...inThread, files: inThread.files.length }).toEqual({ ...inline, files: inline.files.length });
    expect(details[0]).toBe(`loading us #${chunk.index}`);
    expect(details.at(-1)).toBe(`publishing us #${chunk.index}`);
    const statuses = await catalogQuery(
      temp.dir,
      `SELECT count(*)::INT AS n FROM snapshots a JOIN snapshots b USING (market, ticker, snapshot_date)
       WHERE a.run_id = 'threaded' AND b.run_id = 'inline' AND a.result_json = b.result_json`,
    );
    expect(statuses).toEqual([{ n: chunk.limit }]);
  });

  it('when the work fails inside the thread, then the run rejects with its message and the pool keeps serving', async () => {
    await expect(threaded.run(request(chunks[0]!, 'bad', ['21-11-2026']), () => undefined, never)).rejects.toThrow(/21-11-2026/);
    await expect(threaded.run(request(chunks[0]!, 'after-bad'), () => undefined, never)).resolves.toMatchObject({
      published: chunks[0]!.limit,
    });
  });

  it('when the activity is cancelled mid-chunk, then the run rejects as aborted and the pool keeps serving', async () => {
    const controller = new AbortController();
    const backfillDates = Array.from({ length: 18 }, (_, i) => `${2009 + i}-06-30`);
    const running = threaded.run(
      { runId: 'cancelled', source: 'backfill', chunk: chunks[0]!, dates: backfillDates },
      () => controller.abort(),
      controller.signal,
    );
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    await expect(threaded.run(request(chunks[0]!, 'after-cancel'), () => undefined, never)).resolves.toMatchObject({
      published: chunks[0]!.limit,
    });
  });
});
