import { createHash } from 'node:crypto';
import { existsSync, readSync } from 'node:fs';
import { mkdir, open, readFile, readdir, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { constants as zlibConstants, inflateRawSync } from 'node:zlib';
import { IdleChildProcess } from '../../common/idle-child.ts';
import { BoundedGate } from './api-reads-gate.ts';
import { rowKeyString, type RowKey } from './api-reads-queue.ts';
import { sharedCopy, type DeflatedResult } from './api-reads-stored-result.ts';
import { SIDECAR_FORMAT, type PrerenderOption, type SidecarIndex, type SidecarTask } from './api-reads-sidecar-build.ts';
import type { SidecarRow } from './api-reads-sidecar-row.ts';

/** What the reads want a sidecar for: a published file (with its change signature) and the tickers whose current row it holds. */
export interface SidecarWant {
  signature: string;
  tickers: string[];
}

export interface ResultSidecarOptions {
  /** Data directory of the lake whose files the sidecars cover. */
  dataDir: string;
  /** Folder of the sidecars (derived data: safe to delete; rebuilt on demand). */
  dir: string;
  /** Sidecar reads in flight at once (file read + inflate on libuv's threads). Default 32. */
  concurrency?: number;
  /** Sidecar reads waiting; one more is refused with `ReadsSaturatedError`. Default 2,000. */
  maxQueued?: number;
  retryAfterSeconds?: number;
  onError?: (error: unknown) => void;
  /** Pre-render each row's default report into its sidecar with this module. */
  prerender?: PrerenderOption;
}

/** Where a row's result (and, when pre-rendered, its default report right after it) sits in a sidecar. */
interface RowAt {
  offset: number;
  length: number;
  /** 0: no pre-rendered report. */
  reportLength: number;
  /** The company name the pre-rendered report carries (the result's own). */
  name: string;
  /** The pre-rendered report's length inflated. */
  reportBytes: number;
}

interface Loaded {
  id: string;
  binPath: string;
  /** The `.bin`'s inode: a render thread reads the row from this file, not a rebuilt one of the same name. */
  ino: number;
  handle: FileHandle;
  /** In shared memory: see `DeflatedResult`. */
  dictionary: Uint8Array;
  rows: Map<string, RowAt>;
}

/**
 * The store built for point reads of current reports (docs/serving.md, "Reads under load"): for each
 * published snapshot file holding current rows, a sidecar with each row's `result_json`
 * (methodology texts expanded) deflated on its own, and an in-memory map from row identity to its bytes. A read is one positional file
 * read and one inflate of ~1 kB, whatever the size of the Parquet file or its row groups.
 * Sidecars are built one at a time in a child process at the lowest CPU priority (common/idle-child.ts:
 * a nightly's new verdicts do not slow the worker still screening), off the request path, and kept on disk
 * across restarts (named by the file's path and change signature).
 */
export class ResultSidecars {
  private readonly loaded = new Map<string, Loaded>();
  private wants = new Map<string, SidecarWant>();
  private building: Promise<void> | null = null;
  private readonly gate: BoundedGate;
  private builder: IdleChildProcess<SidecarTask, { rows: number; bytes: number }> | null = null;
  private closed = false;

  constructor(private readonly options: ResultSidecarOptions) {
    this.gate = new BoundedGate(options.concurrency ?? 32, options.maxQueued ?? 2_000, options.retryAfterSeconds ?? 1, 'sidecar reads');
  }

  /** Files with a loaded sidecar. */
  get size(): number {
    return this.loaded.size;
  }

  /** Sets which files need sidecars: loads or builds what is missing (in the background), drops the rest. */
  plan(wants: Map<string, SidecarWant>): void {
    this.wants = wants;
    for (const [file, entry] of [...this.loaded]) {
      if (wants.get(file) === undefined || this.idOf(file, wants.get(file)!) !== entry.id) {
        this.loaded.delete(file);
        void entry.handle.close().catch(() => undefined);
      }
    }
    this.building ??= this.buildMissing().finally(() => {
      this.building = null;
    });
  }

  /** Resolves when every planned sidecar is loaded (or failed). */
  async whenBuilt(): Promise<void> {
    while (this.building) await this.building;
  }

  /** Whether the row's result can be read from a sidecar. */
  has(file: string, key: RowKey): boolean {
    return this.loaded.get(file)?.rows.has(rowKeyString(key)) ?? false;
  }

  /**
   * The row's `result_json` as its sidecar holds it, deflated (inflated where it is parsed, off
   * the event loop), or null when no sidecar holds it. Throws `ReadsSaturatedError` when too
   * many reads wait.
   */
  async read(file: string, key: RowKey): Promise<DeflatedResult | null> {
    const sidecar = this.loaded.get(file);
    const at = sidecar?.rows.get(rowKeyString(key));
    if (!sidecar || !at) return null;
    return this.gate.run(async () => {
      // A buffer of its own (not a slice of Node's pool): it is posted to a render thread.
      const deflated = new Uint8Array(at.length);
      await sidecar.handle.read(deflated, 0, at.length, at.offset);
      return { deflated, dictionary: sidecar.dictionary };
    });
  }

  /**
   * The row's pre-rendered default report (UTF-8 JSON), read with one synchronous positional
   * read (~1.4 kB from the page cache: an asynchronous read's hand-off to libuv's pool costs the
   * event loop more than the read) and inflated; null when its sidecar holds none, or one naming
   * another company than `companyName` (a listing's name that differs from the result's: a
   * render then names the listing's; '' names the result's).
   */
  readReport(file: string, key: RowKey, companyName: string): Buffer | null {
    const sidecar = this.loaded.get(file);
    const at = sidecar?.rows.get(rowKeyString(key));
    if (!sidecar || !at || at.reportLength === 0 || (companyName !== '' && at.name !== companyName)) return null;
    const deflated = Buffer.allocUnsafe(at.reportLength);
    try {
      if (readSync(sidecar.handle.fd, deflated, 0, at.reportLength, at.offset + at.length) !== at.reportLength) return null;
      // Inflated into one buffer of its size: by default zlib fills 16 kB chunks and joins them, three
      // buffers for a ~24 kB report, and under spread traffic that memory outside the heap counted
      // towards V8's next full collection (docs/serving.md, "Pre-rendered reports"). One more byte than
      // the report, or zlib would take a full output buffer as more to come and allocate another.
      return inflateRawSync(deflated, {
        dictionary: sidecar.dictionary,
        chunkSize: Math.max(zlibConstants.Z_MIN_CHUNK, at.reportBytes + 1),
      });
    } catch {
      // A damaged sidecar, or its file closed while the reads close: the caller renders the report instead.
      return null;
    }
  }

  /** Where the row's result sits in its sidecar, for a render thread to read there; null when no sidecar holds it. */
  locate(file: string, key: RowKey): SidecarRow | null {
    const sidecar = this.loaded.get(file);
    const at = sidecar?.rows.get(rowKeyString(key));
    return sidecar && at
      ? { path: sidecar.binPath, ino: sidecar.ino, offset: at.offset, length: at.length, dictionary: sidecar.dictionary }
      : null;
  }

  /** Waits for a running build, stops the builder thread and closes the files. */
  async close(): Promise<void> {
    this.closed = true;
    await this.whenBuilt();
    await this.builder?.close();
    // Unlisted first, so no read picks up a handle being closed.
    const entries = [...this.loaded.values()];
    this.loaded.clear();
    for (const entry of entries) await entry.handle.close().catch(() => undefined);
  }

  private idOf(file: string, want: SidecarWant): string {
    const reports = this.options.prerender === undefined ? '' : `\nreports ${this.options.prerender.version}`;
    return createHash('sha256').update(`${file}\n${want.signature}\n${SIDECAR_FORMAT}${reports}`).digest('hex').slice(0, 32);
  }

  private async buildMissing(): Promise<void> {
    await mkdir(this.options.dir, { recursive: true });
    // Loop: a plan made while building is picked up before the build loop ends.
    for (let pass = this.wants; ; pass = this.wants) {
      for (const [file, want] of pass) {
        if (this.closed) return;
        if (this.loaded.get(file)?.id === this.idOf(file, want) || this.wants !== pass) continue;
        try {
          await this.ensure(file, want);
        } catch (error) {
          this.options.onError?.(error);
        }
      }
      if (pass === this.wants) break;
    }
    await this.sweep();
  }

  private async ensure(file: string, want: SidecarWant): Promise<void> {
    const id = this.idOf(file, want);
    const binPath = path.join(this.options.dir, `${id}.bin`);
    const indexPath = path.join(this.options.dir, `${id}.idx.json`);
    let index = await this.readIndex(binPath, indexPath);
    if (!index) {
      this.builder ??= new IdleChildProcess({ module: new URL('./api-reads-sidecar-build.ts', import.meta.url), what: 'result sidecar' });
      const prerender = this.options.prerender === undefined ? {} : { prerender: this.options.prerender };
      await this.builder.run(
        { dataDir: this.options.dataDir, file, tickers: want.tickers, binPath, indexPath, ...prerender } satisfies SidecarTask,
        id,
        // Never stopped midway: `close` waits for the running build (a sidecar build has no batches to stop at).
        new AbortController().signal,
      );
      index = await this.readIndex(binPath, indexPath);
      if (!index) throw new Error(`result sidecar of ${file} was built but cannot be read`);
    }
    const handle = await open(binPath, 'r');
    const read = Buffer.alloc(index.dictionaryLength);
    await handle.read(read, 0, read.length, 0);
    const dictionary = sharedCopy(read);
    const rows = new Map<string, RowAt>();
    for (const [ticker, day, atMs, offset, length, reportLength = 0, name = '', reportBytes = 0] of index.rows) {
      rows.set(rowKeyString({ ticker, day, atMs }), { offset, length, reportLength, name, reportBytes });
    }
    const previous = this.loaded.get(file);
    const { ino } = await handle.stat();
    this.loaded.set(file, { id, binPath, ino, handle, dictionary, rows });
    if (previous) await previous.handle.close().catch(() => undefined);
  }

  /** The index when it and its `.bin` are complete (a crash may leave one without the other). */
  private async readIndex(binPath: string, indexPath: string): Promise<SidecarIndex | null> {
    if (!existsSync(indexPath) || !existsSync(binPath)) return null;
    const index = JSON.parse(await readFile(indexPath, 'utf8')) as SidecarIndex;
    if (index.version !== SIDECAR_FORMAT) return null;
    const last = index.rows.at(-1);
    const expected = last ? last[3] + last[4] + (last[5] ?? 0) : index.dictionaryLength;
    return (await stat(binPath)).size === expected ? index : null;
  }

  /** Removes sidecars no plan names any more (superseded files, compacted ones). */
  private async sweep(): Promise<void> {
    const keep = new Set([...this.wants].map(([file, want]) => this.idOf(file, want)));
    for (const name of await readdir(this.options.dir).catch(() => [] as string[])) {
      const id = name.split('.')[0]!;
      if (name.endsWith('.tmp') || keep.has(id)) continue;
      await rm(path.join(this.options.dir, name), { force: true });
    }
  }
}
