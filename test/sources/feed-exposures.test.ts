import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FeedValidationError } from '../../sources/feed/feed-validation.ts';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { ingestSource } from '../../sources/ingest.ts';
import { lakeRoot } from '../../warehouse/lake-paths.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { readSql, sql } from '../../warehouse/sql.ts';

const HEADER = 'market,ticker,as_of,activity,revenue_share,source_ref,evidence';

async function deliveryOf(dir: string, name: string, exposures: readonly string[]): Promise<string> {
  const folder = path.join(dir, name);
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, 'exposures.csv'), [HEADER, ...exposures].join('\n') + '\n');
  return folder;
}

describe("feed contract: 'none' exposures and their evidence", () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    temp = await makeTempDir();
  });
  afterEach(() => temp.cleanup());

  it("when a row says activity 'none' with revenue_share 0, then it is published as a review with no screened activity, with its evidence", async () => {
    const folder = await deliveryOf(temp.dir, 'reviewed', [
      'us,QZXB,2026-03-31,none,0,analyst:QZXB:2026,curated',
      'us,QZXA,2026-03-31,alcohol,0.048,vendor:QZXA:seg-2025,',
      'us,QZXA,2026-03-31,pork,0.021,vendor:QZXA:seg-2025,filing_concept',
    ]);

    expect((await ingestSource({ dataDir: temp.dir, source: 'feed', path: folder })).rows.exposures).toBe(3);

    const rows = await withDuckDB(':memory:', {}, async (c) =>
      (
        await readSql(
          c,
          sql`SELECT ticker, activity, revenue_share, evidence FROM read_parquet(${`${lakeRoot(temp.dir)}/exposures/market=us/feed-*.parquet`})
            ORDER BY ticker, activity`,
        )
      ).getRowObjectsJS(),
    );
    expect(rows).toEqual([
      { ticker: 'QZXA', activity: 'alcohol', revenue_share: 0.048, evidence: null },
      { ticker: 'QZXA', activity: 'pork', revenue_share: 0.021, evidence: 'filing_concept' },
      { ticker: 'QZXB', activity: 'none', revenue_share: 0, evidence: 'curated' },
    ]);
  });

  it("when a 'none' row has a revenue share, or evidence is not a known level, then each is rejected by line; a 'none' row beside a screened activity is a review that found only that", async () => {
    const folder = await deliveryOf(temp.dir, 'contradictions', [
      'us,QZXB,2026-03-31,none,0.2,analyst:QZXB:2026,',
      'us,QZXC,2026-03-31,none,0,analyst:QZXC:2026,',
      'us,QZXC,2026-03-31,gambling,0.4,vendor:QZXC:2026,',
      'us,QZXC,2025-03-31,gambling,0.4,vendor:QZXC:2025,',
      'us,QZXD,2026-03-31,alcohol,0.1,vendor:QZXD:2026,guess',
      'us,QZXE,2026-03-31,nothing,0,vendor:QZXE:2026,',
    ]);

    const error = await ingestSource({ dataDir: temp.dir, source: 'feed', path: folder }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(FeedValidationError);
    expect((error as FeedValidationError).errors.map((e) => `${e.file}:${e.line}: ${e.reason}`)).toEqual([
      "exposures.csv:2: activity 'none' (reviewed: no screened activity) needs revenue_share 0, got '0.2'",
      "exposures.csv:6: 'evidence' must be one of reported, filing_concept, retired_concept, filing_dimension, curated (docs/data/activities.md), got 'guess'",
      "exposures.csv:7: 'activity' must be an activity code (docs/data/activities.md), got 'nothing'",
    ]);
  });
});
