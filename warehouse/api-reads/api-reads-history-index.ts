import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, readdir, rename, rm, stat, writeFile, type FileHandle } from 'node:fs/promises';
import { readSync } from 'node:fs';
import path from 'node:path';
import {
  HEADER_BYTES,
  HISTORY_INDEX_FORMAT,
  RECORD_BYTES,
  dayOffset,
  decodeRecord,
  recordOffset,
  segmentPaths,
  tickerTableAt,
  TickerTable,
  type SegmentDirectoryFile,
} from './api-reads-history-format.ts';
import { HistoryBuilderProcess, type HistoryBuildResult } from './api-reads-history-child.ts';
import { segmentsToMerge } from './api-reads-history-merge-plan.ts';
import { dayString, type RawSnapshot } from './api-reads-store.ts';

export interface HistoryIndexOptions {
  /** Folder of the index (derived data: safe to delete; rebuilt). */
  dir: string;
  /** The published snapshot files the reads know, with their change signatures: what the index must cover. */
  known: () => Iterable<[string, string]>;
  onError?: (error: unknown) => void;
  /** Segments kept before the smallest are merged (`segmentsToMerge`). Default `DEFAULT_MAX_SEGMENTS`. */
  maxSegments?: number;
  /** Not-yet-indexed files of a market a lookup still reads with DuckDB; past this, lookups give way to the lake query. Default 32. */
  maxUnindexedFiles?: number;
}

/** What the index knows of one ticker at a date, and the files it has not indexed yet (the caller reads those). */
export interface IndexedLookup {
  raw: RawSnapshot | undefined;
  /** Snapshot files of the market (and years) asked that no segment holds yet. */
  unindexed: string[];
}

/** Figures of the index, for the reads' stats. */
export interface HistoryIndexStats {
  segments: number;
  rows: number;
  unindexedFiles: number;
  lookups: number;
  builds: number;
  /** Merges of segments into one. */
  merges: number;
  /** Largest peak RSS of a builder process (MiB; 0 before the first build): memory the API process does not hold. */
  builderMaxRssMiB: number;
}

interface Segment {
  id: string;
  handle: FileHandle;
  rows: number;
  strings: string[];
  /** Parquet files by number; renamed in place when compaction moves rows. */
  files: string[];
  tickers: TickerTable;
  readers: number;
  retired: boolean;
}

interface Manifest {
  format: number;
  segments: Array<{ id: string; files: string[] }>;
  /** Files whose rows are in a segment, with the signatures they had. */
  covered: Array<[string, string]>;
}

/** A covered file whose signature is learned at the next reconcile (the target of a compaction). */
const SIGNATURE_LATER = '?';
/** Segments kept before the smallest are merged: a segment without the ticker costs a lookup one binary search of its market's tickers. */
const DEFAULT_MAX_SEGMENTS = 12;
/** Age past which a file no manifest names is removed (docs/serving.md, "as_of from the history index"). */
const STALE_MS = 3_600_000;
const PARTITION = /market=([^/\\]+)[/\\]year=(\d{4})[/\\][^/\\]+\.parquet$/;

const newer = (a: RawSnapshot, b: RawSnapshot | undefined) =>
  b === undefined || a.day > b.day || (a.day === b.day && a.screenedAtMs > b.screenedAtMs);

/**
 * The history index (docs/serving.md, "as_of from the history index"): every snapshot's as_of
 * columns (no `result_json`) in binary segments under `DATA_DIR/api-cache/history`, sorted by
 * (market, ticker, day, screened_at). An as_of is a directory look-up, one positioned read of
 * the ticker's day numbers, a binary search and one positioned read of a ~120-byte record per
 * segment: the OS page cache holds the history, the heap only the directories.
 *
 * Segments are built in a child process from the lake's Parquet files: all of them at first,
 * then the files each publish announces; past `maxSegments` the smallest are merged. Files
 * the reads know but no segment holds yet are returned with each lookup for the caller to read.
 * Compaction renames files in place (same rows). A file gone without a compaction, a signature
 * that changed, or an index on disk that is torn or of another format: the index starts over.
 */
