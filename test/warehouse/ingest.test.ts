import { readdir } from 'node:fs/promises';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIngestActivities } from '../../activities/ingest.ts';
import type { SourceChunk } from '../../warehouse/source-contract.ts';
import type { CatalogStatus } from '../../warehouse/catalog.ts';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { ingestSource } from '../../sources/ingest.ts';
import { catalogPath, lakeRoot } from '../../warehouse/lake-paths.ts';
import { countListings } from '../../warehouse/lake-queries.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const sample = { source: 'sample' as const, scale: 0.01, seed: 3, asOf: '2026-11-21', markets: ['us', 'sa'] };

async function lakeFiles(dataDir: string): Promise<string[]> {
  return (await readdir(lakeRoot(dataDir), { recursive: true })).filter((e) => e.endsWith('.parquet')).sort();
}

describe('ingestSource', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeAll(async () => {
    temp = await makeTempDir();
  });
  afterAll(() => temp.cleanup());

  it('when the sample is ingested twice, then the second run replaces the same files and the catalog counts the same rows', async () => {
    const first = await ingestSource({ dataDir: temp.dir, ...sample });
    const files = await lakeFiles(temp.dir);
    const second = await ingestSource({ dataDir: temp.dir, ...sample, concurrency: 2 });
    expect(second.rows).toEqual(first.rows);
    expect(await lakeFiles(temp.dir)).toEqual(files);
    expect(files).toContain('listings/market=us/sample-us-p000.parquet');
    const counts = await withDuckDB(
      catalogPath(temp.dir),
      { readOnly: true },
      async (c) =>
        (
          await c.runAndReadAll(
            `SELECT (SELECT count(*) FROM universe)::INTEGER AS u, (SELECT count(*) FROM prices)::INTEGER AS p, (SELECT bool_and(synthetic) ` +
              `FROM fundamentals) AS s`,
          )
        ).getRowObjectsJS()[0],
    );
    expect(counts).toEqual({ u: first.rows.listings, p: first.rows.prices, s: true });
  });

  it('when listings are counted for a date, then only markets asked for and listings already listed are counted', async () => {
    const counts = await withDuckDB(':memory:', {}, (c) => countListings(c, temp.dir, { date: '2026-11-21', markets: ['sa'] }));
    expect(counts).toHaveLength(1);
    expect(counts[0]!.market).toBe('sa');
    const early = await withDuckDB(':memory:', {}, (c) => countListings(c, temp.dir, { date: '2009-01-01', markets: ['sa'] }));
    expect(early[0]!.count).toBeLessThan(counts[0]!.count);
  });
});

describe('ingest activities', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeAll(async () => {
    temp = await makeTempDir();
  });
  afterAll(() => temp.cleanup());

  it('when planned and run chunk by chunk in the activity environment, then each chunk heartbeats and a retried chunk rewrites its files', async () => {
    const env = new MockActivityEnvironment();
    const beats: unknown[] = [];
    env.on('heartbeat', (d: unknown) => beats.push(d));
    const activities = createIngestActivities({ dataDir: temp.dir });
    const request = { ...sample, markets: ['sa'] };
    const chunks = (await env.run(activities.planSourceIngest, request)) as SourceChunk[];
    expect(chunks.map((c) => c.id)).toEqual(['sa-p000']);
    const once = await env.run(activities.ingestSourceChunk, { ...request, chunkId: 'sa-p000' });
    const again = await env.run(activities.ingestSourceChunk, { ...request, chunkId: 'sa-p000' });
    expect(again).toEqual(once);
    expect(beats.length).toBeGreaterThanOrEqual(3);
    const status = (await env.run(activities.finishSourceIngest)) as CatalogStatus;
    expect(status.toVersion).toBeGreaterThanOrEqual(2);
  });

  it('when the activity is cancelled, then it stops at its next heartbeat', async () => {
    const env = new MockActivityEnvironment();
    const activities = createIngestActivities({ dataDir: temp.dir });
    env.cancel();
    await expect(env.run(activities.planSourceIngest, sample)).rejects.toThrow();
  });
});
