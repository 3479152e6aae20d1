import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import {
  BATCH_ROWS,
  HISTORY_INDEX_FORMAT,
  RECORD_BYTES,
  completeSegment,
  dayOffset,
  encodeHeader,
  internTable,
  recordOffset,
  recordScreenedAtMs,
  renumberRecord,
  readSegmentDirectory,
  segmentPaths,
  type SegmentDirectory,
} from './api-reads-history-format.ts';
import { HistoryBuildCancelled } from './api-reads-history-build.ts';

/** Segments of the history index to merge into one new segment `id` under `dir`. */
export interface HistoryMergeTask {
  dir: string;
  id: string;
  /**
   * Each segment with its file table as the index keeps it: numbered as the segment's records
   * number files, with the names compaction gave them since (it renames files in place).
   */
  segments: Array<{ id: string; files: string[] }>;
  /** One Int32 set to 1 when the index closes: the merge stops at its next batch and leaves no temp file behind. */
  cancel?: SharedArrayBuffer;
}

interface Source {
  fd: number;
  rows: number;
  /** Old number → number in the merged segment's tables. */
  files: Uint32Array;
  strings: Uint32Array;
}

/** One ticker's rows in one source segment. */
type Run = [source: Source, first: number, count: number];

/**
 * Merges history index segments into one (docs/serving.md, "as_of from the history index") from
 * their binary rows alone: each ticker's days and records are read from every segment holding
 * it, ordered by (day, screened_at) when several do, renumbered into the merged tables of
 * files and sources, and written in batches. No Parquet file is read again and nothing is
 * sorted but each ticker's own rows, so a merge costs a copy of the rows, where rebuilding the
 * merged files through DuckDB cost tens of times more. Rows are kept as they are: a row two
 * segments hold (a compaction's target indexed again) stays twice and answers the same.
 */
export async function mergeHistorySegments(task: HistoryMergeTask): Promise<{ rows: number }> {
  const paths = segmentPaths(task.dir, task.id);
  const binTemp = `${paths.bin}.${process.pid}.tmp`;
  const cancel = task.cancel ? new Int32Array(task.cancel) : null;
  const strings = internTable();
  const files = internTable();
  const tickers = new Map<string, Map<string, Run[]>>();
  const sources: Source[] = [];
  let out: number | null = null;
  try {
    let total = 0;
    for (const segment of task.segments) {
      const own = segmentPaths(task.dir, segment.id);
      const read = readSegmentDirectory(own);
      if (!read || segment.files.length !== read.file.files.length)
        throw new Error(`history index segment ${segment.id} does not match its directory: not merged`);
      const source: Source = {
        fd: openSync(own.bin, 'r'),
        rows: read.file.rows,
        files: Uint32Array.from(segment.files, (file) => files.id(file)),
        strings: Uint32Array.from(read.file.strings, (value) => strings.id(value)),
      };
      sources.push(source);
      total += read.file.rows;
      for (const [market, ticker, first, count] of read.tickers.entries()) {
        let byTicker = tickers.get(market);
        if (!byTicker) tickers.set(market, (byTicker = new Map()));
        const run: Run = [source, first, count];
        const runs = byTicker.get(ticker);
        if (runs) runs.push(run);
        else byTicker.set(ticker, [run]);
      }
    }

    out = openSync(binTemp, 'w');
    const target = out;
    writeSync(target, encodeHeader(total), 0, undefined, 0);
    let days = Buffer.alloc(BATCH_ROWS * 4);
    let records = Buffer.alloc(BATCH_ROWS * RECORD_BYTES);
    let batchStart = 0;
    let rows = 0;
    const flush = async () => {
      const n = rows - batchStart;
      if (n > 0) {
        writeSync(target, days, 0, n * 4, dayOffset(batchStart));
        writeSync(target, records, 0, n * RECORD_BYTES, recordOffset(total, batchStart));
      }
      batchStart = rows;
      // A turn of the event loop: a cancel message from the index is handled, and its flag seen.
      await new Promise((resolve) => setImmediate(resolve));
      if (cancel && Atomics.load(cancel, 0) === 1)
        throw new HistoryBuildCancelled(`history index segment ${task.id}: merge stopped, the index is closing`);
    };

    const markets: SegmentDirectory['markets'] = [];
    for (const market of [...tickers.keys()].sort()) {
      const byTicker = tickers.get(market)!;
      const list = [...byTicker.keys()].sort();
      const firsts: number[] = [];
      const counts: number[] = [];
      for (const ticker of list) {
        const runs = byTicker.get(ticker)!;
        const count = runs.reduce((n, [, , c]) => n + c, 0);
        if (rows - batchStart + count > BATCH_ROWS) await flush();
        if (count > days.length / 4) {
          // One ticker longer than a batch (a very long history): a batch of its own size.
          days = Buffer.alloc(count * 4);
          records = Buffer.alloc(count * RECORD_BYTES);
        }
        firsts.push(rows);
        counts.push(count);
        copyTicker(runs, days, records, rows - batchStart);
        rows += count;
      }
      markets.push([market, list, firsts, counts]);
    }
    await flush();
    if (rows !== total) throw new Error(`history index merge: ${rows} rows written, ${total} in the segments`);
    closeSync(target);
    out = null;
    completeSegment(binTemp, paths, { format: HISTORY_INDEX_FORMAT, rows, strings: strings.values, files: files.values, markets });
    return { rows };
  } catch (error) {
    if (out !== null) closeSync(out);
    rmSync(binTemp, { force: true });
    throw error;
  } finally {
    for (const source of sources) closeSync(source.fd);
  }
}

/**
 * Writes one ticker's rows from every run at `slot` of the batch buffers, in (day, screened_at)
 * order, renumbered. One run (the common case) is copied as it is; several are merged.
 */
function copyTicker(runs: readonly Run[], days: Buffer, records: Buffer, slot: number): void {
  if (runs.length === 1) {
    const [source, first, count] = runs[0]!;
    readSync(source.fd, days, slot * 4, count * 4, dayOffset(first));
    readSync(source.fd, records, slot * RECORD_BYTES, count * RECORD_BYTES, recordOffset(source.rows, first));
    for (let i = 0; i < count; i += 1) renumberRecord(records, (slot + i) * RECORD_BYTES, source.files, source.strings);
    return;
  }
  const count = runs.reduce((n, [, , c]) => n + c, 0);
  const runDays = Buffer.alloc(count * 4);
  const runRecords = Buffer.alloc(count * RECORD_BYTES);
  let at = 0;
  for (const [source, first, n] of runs) {
    readSync(source.fd, runDays, at * 4, n * 4, dayOffset(first));
    readSync(source.fd, runRecords, at * RECORD_BYTES, n * RECORD_BYTES, recordOffset(source.rows, first));
    for (let i = 0; i < n; i += 1) renumberRecord(runRecords, (at + i) * RECORD_BYTES, source.files, source.strings);
    at += n;
  }
  const order = Array.from({ length: count }, (_, i) => i);
  // Stable: rows equal in day and screened_at keep their segments' order (they answer the same).
  order.sort(
    (a, b) =>
      runDays.readInt32LE(a * 4) - runDays.readInt32LE(b * 4) ||
      recordScreenedAtMs(runRecords, a * RECORD_BYTES) - recordScreenedAtMs(runRecords, b * RECORD_BYTES),
  );
  order.forEach((row, i) => {
    runDays.copy(days, (slot + i) * 4, row * 4, row * 4 + 4);
    runRecords.copy(records, (slot + i) * RECORD_BYTES, row * RECORD_BYTES, (row + 1) * RECORD_BYTES);
  });
}
