import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { ingestSource } from '../../sources/ingest.ts';
import { catalogPath } from '../../warehouse/lake-paths.ts';
import type { SnapshotStatus } from '../../warehouse/snapshot-schema.ts';
import { writeSnapshots } from '../../warehouse/snapshot-writer.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { snapshotRow } from './small-warehouse.ts';

const doc = readFileSync('docs/warehouse.md', 'utf8');
const queries = [...doc.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]!.trim());
const STATUSES: SnapshotStatus[] = ['compliant', 'non_compliant', 'questionable', 'compliant'];

describe('docs/warehouse.md worked queries', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeAll(async () => {
    temp = await makeTempDir();
    await ingestSource({ dataDir: temp.dir, source: 'sample', scale: 0.01, seed: 11, asOf: '2026-11-21', markets: ['us', 'my'] });
    const tickers = await withDuckDB(catalogPath(temp.dir), { readOnly: true }, async (c) =>
      (await c.runAndReadAll(`SELECT market, ticker FROM universe WHERE kind = 'stock' ORDER BY market, ticker`)).getRowObjectsJS(),
    );
    const rows = [...tickers, { market: 'us', ticker: 'ABCD' }].flatMap((t, i) =>
      ['2024-12-31', '2025-12-31', '2026-11-20'].map((date, k) =>
        snapshotRow(String(t.market), String(t.ticker), date, `${date}T02:00:00`, STATUSES[(i + k * (i % 3)) % STATUSES.length]!, {
          debt_to_market_cap: 0.25 + ((i * 7 + k) % 15) / 100,
        }),
      ),
    );
    // A ticker last screened in the legacy era (its verdict still carries the data-quality warning).
    rows.push(snapshotRow('my', 'WXYZ', '2025-12-31', '2026-01-01T02:00:00', 'compliant'));
    await writeSnapshots(temp.dir, rows, { fileStem: 'docs-test' });
  });
  afterAll(() => temp.cleanup());

  it('when the document is read, then it has at least ten SQL examples', () => {
    expect(queries.length).toBeGreaterThanOrEqual(10);
  });

  it.each(queries.map((q, i) => [i + 1, q] as const))('when worked query %i runs on the catalog, then it returns rows', async (_n, sql) => {
    const rows = await withDuckDB(catalogPath(temp.dir), { readOnly: true }, async (c) => (await c.runAndReadAll(sql)).getRowObjectsJS());
    expect(rows.length).toBeGreaterThan(0);
  });
});
