import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { IdleTaskCancelled } from '../../common/idle-child.ts';
import { listValue } from '@duckdb/node-api';
import {
  BATCH_ROWS,
  HISTORY_INDEX_FORMAT,
  RECORD_BYTES,
  completeSegment,
  dayOffset,
  encodeHeader,
  encodeRecord,
  internTable,
  recordOffset,
  segmentPaths,
} from './api-reads-history-format.ts';
import { streamRows } from './api-reads-lake.ts';
import { snapshotIndexSql } from './api-reads-sql.ts';
import { withDuckDB } from '../duckdb.ts';
import { readSql, sql, sqlString, streamSql } from '../sql.ts';

/** One history index segment to build: every snapshot row of `files`, written under `dir` as `<id>.bin` and `<id>.dir.json`. */
export interface HistorySegmentTask {
  files: string[];
  dir: string;
  id: string;
  /** One Int32 set to 1 when the index closes: the build stops at its next batch and leaves no temp file behind. */
  cancel?: SharedArrayBuffer;
}

/** Thrown inside the build when its index asked it to stop. */
export class HistoryBuildCancelled extends IdleTaskCancelled {}

/** Files grouped by their `market=` partition, markets in order (files outside one form a group of their own). */
function byMarket(files: readonly string[]): string[][] {
  const groups = new Map<string, string[]>();
  for (const file of files) {
    const market = /market=([^/\\]+)/.exec(file)?.[1] ?? '';
    const group = groups.get(market);
    if (group) group.push(file);
    else groups.set(market, [file]);
  }
  return [...groups.keys()].sort().map((market) => groups.get(market)!);
}

/**
 * Builds one segment of the history index (in a child process of its own, off the request path
 * and out of the API's memory: `api-reads-history-child.ts`): DuckDB sorts the rows' index
 * columns by (market, ticker, day, screened_at), spilling to disk past its memory limit (128 MB:
 * the machine's other processes share its memory), and the sorted stream is written in
 * batches at known offsets. The `.bin` is written to a temp name and renamed, then the
 * directory the same way: a segment whose directory exists is complete (the reader also checks
 * the `.bin`'s header and size).
 */
export async function buildHistorySegment(task: HistorySegmentTask): Promise<{ rows: number }> {
  const paths = segmentPaths(task.dir, task.id);
  const spill = path.join(task.dir, `${task.id}.spill.tmp`);
  const binTemp = `${paths.bin}.${process.pid}.tmp`;
  mkdirSync(spill, { recursive: true });
  const strings = internTable();
  const files = internTable();
  const markets = new Map<string, [string[], number[], number[]]>();
  let rows = 0;
  const cancel = task.cancel ? new Int32Array(task.cancel) : null;
  const stopIfCancelled = () => {
    if (cancel && Atomics.load(cancel, 0) === 1)
      throw new HistoryBuildCancelled(`history index segment ${task.id}: build stopped, the index is closing`);
  };
  const fd = openSync(binTemp, 'w');
  try {
    await withDuckDB(':memory:', { threads: 1 }, async (connection) => {
      await connection.run(`SET memory_limit = '128MB'; SET temp_directory = ${sqlString(spill)}; SET preserve_insertion_order = false`);
      const counted = await readSql(connection, sql`SELECT count(*) FROM read_parquet(${listValue(task.files)}, union_by_name = true)`);
      const total = Number(counted.getRowsJS()[0]![0]);
      writeSync(fd, encodeHeader(total), 0, undefined, 0);
      const days = Buffer.alloc(BATCH_ROWS * 4);
      const records = Buffer.alloc(BATCH_ROWS * RECORD_BYTES);
      let batchStart = 0;
      const flush = () => {
        const n = rows - batchStart;
        if (n === 0) return;
        writeSync(fd, days, 0, n * 4, dayOffset(batchStart));
        writeSync(fd, records, 0, n * RECORD_BYTES, recordOffset(total, batchStart));
        batchStart = rows;
        stopIfCancelled();
      };
      let key = '';
      let entry: [string[], number[], number[]] | undefined;
      // One sort per market (its own files): a sort's memory and spill are a market's, not the whole history's.
      for (const group of byMarket(task.files)) {
        stopIfCancelled();
        const result = await streamSql(connection, sql`SELECT * FROM (${snapshotIndexSql(group)}) ORDER BY market, ticker, day, at_ms`);
        await streamRows(result, false, (raw) => {
          if (rows >= total) throw new Error('history index: more rows than counted');
          const rowKey = `${raw.market}/${raw.ticker}`;
          if (rowKey !== key) {
            key = rowKey;
            entry = markets.get(raw.market);
            if (!entry) markets.set(raw.market, (entry = [[], [], []]));
            entry[0].push(raw.ticker);
            entry[1].push(rows);
            entry[2].push(0);
          }
          entry![2][entry![2].length - 1]! += 1;
          const slot = rows - batchStart;
          days.writeInt32LE(raw.day, slot * 4);
          encodeRecord(
            {
              screenedAtMs: raw.screenedAtMs,
              ratios: raw.ratios,
              statusBits: raw.statusBits,
              file: files.id(raw.file!),
              source: strings.id(raw.source),
              dataSource: strings.id(raw.dataSource),
              synthetic: raw.synthetic,
            },
            records,
            slot * RECORD_BYTES,
          );
          rows += 1;
          if (rows - batchStart === BATCH_ROWS) flush();
        });
      }
      flush();
      if (rows !== total) throw new Error(`history index: ${rows} rows read, ${total} counted`);
    });
  } catch (error) {
    closeSync(fd);
    rmSync(binTemp, { force: true });
    throw error;
  } finally {
    rmSync(spill, { recursive: true, force: true });
  }
  closeSync(fd);
  try {
    completeSegment(binTemp, paths, {
      format: HISTORY_INDEX_FORMAT,
      rows,
      strings: strings.values,
      files: files.values,
      markets: [...markets].map(([market, [tickers, firsts, counts]]) => [market, tickers, firsts, counts]),
    });
  } catch (error) {
    rmSync(binTemp, { force: true });
    throw error;
  }
  return { rows };
}
