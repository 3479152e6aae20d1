/**
 * Engine benchmark: the whole universe (124,000 synthetic companies × 10 frameworks) through
 * `screenCompany` in one process. Inputs are generated deterministically (seeded PRNG) before
 * timing. Run directly with `npx tsx bench/engine.bench.ts`, or call `runEngineBench()`.
 */
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { ACTIVITY_CODES, screenCompany, type ActivityExposure, type ScreeningInput } from '../engine/index.ts';

export interface EngineBenchFigures {
  companies: number;
  frameworksPerCompany: number;
  /** Median of the timed passes. */
  totalMs: number;
  /** Every timed pass, fastest first. */
  passesMs: number[];
  companiesPerSecond: number;
  microsecondsPerCompany: number;
  cpuCount: number;
  cpuModel: string;
  node: string;
  /** Status tallies over all framework results: a cheap check that the work was real. */
  statusCounts: Record<string, number>;
}

/** mulberry32: small, fast, deterministic. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DATES = ['2012-03-30', '2016-09-30', '2021-12-31', '2023-06-30', '2025-06-30', '2026-07-06'];

function monthsBack(date: string, months: number): string {
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7)) - 1 - months;
  const ny = y + Math.floor(m / 12);
  const nm = ((m % 12) + 12) % 12;
  return `${ny}-${String(nm + 1).padStart(2, '0')}-15`;
}

/** Generate `n` varied, deterministic screening inputs. */
export function generateUniverse(n: number, seed = 20260704): ScreeningInput[] {
  const rnd = prng(seed);
  const out: ScreeningInput[] = [];
  for (let k = 0; k < n; k++) {
    const date = DATES[k % DATES.length]!;
    const assets = 1e6 + rnd() * 1e10;
    const mcap = assets * (0.2 + rnd() * 3);
    const missing = rnd() < 0.03;
    const exposures: ActivityExposure[] = [];
    const nExp = rnd() < 0.7 ? 0 : 1 + Math.floor(rnd() * 3);
    for (let e = 0; e < nExp; e++) {
      exposures.push({
        activity: ACTIVITY_CODES[Math.floor(rnd() * ACTIVITY_CODES.length)]!,
        revenueShare: rnd() < 0.5 ? rnd() * 0.1 : rnd(),
        asOf: monthsBack(date, Math.floor(rnd() * 30)),
        sourceRef: `seg-${k}-${e}`,
      });
    }
    out.push({
      screeningDate: date,
      listing: {
        market: 'us',
        ticker: `T${k}`,
        name: `Company ${k}`,
        exchangeMic: rnd() < 0.02 ? 'XTAE' : 'XNYS',
        currency: 'USD',
        sic: null,
        kind: 'stock',
        heterIska: rnd() < 0.5 ? null : rnd() < 0.5,
        operatesOnShabbat: rnd() < 0.3 ? null : rnd() < 0.5,
      },
      fundamentals: missing
        ? null
        : {
            periodEnd: monthsBack(date, Math.floor(rnd() * 20)),
            filedOn: monthsBack(date, Math.floor(rnd() * 2)),
            sourceRef: `acc-${k}`,
            currency: rnd() < 0.01 ? 'EUR' : 'USD',
            totalAssets: assets,
            totalDebt: assets * rnd() * 0.6,
            cashAndEquivalents: assets * rnd() * 0.3,
            interestBearingInvestments: rnd() < 0.05 ? null : assets * rnd() * 0.1,
            accountsReceivable: assets * rnd() * 0.4,
            totalRevenue: rnd() < 0.01 ? 0 : assets * (0.1 + rnd()),
            interestIncome: assets * rnd() * 0.01,
            sharesOutstanding: 1e6 + Math.floor(rnd() * 1e9),
            dividendsPerShare: rnd() < 0.4 ? 0 : rnd() * 3,
          },
      marketCap: {
        spot: mcap,
        spotPriceDate: date,
        avg24m: mcap * (0.8 + rnd() * 0.4),
        avg36m: mcap * (0.7 + rnd() * 0.6),
        months24: rnd() < 0.05 ? Math.floor(rnd() * 24) : 24,
        months36: rnd() < 0.05 ? Math.floor(rnd() * 36) : 36,
      },
      exposures,
      synthetic: true,
      dataSource: 'bench',
    });
  }
  return out;
}

/** Timed passes over the universe; the figure is their median (one pass moves ±30 % with GC and this VM's neighbours). */
const PASSES = 3;

/** One timed pass: every input through `screenCompany`, statuses tallied. */
function screenPass(inputs: readonly ScreeningInput[]): { ms: number; frameworks: number; statusCounts: Record<string, number> } {
  const statusCounts: Record<string, number> = {};
  let frameworks = 0;
  const start = process.hrtime.bigint();
  for (const input of inputs) {
    const result = screenCompany(input);
    for (const id of result.frameworks_returned) {
      const s = result.frameworks[id]!.status;
      statusCounts[s] = (statusCounts[s] ?? 0) + 1;
      frameworks += 1;
    }
  }
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, frameworks, statusCounts };
}

/** Screen the whole synthetic universe `PASSES` times (after a warm-up) and return the median pass. */
export function runEngineBench(companies = 124_000): EngineBenchFigures {
  const inputs = generateUniverse(companies);
  for (let i = 0; i < Math.min(5_000, inputs.length); i++) screenCompany(inputs[i]!); // JIT warm-up
  const passes = Array.from({ length: PASSES }, () => screenPass(inputs)).sort((a, b) => a.ms - b.ms);
  const median = passes[Math.floor(PASSES / 2)]!;
  const totalMs = median.ms;
  const cpus = os.cpus();
  return {
    companies,
    frameworksPerCompany: median.frameworks / companies,
    totalMs: Math.round(totalMs),
    passesMs: passes.map((p) => Math.round(p.ms)),
    companiesPerSecond: Math.round((companies / totalMs) * 1000),
    microsecondsPerCompany: Math.round(((totalMs * 1000) / companies) * 10) / 10,
    cpuCount: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    node: process.version,
    statusCounts: median.statusCounts,
  };
}

function printFigures(f: EngineBenchFigures): void {
  console.log(`engine bench: ${f.companies.toLocaleString('en-US')} companies × ${f.frameworksPerCompany} frameworks`);
  console.log(`  total        ${f.totalMs} ms, median of ${f.passesMs.join(' / ')} ms (target < 5000 ms on one core)`);
  console.log(`  throughput   ${f.companiesPerSecond.toLocaleString('en-US')} companies/s (${f.microsecondsPerCompany} µs each)`);
  console.log(`  machine      ${f.cpuCount} × ${f.cpuModel}, node ${f.node} (single thread)`);
  console.log(`  statuses     ${JSON.stringify(f.statusCounts)}`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printFigures(runEngineBench());
}
