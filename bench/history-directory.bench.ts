/**
 * History index directory benchmark (`npx tsx bench/history-directory.bench.ts`, part of `npm run bench`):
 * what loading one segment's directory costs the API's event loop, and what a look-up costs, for a
 * segment of the whole universe (124,621 tickers in 46 markets by default, `HISTORY_DIRECTORY_TICKERS`).
 *
 * Baseline, measured in the same run: format 1, whose `.dir.json` listed every ticker and which the
 * API parsed and turned into a map of `market\0ticker` keys (the code of that loader, kept here).
 * Against it, format 2's ticker table (`TickerTable`), read as bytes and searched as stored. Both
 * loads are synchronous work on the event loop: their time is how long every request waits.
 * Tickers are SYNTHETIC (seeded strings of the shape real ones have).
 */
import { describeMachine } from './machine.ts';
import { TickerTable, encodeTickerTable, type SegmentDirectory } from '../warehouse/api-reads/api-reads-history-format.ts';

export interface HistoryDirectoryFigures {
  tickers: number;
  /** Loads timed per format (the best counts). */
  repeats: number;
  markets: number;
  /** Best of the repeats, ms. */
  formatOneLoadMs: number;
  formatTwoLoadMs: number;
  /** JSON bytes format 1 parsed; format 2's `.dir.json` bytes and its ticker table's. */
  formatOneJsonBytes: number;
  formatTwoJsonBytes: number;
  tableBytes: number;
  /** Mean µs per look-up over present and absent tickers (half each). */
  formatOneLookupUs: number;
  formatTwoLookupUs: number;
  /** JavaScript heap the loaded directory holds, MiB (null without `--expose-gc`). */
  formatOneHeapMiB: number | null;
  formatTwoHeapMiB: number | null;
}

/** Deterministic tickers of real shapes: 1–5 letters, some with a class suffix or digits. */
function syntheticMarkets(total: number, marketCount: number): SegmentDirectory['markets'] {
  let seed = 7;
  // A 32-bit LCG in integer arithmetic, its high bits (the low ones repeat within a few steps).
  const next = () => (seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0) >>> 8;
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const markets: SegmentDirectory['markets'] = [];
  let row = 0;
  for (let m = 0; m < marketCount; m += 1) {
    // A skewed spread, as real markets are: the first holds about a quarter of the listings.
    const share = m === 0 ? 0.25 : 0.75 / (marketCount - 1);
    const n = m === marketCount - 1 ? total - markets.reduce((sum, [, list]) => sum + list.length, 0) : Math.round(total * share);
    const seen = new Set<string>();
    while (seen.size < n) {
      let ticker = '';
      const length = 1 + (next() % 5);
      for (let i = 0; i < length; i += 1) ticker += letters[next() % 26];
      if (next() % 10 === 0) ticker += `.${letters[next() % 3]}`;
      if (next() % 7 === 0) ticker = String(1000 + (next() % 9000));
      seen.add(ticker);
    }
    const list = [...seen].sort();
    const firsts = list.map((_, i) => row + i * 216);
    const counts = list.map(() => 216);
    row += list.length * 216;
    markets.push([`m${String(m).padStart(2, '0')}`, list, firsts, counts]);
  }
  return markets;
}

/** Format 1's load (the API's code until format 2): parse the directory, then a map entry per ticker. */
function loadFormatOne(json: string): { find: (market: string, ticker: string) => [number, number] | null } {
  const directory = JSON.parse(json) as SegmentDirectory;
  const tickers = directory.markets.reduce((n, [, list]) => n + list.length, 0);
  const entries = new Map<string, number>();
  const firsts = new Uint32Array(tickers);
  const counts = new Uint32Array(tickers);
  let n = 0;
  for (const [market, list, starts, lengths] of directory.markets) {
    list.forEach((ticker, i) => {
      entries.set(`${market}\u0000${ticker}`, n);
      firsts[n] = starts[i]!;
      counts[n] = lengths[i]!;
      n += 1;
    });
  }
  return {
    find(market, ticker) {
      const entry = entries.get(`${market}\u0000${ticker}`);
      return entry === undefined ? null : [firsts[entry]!, counts[entry]!];
    },
  };
}

