import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { withDuckDB } from '../warehouse/duckdb.ts';
import { partitionDir, partitionFile } from '../warehouse/lake-paths.ts';
import { publishFile } from '../warehouse/publish.ts';
import { sqlString } from '../warehouse/sql.ts';
import { makeTempDir } from '../test/support/temp-dir.ts';
import { describeMachine } from './machine.ts';

export interface PublishBench {
  files: number;
  rowsPerFile: number;
  seconds: number;
  filesPerSecond: number;
}

/** Atomic Parquet publishes per second (write via DuckDB, fsync, rename, fsync dir). */
export async function runPublishBench(files = 200, rowsPerFile = 10_000): Promise<PublishBench> {
  const temp = await makeTempDir('faithscreen-bench-publish-');
  try {
    const started = performance.now();
    await withDuckDB(':memory:', {}, async (c) => {
      for (let i = 0; i < files; i += 1) {
        const target = partitionFile(
          partitionDir(temp.dir, 'snapshots', [
            ['market', 'us'],
            ['year', '2026'],
          ]),
          `bench-${i}.parquet`,
        );
        await publishFile(target, async (tmp) => {
          await c.run(`COPY (SELECT range AS n FROM range(${rowsPerFile})) TO ${sqlString(tmp)} (FORMAT parquet)`);
        });
      }
    });
    const seconds = (performance.now() - started) / 1000;
    return { files, rowsPerFile, seconds, filesPerSecond: files / seconds };
  } finally {
    await temp.cleanup();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(describeMachine());
  const r = await runPublishBench();
  console.log(
    `publish: ${r.files} files × ${r.rowsPerFile} rows in ${r.seconds.toFixed(2)} s = ${r.filesPerSecond.toFixed(0)} atomic publishes/s`,
  );
}
