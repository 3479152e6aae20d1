/**
 * Listings republished while the API serves: the event loop's largest delay and busy time during
 * a universe reload, built on the event loop (as before) and in a worker thread (now), in one
 * run, turn about. `npx tsx bench/api-universe.bench.ts` (part of `npm run bench`;
 * `UNIVERSE_BENCH_LISTINGS`, default 30,000; `UNIVERSE_BENCH_ROUNDS`, default 4). The listings
 * are SYNTHETIC (generated names, one lake file per market, published through the lake writer).
 */
import os from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { describeMachine } from './machine.ts';
import { openApiReads } from '../reads/api-reads.ts';
import { openServingStore } from '../serving/open-serving-store.ts';
import { UniverseIndex } from '../reads/api-reads-universe.ts';
import { publishSyntheticListings } from '../test/support/synthetic-listings.ts';
import { makeTempDir } from '../test/support/temp-dir.ts';

export interface UniverseReloadFigures {
  way: 'event loop (before)' | 'worker thread (after)';
  /** Wall time from the start of the reload until the new index answers. */
  ms: number;
  /** Largest event-loop delay seen during it (what a request arriving then waited on top of its own work). */
  maxDelayMs: number;
  /** Time the event loop was busy during it (CPU on the main thread: the machine's load does not inflate it). */
  loopBusyMs: number;
}

export interface UniverseBenchResult {
  listings: number;
  rounds: UniverseReloadFigures[];
  loadAverage: number[];
}

const MARKETS = ['us', 'gb', 'de', 'jp', 'ca'];

/** Runs `work` while sampling the event loop's delay (1 ms resolution) and busy time. */
async function observe(way: UniverseReloadFigures['way'], work: () => Promise<void>): Promise<UniverseReloadFigures> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  // A 1 ms timer as a second probe: the largest gap between its ticks, beyond the 1 ms asked.
  let last = performance.now();
  let maxGap = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last - 1);
    last = now;
  }, 1);
  delay.enable();
  const elu = performance.eventLoopUtilization();
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  // A few turns more: a timer due during a block fires (and is measured) only once the block is over.
  await new Promise((resolve) => setTimeout(resolve, 20));
  const busy = performance.eventLoopUtilization(elu);
  delay.disable();
  clearInterval(probe);
  return { way, ms, maxDelayMs: Math.max(delay.max / 1e6, maxGap), loopBusyMs: busy.active };
}

export async function runApiUniverseBench(
  listings = Number(process.env.UNIVERSE_BENCH_LISTINGS ?? 30_000),
  roundCount = Number(process.env.UNIVERSE_BENCH_ROUNDS ?? 4),
): Promise<UniverseBenchResult> {
  const temp = await makeTempDir('faithscreen-universe-bench-');
  const loadAverage = [os.loadavg()[0]!];
  try {
    const perMarket = Math.ceil(listings / MARKETS.length);
    for (const [i, market] of MARKETS.entries())
      await publishSyntheticListings(temp.dir, { market, count: perMarket, prefix: market.toUpperCase(), seed: i + 1 });
    const reads = await openApiReads({ dataDir: temp.dir, followIntervalMs: 0 });
    const store = await openServingStore({ dataDir: temp.dir });
    const rounds: UniverseReloadFigures[] = [];
    try {
      for (let round = 0; round < roundCount; round += 1) {
        // Before: the listings read from the store, then the index built on the event loop.
        rounds.push(
          await observe('event loop (before)', async () => {
            const index = new UniverseIndex(await store.listings());
            if (index.size !== MARKETS.length * perMarket) throw new Error(`universe bench: ${index.size} listings`);
          }),
        );
        // After: a republished listings file (same rows, a new name), picked up by the reads' next sync (its listings version moved).
        await publishSyntheticListings(temp.dir, {
          market: 'us',
          count: perMarket,
          prefix: 'US',
          seed: 1,
          fileName: `republished-${round}.parquet`,
        });
        const rebuildsBefore = reads.stats().universeRebuilds;
        rounds.push(await observe('worker thread (after)', () => reads.sync()));
        if (reads.stats().universeRebuilds !== rebuildsBefore + 1)
          throw new Error('universe bench: the republish was not rebuilt in the thread');
      }
    } finally {
      await store.close();
      await reads.close();
    }
    loadAverage.push(os.loadavg()[0]!);
    return { listings: MARKETS.length * perMarket, rounds, loadAverage };
  } finally {
    await temp.cleanup();
  }
}

export function formatApiUniverseBench(result: UniverseBenchResult): string[] {
  const lines = [
    `[api universe] listings republished while serving: ${result.listings.toLocaleString('en')} SYNTHETIC listings in ${MARKETS.length} markets, ` +
      `load average ${result.loadAverage.map((l) => l.toFixed(1)).join(' → ')}`,
  ];
  for (const way of ['event loop (before)', 'worker thread (after)'] as const) {
    const rounds = result.rounds.filter((r) => r.way === way);
    const list = (pick: (r: UniverseReloadFigures) => number) => rounds.map((r) => pick(r).toFixed(0)).join(' / ');
    lines.push(
      `[api universe]   ${way}: reload ${list((r) => r.ms)} ms; max event-loop delay ${list((r) => r.maxDelayMs)} ms; ` +
        `event loop busy ${list((r) => r.loopBusyMs)} ms`,
    );
  }
  return lines;
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  console.log(describeMachine());
  for (const line of formatApiUniverseBench(await runApiUniverseBench())) console.log(line);
}
