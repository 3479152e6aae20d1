/**
 * A second process writing while bench/serving-engines-reader.ts reads: it rewrites backfill chunks
 * (every date of 166 tickers, one transaction each) until SIGTERM, then prints what it wrote as
 * one JSON line. Run by the reader as `node --import tsx bench/serving-engines-writer.ts <engine> <dir>`.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { CHUNK_TICKERS, chunkRows, monthEnds, shapeFromEnv } from './serving-engines-data.ts';
import { openStore, type EngineName } from './serving-engines-store.ts';

export interface WriterFigures {
  rows: number;
  chunks: number;
  seconds: number;
  /** The longest single chunk transaction, ms. */
  maxChunkMs: number;
}

const [engine, dir] = process.argv.slice(2) as [EngineName, string];
const shape = shapeFromEnv();
const dates = monthEnds(shape.dates);
const store = openStore(engine, dir);
let stopping = false;
process.on('SIGTERM', () => (stopping = true));

console.log('ready');
const started = performance.now();
const figures: WriterFigures = { rows: 0, chunks: 0, seconds: 0, maxChunkMs: 0 };
for (let pass = 1; !stopping; pass++) {
  for (let first = 0; first < shape.tickers && !stopping; first += CHUNK_TICKERS) {
    const rows = chunkRows(first, shape, dates, pass);
    const chunkStarted = performance.now();
    store.write(rows);
    figures.maxChunkMs = Math.max(figures.maxChunkMs, performance.now() - chunkStarted);
    figures.rows += rows.length;
    figures.chunks++;
    await nextTurn(); // lets SIGTERM in between chunks
  }
}
figures.seconds = (performance.now() - started) / 1000;
store.close();
console.log(JSON.stringify(figures));
