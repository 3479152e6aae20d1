/**
 * One API role of this checkout over a lake, in a process of its own (bench/api-asof.bench.ts):
 * its memory and CPU time are its own. Older snapshots come from the serving store
 * (docs/serving.md, "The serving store"), which the start first brings up to the lake (copying
 * the files it does not hold: none when the store was written at publish, every file after an
 * upgrade). Arguments: the data dir, the path of the sample as_of the bare route answers, and
 * the (market, ticker, day) lookups to time without HTTP. Prints one JSON line when it serves,
 * then answers `cpu` on stdin with its CPU time and `exit` with its final figures.
 *
 * The baseline checkout's own child (its `bench/api-asof-child.ts`, mode `index`) speaks the
 * same lines, so the bench drives both the same way.
 */
import { createServer } from 'node:http';
import os from 'node:os';
import { createInterface } from 'node:readline';
import pino from 'pino';
import { createApp } from '../api/app.ts';
import { createMetrics } from '../api/metrics.ts';
import { unavailableRefresher } from '../api/refresher.ts';
import { openApiReads } from '../reads/api-reads.ts';
import { listen } from '../test/support/http.ts';
import { openBenchAccess } from './bench-access.ts';

const [dataDir, sample, lookupsJson] = process.argv.slice(2) as [string, string, string];
/** (market, ticker, day) triples for the lookup alone, without HTTP. */
const lookups = JSON.parse(lookupsJson) as Array<[string, string, string]>;
const rssMiB = () => process.memoryUsage().rss / 2 ** 20;
const cpuMs = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};

const started = performance.now();
const reads = await openApiReads({ dataDir });
const readySeconds = (performance.now() - started) / 1000;
const rssAtReadyMiB = rssMiB();
// Nothing is built after ready (the start reads the store); the baseline's child reports its index build here.
const builtSeconds = readySeconds;
global.gc?.();

// The lookup alone, without HTTP: sequential `asOf` calls, each a different (ticker, day).
const lookupTimes: number[] = [];
const lookupCpuBefore = cpuMs();
for (const [market, ticker, day] of lookups) {
  const t0 = performance.now();
  await reads.asOf(market, ticker, day);
  lookupTimes.push(performance.now() - t0);
}
lookupTimes.sort((a, b) => a - b);
const lookup = {
  count: lookups.length,
  p50Ms: lookupTimes[Math.floor(lookupTimes.length / 2)] ?? 0,
  p99Ms: lookupTimes[Math.floor(lookupTimes.length * 0.99)] ?? 0,
  cpuMsPer1000: ((cpuMs() - lookupCpuBefore) / Math.max(1, lookups.length)) * 1000,
};

const { access, key, close: closeAccess } = await openBenchAccess();
const headers = { 'X-API-Key': key };
const api = await listen(
  createApp({
    logger: pino({ level: 'info' }, pino.destination({ dest: os.devNull, sync: false })),
    metrics: createMetrics(),
    readiness: {},
    screen: { reads, refresher: unavailableRefresher, cache: { freshDays: 1, staleWhileRevalidateDays: 7 } },
    accessControl: access.middleware,
  }),
);
// The bare route: a plain node `http` server answering the body of one as_of from memory.
const body = await (await fetch(`${api.url}${sample}`, { headers })).text();
const bare = createServer((_, response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(body);
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const address = bare.address();
const bareUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

const sync = reads.stats().servingSync;
console.log(
  JSON.stringify({
    url: api.url,
    bareUrl,
    key,
    readySeconds,
    builtSeconds,
    rssAtReadyMiB,
    rssBuiltMiB: rssMiB(),
    sampleBytes: body.length,
    lookup,
    servingSync: sync && { lakeFiles: sync.lakeFiles, filesCopied: sync.filesCopied, rowsCopied: sync.rowsCopied, ms: sync.ms },
  }),
);
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'cpu') console.log(JSON.stringify({ cpuMs: cpuMs(), rssMiB: rssMiB() }));
  if (line === 'exit') break;
}
console.log(
  JSON.stringify({
    rssMiB: rssMiB(),
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
    historyQueries: reads.stats().historyReads,
    historyIndex: null,
  }),
);
bare.close();
await api.close();
await reads.close();
await closeAccess();
process.exit(0);
