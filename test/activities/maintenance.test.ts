import { writeFile, readdir, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMaintenanceActivities } from '../../activities/maintenance.ts';
import type { CatalogStatus } from '../../warehouse/catalog.ts';
import { TEMP_PREFIX } from '../../warehouse/publish.ts';
import { makeTempDir } from '../support/temp-dir.ts';

describe('maintenance activities', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    temp = await makeTempDir();
  });
  afterEach(() => temp.cleanup());

  it("when sweeping, then it heartbeats and removes only dead writers' temp files, in the lake and in the runs' failure lists", async () => {
    const dir = path.join(temp.dir, 'lake', 'snapshots', 'market=us');
    const runs = path.join(temp.dir, 'runs', 'nightly-r1');
    await mkdir(dir, { recursive: true });
    await mkdir(runs, { recursive: true });
    await writeFile(path.join(dir, `${TEMP_PREFIX}a.parquet.999999999.aaaaaa`), 'orphan');
    await writeFile(path.join(dir, 'a.parquet'), 'published');
    await writeFile(path.join(runs, `${TEMP_PREFIX}failed-c1.ndjson.999999999.bbbbbb`), 'orphan');
    await writeFile(path.join(runs, 'failed-c0.ndjson'), 'published');
    const env = new MockActivityEnvironment();
    const heartbeats: unknown[] = [];
    env.on('heartbeat', (details: unknown) => heartbeats.push(details));

    const removed = await env.run(createMaintenanceActivities({ dataDir: temp.dir }).sweepLakeTempFiles);

    expect(removed).toBe(2);
    expect(heartbeats).toEqual(['sweeping']);
    expect(await readdir(dir)).toEqual(['a.parquet']);
    expect(await readdir(runs)).toEqual(['failed-c0.ndjson']);
  });

  it('when ensuring the catalog twice, then the second run is a no-op', async () => {
    const activities = createMaintenanceActivities({ dataDir: temp.dir });
    const env = new MockActivityEnvironment();
    const first: CatalogStatus = await env.run(activities.ensureCatalog);
    const second: CatalogStatus = await env.run(activities.ensureCatalog);
    expect(first.applied.length).toBeGreaterThan(0);
    expect(second.applied).toEqual([]);
  });

  it('when the activity is cancelled before it runs, then the cancellation surfaces to the caller', async () => {
    const env = new MockActivityEnvironment();
    const activities = createMaintenanceActivities({ dataDir: temp.dir });
    env.cancel();
    await expect(env.run(activities.sweepLakeTempFiles)).rejects.toThrow(/cancel/i);
  });
});
