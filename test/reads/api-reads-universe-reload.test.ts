import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiReads, type ApiReads } from '../../reads/api-reads.ts';
import { UniverseIndex } from '../../reads/api-reads-universe.ts';
import { publishSyntheticListings } from '../support/synthetic-listings.ts';
import { makeTempDir } from '../support/temp-dir.ts';

/**
 * Listings republished while the API runs (docs/serving.md, "Current verdicts"): the
 * universe index is rebuilt in a worker thread and swapped in; it answers exactly as an index
 * built on the event loop from the same listings. SYNTHETIC listings.
 */
const QUERIES = ['ka', 'kal', 'meri', 'ødqu', 'vel', 'dor is', 'L00', 'G0001', 'corp', 'x', 'neve', 'zzz'];

describe('the universe rebuilt off the event loop when listings are republished', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let reads: ApiReads;

  beforeAll(async () => {
    temp = await makeTempDir();
    await publishSyntheticListings(temp.dir, { market: 'us', count: 2_000, prefix: 'L', seed: 1 });
    reads = await openApiReads({ dataDir: temp.dir, followIntervalMs: 0 });
  }, 60_000);
  afterAll(async () => {
    await reads?.close();
    await temp?.cleanup();
  });

  const answers = (index: Pick<UniverseIndex, 'search'>) =>
    QUERIES.flatMap((q) => [null, 'us', 'gb'].map((market) => index.search(q, market, 10).map((l) => `${l.market}/${l.ticker}`)));

  it('when a listings file is published while the API runs, then search finds its listings after one sync, as an index built on the event loop would', async () => {
    expect(reads.stats()).toMatchObject({ listings: 2_000, universeRebuilds: 0 });
    expect(reads.listing('gb', 'G00001')).toBeUndefined();

    await publishSyntheticListings(temp.dir, { market: 'gb', count: 1_500, prefix: 'G', seed: 2 });
    await reads.sync();

    expect(reads.stats()).toMatchObject({ listings: 3_500, universeRebuilds: 1 });
    expect(reads.listing('gb', 'G00001')).toMatchObject({ market: 'gb', ticker: 'G00001', kind: 'stock' });
    expect(reads.listingCounts()).toEqual(
      new Map([
        ['gb', 1_500],
        ['us', 2_000],
      ]),
    );
    const onLoop = new UniverseIndex(reads.listings());
    const fromThread = answers({ search: (q, market, limit) => reads.search(q, market, limit) });
    expect(fromThread).toEqual(answers(onLoop));
    expect(fromThread.flat().length).toBeGreaterThan(100);
  });
});
