import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CurrentLoader } from '../../warehouse/api-reads/api-reads-loader.ts';
import { CurrentStore, dayString } from '../../warehouse/api-reads/api-reads-store.ts';
import { publishTickerFile } from '../support/synthetic-snapshots.ts';
import { makeTempDir } from '../support/temp-dir.ts';

/**
 * The current verdicts read from many files a query at a time (the first start of a long
 * history) are those of one query over every file. SYNTHETIC snapshots.
 */

let temp: Awaited<ReturnType<typeof makeTempDir>>;
/** Newest first, so that a later query meets older rows and the earliest first days. */
const DATES = ['2024-05-31', '2024-04-30', '2024-03-31', '2024-02-29', '2024-01-31'];
const files: string[] = [];

/** Each ticker's current row as the API serves it, with its first day and file. */
function contents(store: CurrentStore): unknown[] {
  return [...store.tickers('us')].sort().map((ticker) => {
    const id = store.latest('us', ticker)!;
    return { ticker, row: store.decode(id, 'us', ticker), first: dayString(store.firstDay('us', ticker)!), file: store.fileOf(id) };
  });
}

beforeAll(async () => {
  temp = await makeTempDir();
  // Older files hold more tickers: T8…T11 are current only in an old file, and every ticker's first day is in the last.
  for (const [i, date] of DATES.entries()) files.push(await publishTickerFile(temp.dir, date, 8 + i, `loader-${date}`));
});
afterAll(() => temp.cleanup());

describe('the current verdicts read a few files a query', () => {
  it('when files are read two a query, then every ticker has the row, first day and file one query over all of them gives', async () => {
    const whole = new CurrentLoader();
    const batched = new CurrentLoader(2);
    try {
      const one = new CurrentStore();
      const many = new CurrentStore();
      await whole.load(files, one);
      await batched.load(files, many);
      expect([whole.queries, batched.queries]).toEqual([1, 3]);
      expect(many.size).toBe(12);
      expect(contents(many)).toEqual(contents(one));
      expect(contents(many)[0]).toMatchObject({ ticker: 'T0', row: { snapshotDate: '2024-05-31' }, first: '2024-01-31' });
      expect(contents(many).find((r) => (r as { ticker: string }).ticker === 'T11')).toMatchObject({
        row: { snapshotDate: '2024-01-31' },
        first: '2024-01-31',
      });
    } finally {
      await Promise.all([whole.close(), batched.close()]);
    }
  });
});