export class HistoryIndex {
  private segments: Segment[] = [];
  private covered = new Map<string, string>();
  private building = new Set<string>();
  /** Compactions seen while a build runs: replayed on the segment it produces. */
  private renamesDuringBuild: Array<[string[], string]> | null = null;
  private readonly renamesBeforeOpen: Array<[string[], string]> = [];
  /** Known files no segment holds, by market: [file, partition year (Infinity if unknown)]. */
  private unindexed = new Map<string, Array<[string, number]>>();
  private unindexedCount = 0;
  private opened = false;
  private started = false;
  private invalid = false;
  private closed = false;
  private dirty = false;
  private manifestDirty = false;
  private work: Promise<void> | null = null;
  private failures = 0;
  /** Aborted on close: a running build stops at its next batch. */
  private readonly closing = new AbortController();
  /** Segments replaced since the manifest was last saved: their files go once it no longer names them. */
  private retiredIds: string[] = [];
  private lookups = 0;
  private builds = 0;
  private merges = 0;
  private builderMaxRssMiB = 0;
  private readonly builder = new HistoryBuilderProcess();

  constructor(private readonly options: HistoryIndexOptions) {}

  /** Opens the index on disk and starts keeping it complete (call once the reads know the lake's files). */
  start(): void {
    this.started = true;
    this.changed();
  }

  /** The reads' set of known files changed: what is not indexed is read with DuckDB until a segment holds it. */
  changed(): void {
    this.refreshUnindexed();
    this.schedule();
  }

  /** Compaction merged `removed` into `added` (same rows): records now name `added`. */
  replace(removed: readonly string[], added: string): void {
    if (!this.opened) {
      // Before the manifest is read (a start following the journal): replayed on what it holds.
      this.renamesBeforeOpen.push([[...removed], added]);
      return;
    }
    const allCovered = removed.every((file) => this.covered.has(file));
    for (const segment of this.segments) renameFiles(segment.files, removed, added);
    for (const file of removed) this.covered.delete(file);
    // Rows of a removed file no segment held yet are only in `added`: it is indexed again (rows held twice answer the same).
    if (allCovered && removed.length > 0) this.covered.set(added, SIGNATURE_LATER);
    this.renamesDuringBuild?.push([[...removed], added]);
    this.manifestDirty = true;
  }

  /** Resolves when nothing is left to build (or the index gave up for now). */
  async whenIdle(): Promise<void> {
    while (this.work) await this.work;
  }

  /**
   * The newest indexed snapshot of a ticker on or before `day` (or exactly on it), and the
   * files the caller must still read; null when the index cannot answer yet (not opened,
   * starting over, or too much not indexed).
   */
  async lookup(market: string, ticker: string, day: number, exactDay: boolean): Promise<IndexedLookup | null> {
    if (!this.opened || this.invalid || this.closed) return null;
    const year = Number(dayString(day).slice(0, 4));
    const unindexed = (this.unindexed.get(market) ?? [])
      .filter(([, fileYear]) => fileYear === year || (!exactDay && fileYear < year) || fileYear === Infinity)
      .map(([file]) => file);
    if (unindexed.length > (this.options.maxUnindexedFiles ?? 32)) return null;
    // Segments and unindexed files taken together, before any await: a build finishing meanwhile changes neither.
    const segments = this.segments;
    for (const segment of segments) segment.readers += 1;
    try {
      let raw: RawSnapshot | undefined;
      const tickerBytes = Buffer.from(ticker, 'utf8');
      for (const segment of segments) {
        const found = this.find(segment, market, ticker, tickerBytes, day, exactDay);
        if (found && newer(found, raw)) raw = found;
      }
      this.lookups += 1;
      return { raw, unindexed };
    } finally {
      for (const segment of segments) this.release(segment);
    }
  }

  stats(): HistoryIndexStats {
    return {
      segments: this.segments.length,
      rows: this.segments.reduce((n, s) => n + s.rows, 0),
      unindexedFiles: this.unindexedCount,
      lookups: this.lookups,
      builds: this.builds,
      merges: this.merges,
      builderMaxRssMiB: this.builderMaxRssMiB,
    };
  }

