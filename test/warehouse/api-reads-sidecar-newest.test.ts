import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSidecar, type SidecarIndex } from '../../warehouse/api-reads/api-reads-sidecar-build.ts';
import { dayNumber } from '../../engine/dates.ts';
import { writeSnapshots } from '../../warehouse/snapshot-writer.ts';
import { hashedStatuses, syntheticSnapshotRow } from '../support/synthetic-snapshots.ts';
import { makeTempDir } from '../support/temp-dir.ts';

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let file: string;

/** Rows of a backfill's year file: every month end of 2025 for T0…T3, and T1 screened twice on the last day. */
function yearFileRows() {
  const dates = ['2025-01-31', '2025-06-30', '2025-12-31'];
  const rows = dates.flatMap((date) => ['T0', 'T1', 'T2', 'T3'].map((ticker) => ({ ticker, date, at: `${date}T10:00:00.000Z` })));
  rows.push({ ticker: 'T1', date: '2025-12-31', at: '2025-12-31T18:00:00.000Z' });
  return rows.map(({ ticker, date, at }, i) =>
    syntheticSnapshotRow({
      market: 'us',
      ticker,
      date,
      screenedAt: at,
      runId: 'backfill-test',
      resultJson: JSON.stringify({ ticker, date, at }),
      status: hashedStatuses(i * 7919),
      ratio: () => 0.1,
    }),
  );
}

beforeAll(async () => {
  temp = await makeTempDir();
  const written = await writeSnapshots(temp.dir, yearFileRows(), { fileStem: 'backfill-year' });
  file = path.join(temp.dir, written.files[0]!);
});
afterAll(() => temp.cleanup());

describe('a point-read sidecar holds current verdicts only', () => {
  it('when a file holds several dates of a ticker, then the sidecar holds its newest row alone (the latest screen of the newest day), for wanted tickers only', async () => {
    const binPath = path.join(temp.dir, 'sidecar.bin');
    const indexPath = path.join(temp.dir, 'sidecar.json');
    const built = await buildSidecar({ dataDir: temp.dir, file, tickers: ['T0', 'T1', 'T3'], binPath, indexPath });
    const index = JSON.parse(readFileSync(indexPath, 'utf8')) as SidecarIndex;
    const december = dayNumber('2025-12-31');
    expect(built.rows).toBe(3);
    expect(index.rows.map(([ticker, day, atMs]) => [ticker, day, atMs]).sort()).toEqual([
      ['T0', december, Date.parse('2025-12-31T10:00:00.000Z')],
      ['T1', december, Date.parse('2025-12-31T18:00:00.000Z')],
      ['T3', december, Date.parse('2025-12-31T10:00:00.000Z')],
    ]);
  });
});
