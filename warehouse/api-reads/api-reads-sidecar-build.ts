import { closeSync, openSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import { deflateRawSync } from 'node:zlib';
import { withDuckDB } from '../duckdb.ts';
import { expandResultJson } from '../methodology-texts.ts';
import { loadQuotedTexts } from '../methodology-texts-lake.ts';
import { sql, streamSql } from '../sql.ts';
import { dayString, screenedAtString } from './api-reads-store.ts';

/**
 * Format of a sidecar's rows; a sidecar of another format is rebuilt. 2: each row's result is
 * stored with its methodology texts expanded, so a read only inflates (docs/serving.md, "Reads under load").
 * 3: a row may be followed by its pre-rendered default report (`PrerenderReport`). 4: each
 * ticker's newest row in the file only (a format 3 sidecar of a backfill file held every date).
 * 5: a pre-rendered report's row also holds the report's inflated length, so a read inflates it
 * into one buffer of its size (docs/serving.md, "Pre-rendered reports").
 */
export const SIDECAR_FORMAT = 5;

/**
 * Renders a row's default report when its sidecar is built (docs/serving.md, "Pre-rendered
 * reports"): the API passes the module that does it (a default export of this type), since what
 * a report holds is the API's business, not the warehouse's. `json` is the row's result exactly
 * as a sidecar read returns it; the snapshot identity is the one the reads give the row. Returns
 * the report (UTF-8 JSON) and the company name it carries (the result's own).
 */
export type PrerenderReport = (
  json: Uint8Array,
  snapshot: { snapshotDate: string; screenedAt: string; source: string },
) => { report: Uint8Array; companyName: string };

/**
 * Which reports a sidecar pre-renders: the module whose default export (`PrerenderReport`)
 * renders them, and a version naming what and how it renders (a sidecar pre-rendered under
 * another version is rebuilt). The module exports `loadedVersion`, the version of the code as
 * the builder process loaded it: when that is not `version` (its sources changed on disk since
 * the API started), the builder pre-renders nothing rather than store new bytes under the old
 * version; those reports render on request until the API restarts.
 */
export interface PrerenderOption {
  module: string;
  version: string;
}

/** The option's renderer, or null when the code this process loaded is not the code its version names. */
async function loadPrerender(option: PrerenderOption): Promise<PrerenderReport | null> {
  const loaded = (await import(option.module)) as { default: PrerenderReport; loadedVersion?: unknown };
  return loaded.loadedVersion === option.version ? loaded.default : null;
}

/** One sidecar to build: which rows of which Parquet file, and where to write them. */
export interface SidecarTask {
  /** Data directory of the lake the file belongs to (its `methodology_texts` expand the rows). */
  dataDir: string;
  file: string;
  /** Tickers whose newest row in the file the sidecar holds (their current verdicts). */
  tickers: string[];
  binPath: string;
  indexPath: string;
  /** Also store each row's default report, rendered by this module. */
  prerender?: PrerenderOption;
}

/** The sidecar's index file: each row's identity and where its compressed `result_json` sits in the `.bin`. */
export interface SidecarIndex {
  version: typeof SIDECAR_FORMAT;
  file: string;
  /** Bytes at the start of the `.bin`: the deflate dictionary every row was compressed with. */
  dictionaryLength: number;
  /**
   * [ticker, day number, screened_at epoch ms, offset, length] and, when pre-rendered, the length of
   * the deflated default report that follows the row (same dictionary), the company name it names
   * and its length inflated.
   */
  rows: Array<SidecarIndexRow>;
}

export type SidecarIndexRow = [string, number, number, number, number] | [string, number, number, number, number, number, string, number];

/** Deflate keeps the last 32 kB of a dictionary; one full result of the file is the best one there is. */
const DICTIONARY_BYTES = 32_768;

/**
 * The newest row (day, screened_at epoch ms) of each wanted ticker in the file: the one that can be
 * its current verdict. A backfill's year file holds a row for every period end of the year, and a
 * compacted file many more; the sidecar keeps only this one (the others are history, read as such).
 */
async function newestRowOfEach(
  connection: DuckDBConnection,
  file: string,
  wanted: ReadonlySet<string>,
): Promise<Map<string, [number, number]>> {
  const newest = new Map<string, [number, number]>();
  const result = await streamSql(
    connection,
    sql`SELECT ticker, (CAST(snapshot_date AS DATE) - DATE '1970-01-01')::INTEGER AS day,
           epoch_ms(CAST(screened_at AS TIMESTAMP))::DOUBLE AS at_ms
        FROM read_parquet(${file}, union_by_name = true)`,
  );
  for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    const [tickers, days, ats] = [0, 1, 2].map((i) => chunk.getColumnVector(i));
    for (let i = 0; i < chunk.rowCount; i += 1) {
      const ticker = String(tickers!.getItem(i));
      if (!wanted.has(ticker)) continue;
      const [day, atMs] = [Number(days!.getItem(i)), Number(ats!.getItem(i))];
      const seen = newest.get(ticker);
      if (!seen || day > seen[0] || (day === seen[0] && atMs > seen[1])) newest.set(ticker, [day, atMs]);
    }
  }
  return newest;
}