  /**
   * Stops building and closes the segments. A running build is asked to stop at its next batch
   * and awaited, so it removes its temp files (a builder that does not stop is killed).
   */
  async close(): Promise<void> {
    this.closed = true;
    this.closing.abort();
    await this.work?.catch(() => undefined);
    await this.builder.close();
    for (const segment of this.segments) await segment.handle.close().catch(() => undefined);
    this.segments = [];
  }

  private find(
    segment: Segment,
    market: string,
    ticker: string,
    tickerBytes: Buffer,
    day: number,
    exactDay: boolean,
  ): RawSnapshot | undefined {
    const entry = segment.tickers.find(market, tickerBytes);
    if (entry === null) return undefined;
    const [first, count] = entry;
    // A damaged table of the right size must not send a read past the segment's rows.
    if (first + count > segment.rows) return undefined;
    const days = Buffer.allocUnsafe(count * 4);
    // Synchronous positional reads of a ticker's days and one record (docs/serving.md, "as_of from the
    // history index"): from the page cache they are cheaper than the hand-offs of two asynchronous
    // reads to libuv's pool, which cost the API more CPU per as_of request than the reads themselves.
    readSync(segment.handle.fd, days, 0, days.length, dayOffset(first));
    // The last row dated on or before `day`: rows are in (day, screened_at) order, so the newest of its day.
    let lo = 0;
    let hi = count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (days.readInt32LE(mid * 4) <= day) lo = mid + 1;
      else hi = mid;
    }
    const at = lo - 1;
    if (at < 0) return undefined;
    const rowDay = days.readInt32LE(at * 4);
    if (exactDay && rowDay !== day) return undefined;
    const bytes = Buffer.allocUnsafe(RECORD_BYTES);
    readSync(segment.handle.fd, bytes, 0, RECORD_BYTES, recordOffset(segment.rows, first + at));
    const record = decodeRecord(bytes);
    return {
      market,
      ticker,
      day: rowDay,
      screenedAtMs: record.screenedAtMs,
      statusBits: record.statusBits,
      ratios: record.ratios,
      source: segment.strings[record.source]!,
      dataSource: segment.strings[record.dataSource]!,
      synthetic: record.synthetic,
      file: segment.files[record.file]!,
    };
  }

  private release(segment: Segment): void {
    segment.readers -= 1;
    if (segment.retired && segment.readers === 0) void segment.handle.close().catch(() => undefined);
  }

  private retire(segment: Segment): void {
    segment.retired = true;
    this.retiredIds.push(segment.id);
    if (segment.readers === 0) void segment.handle.close().catch(() => undefined);
  }

  /** Recomputes which known files no segment holds; a covered file gone or changed without a compaction invalidates the index. */
  private refreshUnindexed(): void {
    const known = new Map(this.options.known());
    for (const [file, signature] of this.covered) {
      const now = known.get(file);
      if (now === undefined || (signature !== SIGNATURE_LATER && signature !== now)) {
        this.invalid = true;
        break;
      }
      if (signature === SIGNATURE_LATER) this.covered.set(file, now);
    }
    const unindexed = new Map<string, Array<[string, number]>>();
    let count = 0;
    for (const file of known.keys()) {
      if (this.covered.has(file) && !this.invalid) continue;
      const match = PARTITION.exec(file);
      const market = match?.[1] ?? '';
      let list = unindexed.get(market);
      if (!list) unindexed.set(market, (list = []));
      list.push([file, match ? Number(match[2]) : Infinity]);
      count += 1;
    }
    this.unindexed = unindexed;
    this.unindexedCount = count;
  }

  private schedule(): void {
    if (!this.started || this.closed) return;
    this.dirty = true;
    this.work ??= this.run().finally(() => {
      this.work = null;
    });
  }

  private async run(): Promise<void> {
    try {
      if (!this.opened) {
        await this.open();
        this.opened = true;
        for (const [removed, added] of this.renamesBeforeOpen.splice(0)) this.replace(removed, added);
        this.refreshUnindexed();
      }
      while (this.dirty && !this.closed) {
        this.dirty = false;
        await this.step();
      }
    } catch (error) {
      if (this.closed) return;
      this.options.onError?.(error);
      // Files compacted away under a build, or a failing file: try again later, less often each time.
      this.failures += 1;
      const wait = Math.min(60_000, 500 * 2 ** Math.min(this.failures, 7));
      setTimeout(() => this.schedule(), wait).unref();
    }
  }

  /** One round: start over if invalid, index what is not indexed, then merge when segments pile up. */
  private async step(): Promise<void> {
    if (this.invalid) {
      for (const segment of this.segments) this.retire(segment);
      this.segments = [];
      this.covered.clear();
      this.invalid = false;
      this.manifestDirty = true;
      this.refreshUnindexed();
    }
    const known = new Map(this.options.known());
    const fresh = [...this.unindexed.values()].flat().map(([file]) => file);
    // Merged first: while a backfill publishes there is always something fresh, and every segment costs each lookup a search.
    if (this.segments.length > this.maxSegments()) {
      await this.merge(this.toMerge());
      this.failures = 0;
      this.dirty = true;
    } else if (fresh.length > 0) {
      await this.build(fresh.map((file) => [file, known.get(file) ?? SIGNATURE_LATER]));
      this.failures = 0;
      this.dirty = true;
    }
    if (this.manifestDirty) await this.saveManifest();
  }

  /** The segments `segmentsToMerge` picks. */
  private toMerge(): Segment[] {
    return segmentsToMerge(
      this.segments.map((segment) => segment.rows),
      this.maxSegments(),
    ).map((i) => this.segments[i]!);
  }

  private maxSegments(): number {
    return this.options.maxSegments ?? DEFAULT_MAX_SEGMENTS;
  }

  /** A new segment of the rows of `files` (read from the lake). */
  private async build(files: Array<[string, string]>): Promise<void> {
    for (const [file] of files) this.building.add(file);
    try {
      const built = new Map(files);
      await this.swapIn(
        [],
        (id) => this.builder.build({ files: files.map(([file]) => file), dir: this.options.dir, id }, this.closing.signal),
        built,
      );
      this.builds += 1;
    } finally {
      this.building.clear();
      this.refreshUnindexed();
    }
  }

  /**
   * One segment of the rows of `replacing`, from their binary rows (no file is read again). A
   * merge that fails (a segment another API process on the same folder replaced and removed
   * since this one loaded it) builds the same rows from the segments' files instead.
   */
  private async merge(replacing: readonly Segment[]): Promise<void> {
    const segments = replacing.map((segment) => ({ id: segment.id, files: [...segment.files] }));
    try {
      await this.swapIn(replacing, (id) => this.builder.merge({ segments, dir: this.options.dir, id }, this.closing.signal), new Map());
    } catch (error) {
      if (this.closed) throw error;
      this.options.onError?.(error);
      const files = [...new Set(segments.flatMap((segment) => segment.files))];
      await this.swapIn(replacing, (id) => this.builder.build({ files, dir: this.options.dir, id }, this.closing.signal), new Map());
    }
    this.merges += 1;
  }

  /**
   * Runs one builder task producing segment `id`, then swaps it in for `replacing` and marks
   * `built` (file → signature) covered. Compactions seen meanwhile are replayed on the new segment.
   */
  private async swapIn(
    replacing: readonly Segment[],
    produce: (id: string) => Promise<HistoryBuildResult>,
    built: Map<string, string>,
  ): Promise<void> {
    const id = `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
    this.renamesDuringBuild = [];
    try {
      const result = await produce(id);
      this.builderMaxRssMiB = Math.max(this.builderMaxRssMiB, result.maxRssMiB);
      if (this.closed) return;
      const segment = await this.loadSegment(id, null);
      if (!segment) throw new Error(`history index segment ${id} was built but cannot be read`);
      for (const [removed, added] of this.renamesDuringBuild) {
        renameFiles(segment.files, removed, added);
        for (const file of removed) built.delete(file);
      }
      // Swapped in one synchronous step: a lookup sees the old segments or the new one, never neither.
      for (const old of replacing) this.retire(old);
      this.segments = [...this.segments.filter((s) => !replacing.includes(s)), segment];
      for (const [file, signature] of built) if (!this.covered.has(file)) this.covered.set(file, signature);
      this.manifestDirty = true;
    } finally {
      this.renamesDuringBuild = null;
    }
  }

  private manifestPath(): string {
    return path.join(this.options.dir, 'manifest.json');
  }

  /** Loads the manifest's segments; anything torn, missing or of another format leaves an empty index to build. */
  private async open(): Promise<void> {
    await mkdir(this.options.dir, { recursive: true });
    const manifest = await readFile(this.manifestPath(), 'utf8')
      .then((text) => JSON.parse(text) as Manifest)
      .catch(() => null);
    const segments: Segment[] = [];
    let trusted = manifest !== null && manifest.format === HISTORY_INDEX_FORMAT;
    for (const entry of trusted ? manifest!.segments : []) {
      const segment = await this.loadSegment(entry.id, entry.files).catch(() => null);
      if (!segment) {
        trusted = false;
        break;
      }
      segments.push(segment);
    }
    if (trusted) {
      this.segments = segments;
      this.covered = new Map(manifest!.covered);
    } else {
      for (const segment of segments) await segment.handle.close().catch(() => undefined);
      this.manifestDirty = true;
    }
    await this.sweep();
  }

  /**
   * A segment whose `.bin` and directory are complete and of this format; null otherwise. Its
   * ticker table is read as bytes and searched as it is: nothing per ticker is parsed or built on
   * the event loop (format 2, `TickerTable`).
   */
  private async loadSegment(id: string, files: string[] | null): Promise<Segment | null> {
    const paths = segmentPaths(this.options.dir, id);
    const directory = await readFile(paths.directory, 'utf8')
      .then((text) => JSON.parse(text) as SegmentDirectoryFile)
      .catch(() => null);
    if (!directory || directory.format !== HISTORY_INDEX_FORMAT || (files !== null && files.length !== directory.files.length)) return null;
    const handle = await open(paths.bin, 'r').catch(() => null);
    if (!handle) return null;
    try {
      const header = Buffer.alloc(HEADER_BYTES);
      await handle.read(header, 0, HEADER_BYTES, 0);
      const at = tickerTableAt(directory, header, (await handle.stat()).size);
      if (at === null) throw new Error('torn');
      const table = Buffer.alloc(directory.tickerTableBytes);
      await handle.read(table, 0, table.length, at);
      return {
        id,
        handle,
        rows: directory.rows,
        strings: directory.strings,
        files: files ?? directory.files,
        tickers: new TickerTable(table, directory.markets),
        readers: 0,
        retired: false,
      };
    } catch {
      await handle.close();
      return null;
    }
  }

  /** Writes the manifest to a temp name and renames it (a crash leaves the old one or the new one), then removes unused segments. */
  private async saveManifest(): Promise<void> {
    const manifest: Manifest = {
      format: HISTORY_INDEX_FORMAT,
      segments: this.segments.map((s) => ({ id: s.id, files: s.files })),
      covered: [...this.covered],
    };
    const temp = `${this.manifestPath()}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
    await writeFile(temp, JSON.stringify(manifest));
    await rename(temp, this.manifestPath());
    this.manifestDirty = false;
    for (const id of this.retiredIds.splice(0)) {
      const paths = segmentPaths(this.options.dir, id);
      await Promise.all([rm(paths.bin, { force: true }), rm(paths.directory, { force: true })]);
    }
  }

  /**
   * At open, removes what no manifest names and is older than an hour: torn segments, builds a
   * crash abandoned. Younger files may be another API process's on the same DATA_DIR (two
   * replicas share one folder; each removes only the segments it replaced itself).
   */
  private async sweep(): Promise<void> {
    const keep = new Set(this.segments.map((s) => s.id));
    const before = Date.now() - STALE_MS;
    for (const name of await readdir(this.options.dir).catch(() => [] as string[])) {
      const id = name.split('.')[0]!;
      if (name === 'manifest.json' || (keep.has(id) && !name.endsWith('.tmp'))) continue;
      const file = path.join(this.options.dir, name);
      const info = await stat(file).catch(() => null);
      if (info && info.mtimeMs < before) await rm(file, { recursive: true, force: true });
    }
  }
}

function renameFiles(files: string[], removed: readonly string[], added: string): void {
  const gone = new Set(removed);
  for (let i = 0; i < files.length; i += 1) if (gone.has(files[i]!)) files[i] = added;
}
