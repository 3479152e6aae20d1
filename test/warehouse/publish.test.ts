import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withDuckDB } from '../../warehouse/duckdb.ts';
import { partitionDir, partitionFile, tableGlob } from '../../warehouse/lake-paths.ts';
import { publishFile, sweepTempFiles, TEMP_PREFIX, tempFileOwner } from '../../warehouse/publish.ts';
import { readSql, sql, sqlString } from '../../warehouse/sql.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const ROWS = 50_000;

async function writeParquet(target: string, writer: number): Promise<void> {
  await withDuckDB(':memory:', { threads: 1 }, (c) =>
    // A COPY target cannot be bound (see copyToParquetSql): quoted.
    c.run(`COPY (SELECT range AS n, ${writer} AS writer FROM range(${ROWS})) TO ${sqlString(target)} (FORMAT parquet)`),
  );
}

describe('publishFile', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    temp = await makeTempDir();
  });
  afterEach(() => temp.cleanup());

  it('when eight writers publish the same file concurrently while a reader polls, then every read sees one complete version', async () => {
    const dir = partitionDir(temp.dir, 'snapshots', [
      ['market', 'us'],
      ['year', '2026'],
    ]);
    const target = partitionFile(dir, 'nightly-chunk-0001.parquet');
    const glob = tableGlob(temp.dir, 'snapshots');
    let writing = true;
    const observed: Array<{ rows: number; writers: number }> = [];
    const reader = withDuckDB(':memory:', { threads: 1 }, async (c) => {
      while (writing) {
        const files = await readdir(dir).catch(() => []);
        if (files.some((f) => f.endsWith('.parquet'))) {
          const result = await readSql(
            c,
            sql`SELECT count(*)::INT AS rows, count(DISTINCT writer)::INT AS writers FROM read_parquet(${glob})`,
          );
          observed.push(result.getRowObjectsJson()[0] as { rows: number; writers: number });
        }
        await new Promise((r) => setTimeout(r, 2));
      }
    });

    await Promise.all(Array.from({ length: 8 }, (_, writer) => publishFile(target, (tmp) => writeParquet(tmp, writer))));
    writing = false;
    await reader;

    expect(observed.length).toBeGreaterThan(0);
    for (const read of observed) expect(read).toEqual({ rows: ROWS, writers: 1 });
    expect((await readdir(dir)).filter((f) => f.startsWith(TEMP_PREFIX))).toEqual([]);
    expect(await readdir(dir)).toEqual(['nightly-chunk-0001.parquet']);
  });

  it('when a retry publishes the same name again, then it replaces the file instead of adding one', async () => {
    const target = path.join(temp.dir, 'lake', 'listings', 'market=us', 'part-0.parquet');
    await publishFile(target, (tmp) => writeFile(tmp, 'first'));
    await publishFile(target, (tmp) => writeFile(tmp, 'second'));
    expect(await readFile(target, 'utf8')).toBe('second');
    expect(await readdir(path.dirname(target))).toEqual(['part-0.parquet']);
  });

  it('when the write fails, then nothing is published and the temp file is removed', async () => {
    const target = path.join(temp.dir, 'out', 'x.parquet');
    await expect(
      publishFile(target, async (tmp) => {
        await writeFile(tmp, 'partial');
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    expect(await readdir(path.dirname(target))).toEqual([]);
  });

  it('when the process is killed between write and rename, then readers see the old file and the sweep removes the orphan', async () => {
    const dir = partitionDir(temp.dir, 'prices', [['market', 'gb']]);
    const target = partitionFile(dir, 'part-0.parquet');
    await publishFile(target, (tmp) => writeParquet(tmp, 1));
    // A child process writes a new version to a temp file, then dies before renaming it.
    const script = `
      import { writeFile } from 'node:fs/promises';
      import { tempNameFor } from ${JSON.stringify(path.resolve('warehouse/publish.ts'))};
      const tmp = tempNameFor(${JSON.stringify(target)});
      await writeFile(tmp, 'half-written parquet');
      process.kill(process.pid, 'SIGKILL');`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: 'inherit' });
    const signal = await new Promise((resolve) => child.once('exit', (_code, sig) => resolve(sig)));
    expect(signal).toBe('SIGKILL');

    const orphans = (await readdir(dir)).filter((f) => f.startsWith(TEMP_PREFIX));
    expect(orphans).toHaveLength(1);
    expect(tempFileOwner(orphans[0]!)).toBe(child.pid);
    const rows = await withDuckDB(
      ':memory:',
      {},
      async (c) =>
        (
          await readSql(c, sql`SELECT count(*)::INT AS n, min(writer)::INT AS w FROM read_parquet(${tableGlob(temp.dir, 'prices')})`)
        ).getRowObjectsJson()[0],
    );
    expect(rows).toEqual({ n: ROWS, w: 1 });

    expect(await sweepTempFiles(path.join(temp.dir, 'lake'))).toBe(1);
    expect(await readdir(dir)).toEqual(['part-0.parquet']);
  });

  it('when a live process owns a temp file, then the sweep leaves it alone', async () => {
    const dir = path.join(temp.dir, 'lake', 'x');
    await publishFile(path.join(dir, 'a.parquet'), (tmp) => writeFile(tmp, 'a'));
    const live = path.join(dir, `${TEMP_PREFIX}b.parquet.${process.pid}.abcdef`);
    await writeFile(live, 'in flight');
    expect(await sweepTempFiles(path.join(temp.dir, 'lake'))).toBe(0);
    expect(await readdir(dir)).toContain(path.basename(live));
  });
});

describe('lake paths', () => {
  it('when a partition value could escape the lake, then it is refused', () => {
    expect(() => partitionDir('/d', 'listings', [['market', '../etc']])).toThrow(/invalid partition/);
    expect(() => partitionFile('/d', '../x.parquet')).toThrow(/invalid lake file name/);
  });
});
