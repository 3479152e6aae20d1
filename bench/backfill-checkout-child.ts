/**
 * One checkout's month-end backfill bench in a process of its own (bench/backfill.bench.ts with
 * BACKFILL_BENCH_BASELINE): argument 1 the root of the code to measure (this checkout, or an
 * older one), argument 2 the sample scale. Runs that checkout's own `runBackfillBench` and
 * prints its figures as one JSON line, so two checkouts are measured by their own code on the
 * same machine in one run, each with its own CPU time and peak RSS.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [codeRoot, scale] = process.argv.slice(2) as [string, string];
const bench = (await import(pathToFileURL(path.join(codeRoot, 'bench', 'backfill.bench.ts')).href)) as typeof import('./backfill.bench.ts');
console.log(JSON.stringify(await bench.runBackfillBench(Number(scale))));
process.exit(0);
