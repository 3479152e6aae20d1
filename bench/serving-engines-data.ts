/**
 * Synthetic serving-store rows for bench/serving-engines.bench.ts: T tickers × D month-end dates,
 * written as a backfill writes them (chunks of tickers, each chunk all its dates). Deterministic,
 * so the writer, the readers and both engines see the same rows and the same lookups.
 */
import { deflateRawSync } from 'node:zlib';
import { SNAPSHOT_RATIOS } from '../common/snapshot-ratios.ts';
import { FRAMEWORK_IDS } from '../engine/frameworks.ts';

export interface BenchShape {
  tickers: number;
  dates: number;
}

/** One snapshot as both engines store it. */
export interface BenchRow {
  market: string;
  ticker: string;
  snapshotDate: string;
  screenedAt: string;
  /** Status per framework, as JSON text. */
  statuses: string;
  /** The 10 ratio columns, in SNAPSHOT_RATIOS order. */
  ratios: number[];
  synthetic: number;
  dataSource: string;
  result: Buffer;
}

export const RATIO_COLUMNS = SNAPSHOT_RATIOS;

/** Tickers per backfill chunk, as the backfill workflow hands them to one activity. */
export const CHUNK_TICKERS = 166;

export function shapeFromEnv(): BenchShape {
  return {
    tickers: Number(process.env.SERVING_BENCH_TICKERS ?? 20_000),
    dates: Number(process.env.SERVING_BENCH_DATES ?? 100),
  };
}

/** A small deterministic PRNG (mulberry32), so runs compare. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Half the universe in the US, the rest over three other markets. */
export function marketOf(index: number): string {
  if (index % 2 === 0) return 'us';
  return ['gb', 'jp', 'in'][(index >> 1) % 3]!;
}

export function tickerOf(index: number): string {
  return `T${index.toString(36).toUpperCase().padStart(4, '0')}`;
}

/** Month-end days from January 2009 on, `YYYY-MM-DD`. */
export function monthEnds(count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const end = new Date(Date.UTC(2009, i + 1, 0));
    return end.toISOString().slice(0, 10);
  });
}

/** About 600 bytes of deflated JSON, as a stored result of a screen is once compressed. */
function resultTemplate(): Buffer {
  const next = random(7);
  const frameworks: Record<string, unknown> = {};
  let deflated = Buffer.alloc(0);
  for (let i = 0; deflated.length < 600; i++) {
    const id = FRAMEWORK_IDS[i % FRAMEWORK_IDS.length]!;
    frameworks[`${id}_${i}`] = {
      status: next() < 0.5 ? 'compliant' : 'non_compliant',
      ratio: Number(next().toFixed(6)),
      threshold: 0.33,
      reason: `ratio ${next().toFixed(4)} against limit 0.33 on ${Math.floor(next() * 1e6)}`,
    };
    deflated = deflateRawSync(JSON.stringify({ ticker: 'T0000', frameworks }));
  }
  return deflated;
}

const TEMPLATE = resultTemplate();
export const RESULT_BYTES = TEMPLATE.length;

/** Rows of one chunk of tickers, every date of each ticker; `pass` varies what a rewrite writes. */
export function chunkRows(firstTicker: number, shape: BenchShape, dates: readonly string[], pass = 0): BenchRow[] {
  const rows: BenchRow[] = [];
  const last = Math.min(firstTicker + CHUNK_TICKERS, shape.tickers);
  for (let t = firstTicker; t < last; t++) {
    const next = random(t * 7919 + pass);
    for (const snapshotDate of dates) {
      const result = Buffer.from(TEMPLATE);
      // A few bytes differ per row, so no engine can share or dedupe pages of identical values.
      result.writeUInt32LE(t, 0);
      result.writeUInt32LE(rows.length + pass, result.length - 4);
      const statuses: Record<string, string> = {};
      for (const id of FRAMEWORK_IDS) statuses[id] = next() < 0.6 ? 'compliant' : 'non_compliant';
      rows.push({
        market: marketOf(t),
        ticker: tickerOf(t),
        snapshotDate,
        screenedAt: `${snapshotDate}T22:0${pass % 10}:00.000`,
        statuses: JSON.stringify(statuses),
        ratios: RATIO_COLUMNS.map(() => next()),
        synthetic: 1,
        dataSource: 'synthetic',
        result,
      });
    }
  }
  return rows;
}

export interface Lookup {
  market: string;
  ticker: string;
  date: string;
}

/** `count` random (ticker, day) pairs; the day any day of the history, not only a month end. */
export function randomLookups(count: number, shape: BenchShape, dates: readonly string[], seed: number): Lookup[] {
  const next = random(seed);
  const first = Date.parse(dates[0]!);
  const span = Date.parse(dates.at(-1)!) - first;
  return Array.from({ length: count }, () => {
    const t = Math.floor(next() * shape.tickers);
    const date = new Date(first + Math.floor(next() * span)).toISOString().slice(0, 10);
    return { market: marketOf(t), ticker: tickerOf(t), date };
  });
}
