/**
 * One API role's reads over a lake, in a process of its own so its memory is its own
 * (bench/api-history.bench.ts). Argument 1: the data dir; argument 2: the root of the code to
 * measure (this checkout, or an older one for the baseline). Prints one JSON line of figures.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [dataDir, codeRoot, probesJson] = process.argv.slice(2) as [string, string, string];
const probes = JSON.parse(probesJson) as Array<{ market: string; ticker: string; date: string }>;
const { openApiReads } = (await import(pathToFileURL(path.join(codeRoot, 'warehouse', 'api-reads.ts')).href)) as typeof import('../warehouse/api-reads.ts');

const started = performance.now();
// followIntervalMs (scanIntervalMs in the baseline code): nothing runs between the measurements.
const reads = await openApiReads({ dataDir, followIntervalMs: 0, scanIntervalMs: 0 } as Parameters<typeof openApiReads>[0]);
const readySeconds = (performance.now() - started) / 1000;
const rssAtReadyMiB = process.memoryUsage().rss / 2 ** 20;
await reads.whenSidecarsBuilt();
const sidecarsSeconds = (performance.now() - started) / 1000;

// as_of over the probes: spread over tickers and dates, each a different (ticker, date).
const times: number[] = [];
let found = 0;
for (const probe of probes) {
  const t0 = performance.now();
  const lookup = await reads.asOf(probe.market, probe.ticker, probe.date);
  times.push(performance.now() - t0);
  if (lookup.found && lookup.row.snapshotDate <= probe.date) found += 1;
}
times.sort((a, b) => a - b);
const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
const stats = reads.stats();
console.log(
  JSON.stringify({
    readySeconds,
    sidecarsSeconds,
    rssAtReadyMiB,
    rssAfterMiB: process.memoryUsage().rss / 2 ** 20,
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
    heldSnapshots: stats.snapshots,
    snapshotFiles: stats.snapshotFiles,
    asOf: { probes: probes.length, found, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: times.at(-1) ?? 0 },
  }),
);
await reads.close();
process.exit(0);
