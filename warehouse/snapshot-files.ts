import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { listValue, type DuckDBConnection } from '@duckdb/node-api';
import { LakeJournalReader, type LakeChange } from './lake-journal.ts';
import { lakeRoot } from './lake-paths.ts';
import { joinSql, readSql, sql, sqlDate, sqlValueList } from './sql.ts';

/** Smallest and largest ticker of a file (its Parquet statistics); null when the file has none. */
type TickerRange = readonly [string, string] | null;

/** A snapshot file relative to the lake root, with its partition values and (once read) its ticker range. */
interface SnapshotFile {
  market: string;
  year: number;
  /** Undefined until read from the file's footer. */
  range?: TickerRange;
}

const SNAPSHOT_FILE = /^snapshots\/market=([^/]+)\/year=(\d+)\/[^/]+\.parquet$/;

/**
 * The snapshot files of the lake and the ticker range of each, kept current from the lake's
 * change journal (docs/warehouse.md, "How readers learn of new files"). A resumed backfill asks
 * which files may hold a chunk's tickers: a chunk's tickers are a contiguous slice in ticker
 * order, so only files whose range overlaps it are opened, instead of every file of the market
 * (which costs most on a long history of a large market: docs/benchmarks/backfill.md). Each file's footer is read once per thread, not once per chunk.
 * A journal that was replaced or trimmed makes the index list the folders again (a rescan).
 */
export class SnapshotFileIndex {
  private readonly journal: LakeJournalReader;
  private readonly files = new Map<string, SnapshotFile>();
  private scanned = false;
  /** Calls run one after another: two chunks of one thread (the in-thread runner) must not read the journal at once. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly dataDir: string) {
    this.journal = new LakeJournalReader(dataDir);
  }

  /** Files (absolute paths) of `market` in `years` whose tickers may include one in [first, last]. */
  candidates(connection: DuckDBConnection, market: string, years: readonly number[], first: string, last: string): Promise<string[]> {
    const run = this.queue.then(() => this.candidatesNow(connection, market, years, first, last));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async candidatesNow(
    connection: DuckDBConnection,
    market: string,
    years: readonly number[],
    first: string,
    last: string,
  ): Promise<string[]> {
    await this.sync();
    const wanted = new Set(years);
    const inPartitions = [...this.files].filter(([, f]) => f.market === market && wanted.has(f.year));
    await this.readRanges(
      connection,
      inPartitions.filter(([, f]) => f.range === undefined),
    );
    const root = lakeRoot(this.dataDir);
    return inPartitions
      .filter(([, f]) => f.range === null || f.range === undefined || (f.range[0] <= last && f.range[1] >= first))
      .map(([name]) => path.join(root, name))
      .sort();
  }

  /** Brings the file list up to date: the journal's new lines, or a listing of the folders when it cannot follow. */
  private async sync(): Promise<void> {
    if (!this.scanned) return this.rescan();
    const read = await this.journal.read();
    if (read.kind === 'rescan') return this.rescan();
    for (const change of read.changes) this.apply(change);
  }

  private apply(change: LakeChange): void {
    if (change.table !== 'snapshots') return;
    const added = change.op === 'add' ? change.files : change.added;
    if (change.op === 'replace') for (const name of change.removed) this.files.delete(name);
    // A file written again under its name (a retried chunk) is read again.
    for (const name of added) this.track(name);
  }

  private track(name: string): void {
    const match = SNAPSHOT_FILE.exec(name.split(path.sep).join('/'));
    if (match) this.files.set(name, { market: match[1]!, year: Number(match[2]) });
  }

  /** Lists every snapshot file; the journal is followed from its end as it was before the listing, so nothing published meanwhile is missed. */
  private async rescan(): Promise<void> {
    await this.journal.skipToEnd();
    this.files.clear();
    const root = lakeRoot(this.dataDir);
    const entries = await readdir(path.join(root, 'snapshots'), { recursive: true, withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (entry.isFile() && entry.name.endsWith('.parquet')) this.track(path.relative(root, path.join(entry.parentPath, entry.name)));
    }
    this.scanned = true;
  }

  private async readRanges(connection: DuckDBConnection, files: Array<[string, SnapshotFile]>): Promise<void> {
    if (files.length === 0) return;
    const root = lakeRoot(this.dataDir);
    const byPath = new Map(files.map(([name, file]) => [path.join(root, name), file]));
    const result = await readSql(
      connection,
      sql`SELECT file_name, min(stats_min_value) AS lo, max(stats_max_value) AS hi, count(*) - count(stats_min_value) AS missing
        FROM parquet_metadata(${listValue([...byPath.keys()])}) WHERE path_in_schema = 'ticker' GROUP BY file_name`,
    );
    for (const row of result.getRowObjectsJS()) {
      const file = byPath.get(String(row.file_name));
      if (file) file.range = row.lo === null || row.hi === null || Number(row.missing) > 0 ? null : [String(row.lo), String(row.hi)];
    }
    // A file without a ticker column statistic (none of ours) is always a candidate.
    for (const file of byPath.values()) file.range ??= null;
  }
}

/** One index per lake per thread: a chunk thread keeps it between chunks. */
const indexes = new Map<string, SnapshotFileIndex>();

export function snapshotFileIndexFor(dataDir: string): SnapshotFileIndex {
  const key = path.resolve(dataDir);
  let index = indexes.get(key);
  if (!index) indexes.set(key, (index = new SnapshotFileIndex(key)));
  return index;
}

/**
 * Keys `ticker|YYYY-MM-DD` of snapshots (of any source) already published in the given files for
 * the given tickers and dates (the files `SnapshotFileIndex.candidates` named).
 */
export async function publishedKeysIn(
  connection: DuckDBConnection,
  files: readonly string[],
  options: { tickers: readonly string[]; dates: readonly string[] },
): Promise<Set<string>> {
  if (files.length === 0 || options.tickers.length === 0 || options.dates.length === 0) return new Set();
  const result = await readSql(
    connection,
    sql`SELECT DISTINCT ticker, strftime(snapshot_date, '%Y-%m-%d') AS d
      FROM read_parquet(${listValue([...files])}, hive_partitioning = false, union_by_name = true)
      WHERE ticker IN ${sqlValueList(options.tickers)}
        AND snapshot_date IN (${joinSql(options.dates.map(sqlDate), ', ')})`,
  );
  return new Set(result.getRowObjectsJS().map((r) => `${String(r.ticker)}|${String(r.d)}`));
}
