/**
 * The API reads of one checkout with nothing published (bench/api-asof.bench.ts): how long the
 * event loop stalls when nothing happens. A running API follows the serving store
 * every 500 ms; the history index the serving store replaced was asked on each tick whether it
 * had changed and rebuilt a map over every lake file, so every route waited on it. Arguments:
 * the data dir, the root of the code to measure (this checkout or the baseline's), the seconds
 * to watch. Opens that checkout's reads as the API role does, waits until everything it
 * builds at start is built, then watches the idle loop and prints one JSON line.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const [dataDir, codeRoot, seconds] = process.argv.slice(2) as [string, string, string];
// A baseline checkout from before reads/ has them under warehouse/api-reads/.
const readsModule = pathToFileURL(
  [path.join(codeRoot, 'reads', 'api-reads.ts'), path.join(codeRoot, 'warehouse', 'api-reads', 'api-reads.ts')].find((p) => existsSync(p))!,
).href;
const { openApiReads } = (await import(readsModule)) as typeof import('../reads/api-reads.ts');
/** The baseline's reads also build a history index in a child process; this checkout's have none. */
type MaybeIndexed = { whenHistoryIndexed?: () => Promise<void> };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const reads = await openApiReads({ dataDir });
await (reads as unknown as MaybeIndexed).whenHistoryIndexed?.();
await sleep(2_000);

// Stalls seen by a 10 ms timer: how often the loop is held, not only the tail of the histogram.
const stalls: number[] = [];
let due = performance.now() + 10;
const probe = setInterval(() => {
  const late = performance.now() - due;
  if (late >= 5) stalls.push(late);
  due = performance.now() + 10;
}, 10);
const histogram = monitorEventLoopDelay({ resolution: 1 });
histogram.enable();
const utilization = performance.eventLoopUtilization();
const cpu = process.cpuUsage();
const windowMs = Number(seconds) * 1000;
await sleep(windowMs);
const used = process.cpuUsage(cpu);
const busyMs = performance.eventLoopUtilization(utilization).active;
histogram.disable();
clearInterval(probe);

console.log(
  JSON.stringify({
    seconds: Number(seconds),
    p50Ms: histogram.percentile(50) / 1e6,
    p99Ms: histogram.percentile(99) / 1e6,
    maxMs: histogram.max / 1e6,
    busyMs,
    cpuMs: (used.user + used.system) / 1000,
    stallsOver5Ms: stalls.length,
    stallsOver10Ms: stalls.filter((ms) => ms >= 10).length,
  }),
);
await reads.close();
process.exit(0);
