import path from 'node:path';
import type { ServingStore } from '../serving/serving-types.ts';
import { withDuckDB } from './duckdb.ts';
import { scanTableFiles } from './lake-files.ts';
import { lakeRoot, type LakeTable } from './lake-paths.ts';
import { copySnapshotFile } from './serving-feed.ts';
import { copyLakeTableFile, type ServedLakeTable } from './serving-lake-tables.ts';

/** What bringing the store up to the lake did. */
export interface ServingSyncResult {
  /** Snapshot files of the lake, and the files of every served table copied because the store did not hold them. */
  lakeFiles: number;
  filesCopied: number;
  rowsCopied: number;
  /**
   * Files the store held that the lake no longer has (removed by hand, not by compaction): released.
   * Each snapshot partition they were in is copied again from its remaining files, so their rows are no longer served.
   */
  filesReleased: number;
  ms: number;
}

export interface SyncOptions {
  /** Hears after each file copied: files done, files to copy, rows copied. */
  onProgress?: (done: number, total: number, rows: number) => void;
  /**
   * Whether files the store holds that this lake lacks were removed from the lake of record (stop
   * serving their rows). True only where this lake is the store's only one: the embedded store in
   * its `DATA_DIR`, or `serving rebuild` run by an operator on the lake of record. A PostgreSQL
   * store shared by hosts with lakes of their own never takes one host's lake as the whole truth.
   */
  releaseVanished?: boolean;
}

/** The tables the store holds, in copy order: snapshots reference the texts, and a screen needs its listing. */
const TABLES = ['methodology_texts', 'listings', 'fund_holdings', 'snapshots'] as const satisfies readonly LakeTable[];

/**
 * Copies every file of the served tables the store does not hold (or holds at another size or
 * mtime) into it, one transaction per file, so an interrupted run resumes where it stopped:
 * the first start after an upgrade, a store on a new engine, files published by hand, and
 * `faithscreen serving rebuild`. Methodology texts and listings go first: snapshots reference
 * the texts, and a screen needs its listing.
 */
export async function syncServingFromLake(dataDir: string, store: ServingStore, options: SyncOptions = {}): Promise<ServingSyncResult> {
  const started = performance.now();
  const root = lakeRoot(dataDir);
  const [held, ...scans] = await Promise.all([store.heldFiles(), ...TABLES.map((table) => scanTableFiles(dataDir, table))]);
  const lake = new Map(TABLES.map((table, i) => [table, scans[i]!]));
  const lakePaths = new Set(scans.flatMap((files) => [...files.keys()].map((file) => path.relative(root, file))));
  const missing: Array<[LakeTable, string]> = [];
  for (const table of TABLES)
    for (const [file, signature] of lake.get(table)!) if (held.get(path.relative(root, file)) !== signature) missing.push([table, file]);
  const gone = options.releaseVanished ? [...held.keys()].filter((file) => !lakePaths.has(file)) : [];
  // Snapshot files removed by hand (a bad batch): their rows must not be served. The store does not
  // say which file a row came from, so each partition they were in is copied again from what remains.
  const partitions = partitionsOf(gone);
  for (const { market, year } of partitions.values()) await store.forgetSnapshots(market, `${year}-01-01`, `${year}-12-31`);
  // Listed again after forgetting: a file published meanwhile is copied too.
  if (partitions.size > 0)
    for (const file of (await scanTableFiles(dataDir, 'snapshots')).keys())
      if (partitions.has(partitionKey(path.relative(root, file)) ?? '') && !missing.some(([, f]) => f === file))
        missing.push(['snapshots', file]);
  let rows = 0;
  if (missing.length > 0)
    await withDuckDB(':memory:', { threads: 1 }, async (connection) => {
      // One file at a time: a small budget, and no cache of Parquet pages the OS caches anyway.
      await connection.run(`SET memory_limit = '256MB'; SET enable_external_file_cache = false`);
      for (const [i, [table, file]] of missing.entries()) {
        try {
          rows +=
            table === 'snapshots'
              ? await copySnapshotFile(connection, dataDir, file, store)
              : await copyLakeTableFile(connection, dataDir, table as ServedLakeTable, file, store);
        } catch (error) {
          // Compacted or republished away since the listing: its rows are in the file that replaced it, copied too.
          if (!isMissingFileError(error)) throw error;
        }
        options.onProgress?.(i + 1, missing.length, rows);
      }
    });
  if (gone.length > 0) await store.holdFiles([], gone);
  if (partitions.size > 0) await store.rebuildCurrent([...new Set([...partitions.values()].map((p) => p.market))]);
  return {
    lakeFiles: lake.get('snapshots')!.size,
    filesCopied: missing.length,
    rowsCopied: rows,
    filesReleased: gone.length,
    ms: performance.now() - started,
  };
}

const PARTITION = /^snapshots[/\\]market=([^/\\]+)[/\\]year=(\d{4})[/\\]/;

/** `market/year` of a snapshot file's path under the lake root, or null outside the snapshot partitions. */
function partitionKey(relative: string): string | null {
  const match = PARTITION.exec(relative);
  return match === null ? null : `${match[1]}/${match[2]}`;
}

function partitionsOf(files: readonly string[]): Map<string, { market: string; year: string }> {
  const out = new Map<string, { market: string; year: string }>();
  for (const file of files) {
    const key = partitionKey(file);
    if (key !== null) out.set(key, { market: key.split('/')[0]!, year: key.split('/')[1]! });
  }
  return out;
}

function isMissingFileError(error: unknown): boolean {
  return /No such file or directory|ENOENT|No files found that match the pattern/.test((error as Error)?.message ?? '');
}
