import { existsSync } from 'node:fs';
/**
 * One API role's reads over a lake, in a process of its own so its memory is its own
 * (bench/api-history.bench.ts). Argument 1: the data dir; argument 2: the root of the code to
 * measure (this checkout, or an older one for the baseline). Prints one JSON line of figures.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [dataDir, codeRoot, probesJson, publishJson] = process.argv.slice(2) as [string, string, string, string];
const probes = JSON.parse(probesJson) as Array<{ market: string; ticker: string; date: string }>;
const publish = JSON.parse(publishJson) as { date: string; tickers: number; rounds: number } | null;
// The baseline checkout may predate reads/ (its reads were warehouse/api-reads/ or warehouse/api-reads.ts).
const readsModule = [
  path.join(codeRoot, 'reads', 'api-reads.ts'),
  path.join(codeRoot, 'warehouse', 'api-reads', 'api-reads.ts'),
  path.join(codeRoot, 'warehouse', 'api-reads.ts'),
].find((p) => existsSync(p))!;
const { openApiReads } = (await import(pathToFileURL(readsModule).href)) as typeof import('../reads/api-reads.ts');

const started = performance.now();
// The API role's own settings: following the lake as in production (the baseline rescans it every 2 s).
// A publish is visible once the last market's file (m19, written last) is served.
const reads = await openApiReads({ dataDir });
const readySeconds = (performance.now() - started) / 1000;
const rssAtReadyMiB = process.memoryUsage().rss / 2 ** 20;

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
/** Event-loop delay (what every request waits on top of its own work) over `ms`, while `during` runs. */
/**
 * Also the event loop's busy time over the window (`eventLoopUtilization().active`): main-thread
 * work, which a busy machine's scheduler does not inflate the way it inflates the delays.
 */
async function loopDelay(during: () => Promise<void>): Promise<{ p99Ms: number; maxMs: number; busyMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const utilization = performance.eventLoopUtilization();
  await during();
  const busyMs = performance.eventLoopUtilization(utilization).active;
  histogram.disable();
  return { p99Ms: histogram.percentile(99) / 1e6, maxMs: histogram.max / 1e6, busyMs };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const perMarket = Math.max(1, Math.ceil((publish?.tickers ?? 124_000) / 20));

/**
 * Paced reads while `during` runs: every 2 ms (500 a second) one cached screen read's data
 * work — a ticker's current verdict and its stored result (a keyed read of the serving store)
 * — each a different ticker, timed from its scheduled start (no coordinated
 * omission). In process, not over HTTP: what a publish costs the reads themselves.
 */
async function pacedReads(
  during: Promise<void>,
): Promise<{ reads: number; errors: number; p50Ms: number; p99Ms: number; maxMs: number; cpuMs: number }> {
  const latencies: number[] = [];
  let errors = 0;
  let done = false;
  void during.finally(() => (done = true));
  const cpu = process.cpuUsage();
  const start = performance.now();
  const inFlight: Array<Promise<void>> = [];
  for (let n = 0; !done; n += 1) {
    const due = start + n * 2;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const market = `m${String(n % 20).padStart(2, '0')}`;
    const ticker = `S${String((n * 7919) % perMarket).padStart(5, '0')}`;
    inFlight.push(
      (async () => {
        try {
          const row = reads.current(market, ticker);
          if (row) await reads.storedResults([row]);
          latencies.push(Math.max(0, performance.now() - due));
        } catch {
          errors += 1;
        }
      })(),
    );
  }
  await Promise.all(inFlight);
  const used = process.cpuUsage(cpu);
  latencies.sort((a, b) => a - b);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  return {
    reads: latencies.length,
    errors,
    p50Ms: q(0.5),
    p99Ms: q(0.99),
    maxMs: latencies.at(-1) ?? 0,
    cpuMs: (used.user + used.system) / 1000,
  };
}

let quietReads: Awaited<ReturnType<typeof pacedReads>> | null = null;
let publishingReads: Awaited<ReturnType<typeof pacedReads>> | null = null;
const quiet = await loopDelay(async () => {
  quietReads = await pacedReads(sleep(3_000));
});
const visibleMs: number[] = [];
const publishing = publish
  ? await loopDelay(async () => {
      let finished = () => {};
      const window = new Promise<void>((resolve) => (finished = resolve));
      const paced = pacedReads(window);
      const here = path.dirname(fileURLToPath(import.meta.url));
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          path.join(here, 'api-history-publisher.ts'),
          dataDir,
          codeRoot,
          publish.date,
          String(publish.tickers),
          String(publish.rounds),
        ],
        {
          cwd: codeRoot,
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      const waits: Array<Promise<void>> = [];
      for await (const screenedAt of createInterface({ input: child.stdout })) {
        const published = performance.now();
        waits.push(
          (async () => {
            while (reads.current('m19', 'S00000')?.screenedAt !== screenedAt.replace(/Z$/, '') && performance.now() - published < 10_000)
              await sleep(20);
            visibleMs.push(performance.now() - published);
          })(),
        );
      }
      await Promise.all(waits);
      await sleep(2_500);
      finished();
      publishingReads = await paced;
    })
  : null;

const stats = reads.stats();
// A baseline checkout's stats predate the serving store: its fields are absent there.
const sync = stats.servingSync ?? null;
console.log(
  JSON.stringify({
    readySeconds,
    rssAtReadyMiB,
    rssAfterMiB: process.memoryUsage().rss / 2 ** 20,
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
    heldSnapshots: stats.snapshots,
    currentRowsRead: stats.currentRowsRead,
    servingSync: sync && { lakeFiles: sync.lakeFiles, filesCopied: sync.filesCopied, rowsCopied: sync.rowsCopied, ms: sync.ms },
    asOf: { probes: probes.length, found, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: times.at(-1) ?? 0 },
    loopDelay: { quiet, publishing },
    pacedReads: { quiet: quietReads, publishing: publishingReads },
    visibleMs,
  }),
);
await reads.close();
process.exit(0);