function bestMs(repeats: number, work: () => unknown): number {
  let best = Infinity;
  for (let i = 0; i < repeats; i += 1) {
    const started = performance.now();
    work();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/** Heap held by what `load` returns, in MiB, or null when the process cannot collect on demand. */
function heapHeldMiB(load: () => unknown): number | null {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return null;
  gc();
  const before = process.memoryUsage().heapUsed;
  const held = load();
  gc();
  const after = process.memoryUsage().heapUsed;
  void held;
  return Math.round(((after - before) / 2 ** 20) * 10) / 10;
}

export function runHistoryDirectoryBench(options: { tickers?: number; markets?: number; repeats?: number } = {}): HistoryDirectoryFigures {
  const total = options.tickers ?? Number(process.env.HISTORY_DIRECTORY_TICKERS ?? 124_621);
  const marketCount = options.markets ?? 46;
  const repeats = options.repeats ?? 5;
  const markets = syntheticMarkets(total, marketCount);
  const files = Array.from({ length: 40 }, (_, i) => `/data/lake/snapshots/market=m${i}/year=2026/part-${i}.parquet`);
  const formatOneJson = JSON.stringify({ format: 1, rows: total * 216, strings: ['backfill', 'sample'], files, markets });
  const { table, counts } = encodeTickerTable(markets);
  const formatTwoJson = JSON.stringify({
    format: 2,
    rows: total * 216,
    strings: ['backfill', 'sample'],
    files,
    markets: counts,
    tickerTableBytes: table.length,
  });
  const loadTwo = () => {
    const directory = JSON.parse(formatTwoJson) as { markets: Array<[string, number]> };
    // The API reads the table from the `.bin` into a buffer of its own: copied here likewise.
    return new TickerTable(Buffer.from(table), directory.markets);
  };
  const formatOneLoadMs = bestMs(repeats, () => loadFormatOne(formatOneJson));
  const formatTwoLoadMs = bestMs(repeats, loadTwo);

  // Look-ups: every present ticker in a shuffled order, and as many absent ones (a segment without the ticker).
  const probes: Array<[string, string]> = [];
  for (const [market, list] of markets) for (const ticker of list) probes.push([market, ticker], [market, `${ticker}~`]);
  const one = loadFormatOne(formatOneJson);
  const two = loadTwo();
  const lookupUs = (find: (market: string, ticker: string) => unknown) => {
    let found = 0;
    const ms = bestMs(3, () => {
      found = 0;
      for (const [market, ticker] of probes) if (find(market, ticker) !== null) found += 1;
    });
    if (found !== probes.length / 2) throw new Error(`history directory bench: ${found} of ${probes.length / 2} tickers found`);
    return (ms * 1000) / probes.length;
  };
  const formatOneLookupUs = lookupUs((market, ticker) => one.find(market, ticker));
  const formatTwoLookupUs = lookupUs((market, ticker) => two.find(market, Buffer.from(ticker, 'utf8')));
  return {
    tickers: total,
    repeats,
    markets: marketCount,
    formatOneLoadMs,
    formatTwoLoadMs,
    formatOneJsonBytes: Buffer.byteLength(formatOneJson),
    formatTwoJsonBytes: Buffer.byteLength(formatTwoJson),
    tableBytes: table.length,
    formatOneLookupUs,
    formatTwoLookupUs,
    formatOneHeapMiB: heapHeldMiB(() => loadFormatOne(formatOneJson)),
    formatTwoHeapMiB: heapHeldMiB(loadTwo),
  };
}

export function formatHistoryDirectoryBench(f: HistoryDirectoryFigures): string[] {
  const round = (value: number, digits = 1) => value.toFixed(digits);
  const heap = (mib: number | null) => (mib === null ? 'n/a (run with --expose-gc)' : `${mib} MiB`);
  return [
    `[history-directory] a segment of ${f.tickers} SYNTHETIC tickers in ${f.markets} markets: loading its directory blocks the event loop ` +
      `${round(f.formatTwoLoadMs, 2)} ms (format 2: ${(f.formatTwoJsonBytes / 1024).toFixed(1)} kB of JSON + a ticker table of ` +
      `${(f.tableBytes / 2 ** 20).toFixed(2)} MiB read as bytes) against ${round(f.formatOneLoadMs)} ms in format 1 ` +
      `(${(f.formatOneJsonBytes / 2 ** 20).toFixed(2)} MiB of JSON parsed, a map entry per ticker): ` +
      `${round(f.formatOneLoadMs / f.formatTwoLoadMs, 0)}× less (best of ${f.repeats} each)`,
    `[history-directory] a look-up (half present, half absent): ${round(f.formatTwoLookupUs, 2)} µs against ${round(f.formatOneLookupUs, 2)} µs ` +
      `with format 1's map; heap held by the loaded directory ${heap(f.formatTwoHeapMiB)} against ${heap(f.formatOneHeapMiB)}`,
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(describeMachine());
  for (const line of formatHistoryDirectoryBench(runHistoryDirectoryBench())) console.log(line);
}
