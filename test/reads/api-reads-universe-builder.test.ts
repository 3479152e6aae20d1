import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UniverseBuilder } from '../../reads/api-reads-universe-builder.ts';
import { publishSyntheticListings } from '../support/synthetic-listings.ts';
import { makeTempDir } from '../support/temp-dir.ts';

/**
 * The universe index rebuilt in a worker thread (docs/serving.md, "Current verdicts")
 * when the API reads close while a reload is under way. SYNTHETIC listings.
 */
describe('the universe builder closing during a reload', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;

  beforeAll(async () => {
    temp = await makeTempDir();
    await publishSyntheticListings(temp.dir, { market: 'us', count: 2_000, prefix: 'L', seed: 1 });
  }, 60_000);
  afterAll(() => temp?.cleanup());

  it('when closed with a rebuild running and another reload still to reach it, then the running one finishes, the late one is refused, and no thread is left', async () => {
    const builder = new UniverseBuilder();
    const running = builder.build({ dataDir: temp.dir });
    expect(builder.threads()).toBe(1);

    const closed = builder.close();
    // A reload whose listings scan was in flight when the reads closed reaches the builder after close.
    const late = builder.build({ dataDir: temp.dir });

    await expect(late).rejects.toThrow('the universe index is not rebuilt: the API reads are closing');
    const index = await running;
    expect(index.search('L0', null, 5)).toHaveLength(5);
    await closed;
    // At once, not after the thread's idle timeout.
    expect(builder.threads()).toBe(0);
    await expect(builder.close()).resolves.toBeUndefined();
  });

  it('when a build is done, then its thread has already ended: nothing of it is kept while the API serves', async () => {
    const builder = new UniverseBuilder();
    const index = await builder.build({ dataDir: temp.dir });
    expect(index.search('L0', null, 5)).toHaveLength(5);
    expect(builder.threads()).toBe(0);
    // The next build starts a thread of its own.
    const next = builder.build({ dataDir: temp.dir });
    expect(builder.threads()).toBe(1);
    await next;
    await builder.close();
  });

  it('when closed with no rebuild ever run, then a later reload starts no thread', async () => {
    const builder = new UniverseBuilder();
    await builder.close();
    await expect(builder.build({ dataDir: temp.dir })).rejects.toThrow('the API reads are closing');
    expect(builder.threads()).toBe(0);
  });
});
