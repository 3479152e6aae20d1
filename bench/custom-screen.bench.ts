/**
 * Custom screens at read time: what `applyCustomScreen` adds to a request, per verdict, beside
 * what the request does anyway (parsing the stored result of a cold snapshot) and beside
 * re-screening the company from its inputs (what a nightly per-account screen would spend).
 * Stored results are the engine's own output on the deterministic bench universe, round-tripped
 * through JSON as the lake keeps them. Run with `npx tsx bench/custom-screen.bench.ts`.
 */
import { pathToFileURL } from 'node:url';
import { applyCustomScreen } from '../engine/custom-screen/apply-custom-screen.ts';
import type { CustomScreenVersion } from '../engine/custom-screen/custom-screen-types.ts';
import { screenCompany, type ScreeningResult } from '../engine/index.ts';
import { generateUniverse } from './engine.bench.ts';
import { describeMachine } from './machine.ts';
import { median } from './median.ts';

const COMPANIES = 5_000;
const PASSES = 5;

/** A mandate of the usual size: three extra activities, two stricter limits, a short exclusion list. */
const MANDATE: CustomScreenVersion = {
  slug: 'bench',
  version: 3,
  effectiveFrom: '2009-01-01',
  definition: {
    base: 'shariah_aaoifi',
    description: '',
    activities: [
      { activity: 'coffee', maxRevenueShare: 0.05, excludedInvolvements: ['producer'] },
      { activity: 'media_entertainment', maxRevenueShare: 0, excludedInvolvements: [] },
      { activity: 'weapons', maxRevenueShare: 0, excludedInvolvements: [] },
    ],
    excludedTickers: Array.from({ length: 20 }, (_, i) => `us/X${i}`),
    allowedTickers: [],
    thresholds: { debt_to_market_cap_spot: 0.25, non_permissible_income_to_total_income: 0.03 },
  },
};

export interface CustomScreenBenchFigures {
  companies: number;
  /** Medians over the passes, microseconds per company. */
  applyMicros: number;
  parseMicros: number;
  rescreenMicros: number;
  statusCounts: Record<string, number>;
}

function timePasses(work: () => void): number {
  const passes: number[] = [];
  for (let i = 0; i < PASSES; i++) {
    const started = process.hrtime.bigint();
    work();
    passes.push(Number(process.hrtime.bigint() - started) / 1e3 / COMPANIES);
  }
  return median(passes);
}

export function runCustomScreenBench(): CustomScreenBenchFigures {
  const inputs = generateUniverse(COMPANIES);
  const stored = inputs.map((input) => JSON.stringify(screenCompany(input)));
  const results = stored.map((json) => JSON.parse(json) as ScreeningResult);
  const statusCounts: Record<string, number> = {};
  const applyMicros = timePasses(() => {
    for (const result of results) {
      const verdict = applyCustomScreen(result, 'shariah_aaoifi', 'bench', MANDATE, `us/${result.ticker}`);
      statusCounts[verdict.status] = (statusCounts[verdict.status] ?? 0) + 1;
    }
  });
  const parseMicros = timePasses(() => {
    for (const json of stored) JSON.parse(json);
  });
  const rescreenMicros = timePasses(() => {
    for (const input of inputs) screenCompany(input);
  });
  return { companies: COMPANIES, applyMicros, parseMicros, rescreenMicros, statusCounts };
}

export function formatCustomScreenBench(f: CustomScreenBenchFigures): string[] {
  const us = (x: number) => `${x.toFixed(1)} µs`;
  return [
    `[custom screens] ${f.companies} stored results, a mandate of 3 activities + 2 limits + 20 tickers, median of ${PASSES} passes: ` +
      `applyCustomScreen ${us(f.applyMicros)} per verdict; parsing the stored result ${us(f.parseMicros)}; ` +
      `re-screening from inputs (all 10 frameworks) ${us(f.rescreenMicros)}. Statuses: ${JSON.stringify(f.statusCounts)}`,
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(describeMachine());
  for (const line of formatCustomScreenBench(runCustomScreenBench())) console.log(line);
}
