/**
 * The figures of bench/api-asof.bench.ts (this checkout's serving store against a baseline
 * checkout's history index) and their printed lines.
 */
import type { PacedLoadFigures } from './paced-load.ts';

export interface AsOfRun {
  ratePerSecond: number;
  asOf: PacedLoadFigures;
  /** CPU time of the API process (all threads) per 1,000 as_of requests, ms. */
  cpuMsPer1000: number;
  bare: PacedLoadFigures;
}

export interface AsOfStart {
  readySeconds: number;
  /** From start until what the start builds after ready is built (the baseline's history index; this checkout builds nothing after ready). */
  builtSeconds: number;
  rssAtReadyMiB: number;
  rssBuiltMiB: number;
  maxRssMiB: number;
  /** Peak RSS of the baseline's history index builder process (its memory, not the API's); 0 when none ran. */
  builderMaxRssMiB: number;
  /** This checkout: what the start's copy of lake files into the serving store did (null for the baseline). */
  servingSync: { lakeFiles: number; filesCopied: number; rowsCopied: number; ms: number } | null;
  /** `ApiReads.asOf` alone, sequential calls without HTTP (count 0: not run). */
  lookup: { count: number; p50Ms: number; p99Ms: number; cpuMsPer1000: number };
}

/** A restart with as_of alone and the paced loads. */
export interface Loaded {
  start: AsOfStart;
  runs: AsOfRun[];
  /** Reads of older snapshots: from the serving store (this checkout), lake queries (the baseline). */
  historyReads: number;
}

/** The event loop of the reads with nothing published (bench/api-idle-loop-child.ts). */
export interface IdleLoop {
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  busyMs: number;
  cpuMs: number;
  stallsOver5Ms: number;
  stallsOver10Ms: number;
}

export interface AsOfSizeFigures {
  fraction: number;
  dates: number;
  snapshots: number;
  files: number;
  /** Writing the lake through the lake writer, this checkout's serving store included. */
  writeSeconds: number;
  /** 1-, 5- and 15-minute load averages of the machine when this size's measurements began and ended. */
  loadAverage: { atStart: [number, number, number]; atEnd: [number, number, number] };
  serving: { servingBytes: number; firstStart: AsOfStart; upgradeStart: AsOfStart; loaded: Loaded; idle: IdleLoop };
  baseline: { root: string; indexBytes: number | null; firstStart: AsOfStart; loaded: Loaded; idle: IdleLoop } | null;
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

function load(f: PacedLoadFigures): string {
  return `p50 ${f.p50Ms.toFixed(1)} ms, p99 ${f.p99Ms.toFixed(1)} ms, max ${f.maxMs.toFixed(0)} ms, ${f.completed}/${f.sent} answered, ${f.errors} errors`;
}

function start(s: AsOfStart): string {
  const sync = s.servingSync;
  return (
    `ready ${s.readySeconds.toFixed(1)} s (built at ${s.builtSeconds.toFixed(1)} s), RSS ${s.rssAtReadyMiB.toFixed(0)} MiB at ready / ` +
    `${s.rssBuiltMiB.toFixed(0)} MiB built / peak ${s.maxRssMiB.toFixed(0)} MiB` +
    (s.builderMaxRssMiB > 0 ? ` (history index builder process, apart: peak ${s.builderMaxRssMiB.toFixed(0)} MiB)` : '') +
    (sync
      ? `; serving store sync: ${sync.filesCopied.toLocaleString('en')} of ${sync.lakeFiles.toLocaleString('en')} lake files copied ` +
        `(${sync.rowsCopied.toLocaleString('en')} rows) in ${(sync.ms / 1000).toFixed(1)} s`
      : '') +
    (s.lookup.count > 0
      ? `; asOf() alone, ${s.lookup.count} sequential: p50 ${s.lookup.p50Ms.toFixed(2)} ms, p99 ${s.lookup.p99Ms.toFixed(2)} ms, ` +
        `CPU ${s.lookup.cpuMsPer1000.toFixed(0)} ms per 1,000`
      : '')
  );
}

function loaded(label: string, r: Loaded): string[] {
  return [
    `[api-asof]   ${label}, restart: ${start(r.start)}; ${r.historyReads} ${label.startsWith('BASELINE') ? 'lake queries' : 'serving store reads'} in all`,
    ...r.runs.map((run) => {
      const target = 3 * run.bare.p99Ms + 1;
      return (
        `[api-asof]     ${run.ratePerSecond} req/s: as_of ${load(run.asOf)}, CPU ${run.cpuMsPer1000} ms per 1,000; ` +
        `bare ${load(run.bare)}; p99 ÷ bare p99 = ${(run.asOf.p99Ms / Math.max(0.001, run.bare.p99Ms)).toFixed(1)}; ` +
        `target p99 ≤ ${target.toFixed(1)} ms: ${run.asOf.p99Ms <= target && run.asOf.errors === 0 ? 'met' : 'NOT met'}`
      );
    }),
  ];
}

function idle(label: string, i: IdleLoop): string {
  return (
    `[api-asof]   ${label}, nothing published for ${i.seconds} s: event-loop delay p50 ${i.p50Ms.toFixed(1)} ms, ` +
    `p99 ${i.p99Ms.toFixed(1)} ms, max ${i.maxMs.toFixed(1)} ms; stalls ≥ 5 ms ${i.stallsOver5Ms}, ≥ 10 ms ${i.stallsOver10Ms}; ` +
    `loop busy ${i.busyMs.toFixed(0)} ms, CPU ${i.cpuMs.toFixed(0)} ms`
  );
}

export function formatApiAsOfBench(sizes: AsOfSizeFigures[]): string[] {
  return sizes.flatMap((s) => [
    `[api-asof] SYNTHETIC lake, ${(s.fraction * 100).toFixed(0)} % of month-end history from 2009: ${s.dates} dates, ` +
      `${s.snapshots.toLocaleString('en')} snapshots in ${s.files.toLocaleString('en')} files (written through the lake writer, ` +
      `serving store included, in ${s.writeSeconds.toFixed(0)} s); serving.db ${mib(s.serving.servingBytes)}` +
      (s.baseline ? `; baseline history index ${s.baseline.indexBytes === null ? 'absent' : mib(s.baseline.indexBytes)}` : '') +
      `; load average ${s.loadAverage.atStart.join(' / ')} at the start, ${s.loadAverage.atEnd.join(' / ')} at the end (1 / 5 / 15 min)`,
    `[api-asof]   serving store, first start (no saved verdicts, store written at publish): ${start(s.serving.firstStart)}`,
    ...(s.baseline
      ? [`[api-asof]   BASELINE ${s.baseline.root}, first start (no saved verdicts, no index): ${start(s.baseline.firstStart)}`]
      : []),
    ...loaded('serving store', s.serving.loaded),
    ...(s.baseline ? loaded('BASELINE history index', s.baseline.loaded) : []),
    idle('serving store', s.serving.idle),
    ...(s.baseline ? [idle('BASELINE history index', s.baseline.idle)] : []),
    `[api-asof]   serving store, first start after an upgrade (no serving.db, no saved verdicts): ${start(s.serving.upgradeStart)}`,
  ]);
}