/**
 * Builds a point-read sidecar of a snapshot file (in the sidecar builder process): each wanted ticker's newest row's
 * `result_json`, its methodology texts expanded once here rather than on every read, deflated
 * on its own with a shared per-file dictionary (~1 kB a 24 kB result), then the index. A row
 * referencing a text the lake lacks fails the build: its reads then take the Parquet path.
 * Both are written to temp names and renamed, the index last: a reader that finds an index
 * finds its `.bin` complete.
 */
export async function buildSidecar(task: SidecarTask): Promise<{ rows: number; bytes: number }> {
  const wanted = new Set(task.tickers);
  const prerender = task.prerender ? await loadPrerender(task.prerender) : null;
  const index: SidecarIndex = { version: SIDECAR_FORMAT, file: task.file, dictionaryLength: 0, rows: [] };
  const binTemp = `${task.binPath}.${process.pid}.tmp`;
  const fd = openSync(binTemp, 'w');
  let offset = 0;
  let dictionary: Buffer | null = null;
  try {
    await withDuckDB(':memory:', { threads: 1 }, async (connection) => {
      await connection.run(`SET memory_limit = '256MB'`);
      const texts = await loadQuotedTexts(connection, task.dataDir);
      const newest = await newestRowOfEach(connection, task.file, wanted);
      const result = await streamSql(
        connection,
        sql`SELECT ticker, (CAST(snapshot_date AS DATE) - DATE '1970-01-01')::INTEGER AS day,
               epoch_ms(CAST(screened_at AS TIMESTAMP))::DOUBLE AS at_ms, result_json, source
            FROM read_parquet(${task.file}, union_by_name = true)`,
      );
      for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
        const [tickers, days, ats, jsons, sources] = [0, 1, 2, 3, 4].map((i) => chunk.getColumnVector(i));
        for (let i = 0; i < chunk.rowCount; i += 1) {
          const ticker = String(tickers!.getItem(i));
          const [day, atMs] = [Number(days!.getItem(i)), Number(ats!.getItem(i))];
          const keep = newest.get(ticker);
          if (!keep || keep[0] !== day || keep[1] !== atMs) continue;
          const stored = jsons!.getItem(i);
          if (typeof stored !== 'string') continue;
          const json = expandResultJson(stored, (id) => texts.get(id));
          if (dictionary === null) {
            const whole = Buffer.from(json);
            dictionary = whole.subarray(Math.max(0, whole.length - DICTIONARY_BYTES));
            writeSync(fd, dictionary);
            offset = index.dictionaryLength = dictionary.length;
          }
          const packed = deflateRawSync(json, { level: 6, dictionary });
          writeSync(fd, packed);
          if (prerender === null) index.rows.push([ticker, day, atMs, offset, packed.length]);
          else {
            // The identity as the reads decode it (api-reads-store.ts), so the report is the one a render gives.
            const snapshot = { snapshotDate: dayString(day), screenedAt: screenedAtString(atMs), source: String(sources!.getItem(i)) };
            const { report, companyName } = prerender(Buffer.from(json), snapshot);
            const deflated = deflateRawSync(report, { level: 6, dictionary });
            writeSync(fd, deflated);
            index.rows.push([ticker, day, atMs, offset, packed.length, deflated.length, companyName, report.length]);
            offset += deflated.length;
          }
          offset += packed.length;
        }
      }
    });
  } finally {
    closeSync(fd);
  }
  renameSync(binTemp, task.binPath);
  const indexTemp = `${task.indexPath}.${process.pid}.tmp`;
  writeFileSync(indexTemp, JSON.stringify(index));
  renameSync(indexTemp, task.indexPath);
  return { rows: index.rows.length, bytes: offset };
}

export default buildSidecar;
