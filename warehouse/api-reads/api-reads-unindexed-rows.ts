import type { RawSnapshot } from './api-reads-store.ts';

export interface UnindexedRowsOptions {
  /** Every row of one snapshot file (its as_of columns, no `result_json`). */
  readFile: (file: string) => Promise<RawSnapshot[]>;
  /** The file's change signature as the reads know it now (undefined: no longer known). */
  signatureOf: (file: string) => string | undefined;
  /**
   * Rows held at most, over every file (~540 bytes of heap each, with their map entries): past it
   * a file is not kept and the caller reads it per request. Default 200,000 (~105 MiB).
   */
  maxRows?: number;
  /** A file no lookup asked for this long is dropped (the history index holds it by then). Default 10 s. */
  idleMs?: number;
  now?: () => number;
}

/** What the held files answer for one lookup, and the files the caller must still read itself. */
export interface UnindexedAnswer {
  raw: RawSnapshot | undefined;
  unread: string[];
}

interface HeldFile {
  signature: string;
  /** Each ticker's rows in (day, screened_at) order; key: market NUL ticker. */
  rows: Map<string, RawSnapshot[]> | null;
  loading: Promise<void> | null;
  size: number;
  wantedAt: number;
  /** Not held (read failed, or past the row bound): handed back without a read until then. */
  passedUntil: number;
}

const DEFAULT_MAX_ROWS = 200_000;
const DEFAULT_IDLE_MS = 10_000;
const keyOf = (market: string, ticker: string) => `${market}\u0000${ticker}`;
/** Whether `a` is newer than `b` by (snapshot day, screened_at): what as_of answers with. */
export const newerSnapshot = (a: RawSnapshot, b: RawSnapshot | undefined) =>
  b === undefined || a.day > b.day || (a.day === b.day && a.screenedAtMs > b.screenedAtMs);

/**
 * The snapshot files the history index has not indexed yet, each read once into memory
 * (docs/benchmarks/api-p99-matrix.md, "as_of during a backfill"). A backfill publishes a file every few seconds and
 * the index takes each one a moment later: until then every as_of whose years a new file
 * covers must also read that file. Read per request (a DuckDB query over the file), that took the
 * API's cores at a few hundred requests a second; read once here, a lookup
 * is a map access. A file counts only while its signature is the one the reads know, so a
 * lookup never answers from rows the lake no longer holds; a file still being read is awaited
 * (one read shared by every request), and a file that cannot be held (the row bound, a failed
 * read) is handed back for the caller's own query, its read tried again only later.
 */
export class UnindexedRows {
  private readonly files = new Map<string, HeldFile>();
  private rows = 0;
  private lastSweep = 0;

  constructor(private readonly options: UnindexedRowsOptions) {}

  /** The newest row of the ticker on or before `day` (or exactly on it) in `files`, from memory; `unread`: files not held. */
  async lookup(files: readonly string[], market: string, ticker: string, day: number, exactDay: boolean): Promise<UnindexedAnswer> {
    const now = (this.options.now ?? Date.now)();
    this.sweep(now);
    const held: Array<[string, HeldFile]> = [];
    const unread: string[] = [];
    for (const file of files) {
      const entry = this.hold(file, now);
      if (entry) held.push([file, entry]);
      else unread.push(file);
    }
    let raw: RawSnapshot | undefined;
    for (const [file, entry] of held) {
      if (entry.loading) await entry.loading;
      // Read failed, dropped for the bound, or replaced meanwhile: the caller reads the file itself.
      if (entry.rows === null || this.files.get(file) !== entry) {
        unread.push(file);
        continue;
      }
      for (const row of entry.rows.get(keyOf(market, ticker)) ?? []) {
        if (row.day > day) break;
        if (exactDay && row.day !== day) continue;
        if (newerSnapshot(row, raw)) raw = row;
      }
    }
    return { raw, unread };
  }

  /** Files held and rows in them, for the reads' stats. */
  stats(): { files: number; rows: number } {
    return { files: [...this.files.values()].filter((entry) => entry.rows !== null).length, rows: this.rows };
  }

  /** The file's entry (reading it if new or changed), or null when it is not held. */
  private hold(file: string, now: number): HeldFile | null {
    const signature = this.options.signatureOf(file);
    if (signature === undefined) return null;
    let entry = this.files.get(file);
    if (entry && entry.signature !== signature) {
      this.drop(file, entry);
      entry = undefined;
    }
    if (!entry) {
      if (this.rows >= (this.options.maxRows ?? DEFAULT_MAX_ROWS)) return null;
      const created: HeldFile = { signature, rows: null, loading: null, size: 0, wantedAt: now, passedUntil: 0 };
      created.loading = this.read(file, created, now);
      this.files.set(file, created);
      entry = created;
    }
    entry.wantedAt = now;
    if (entry.rows === null && entry.loading === null) {
      if (now < entry.passedUntil) return null;
      entry.loading = this.read(file, entry, now);
    }
    return entry;
  }

  private async read(file: string, entry: HeldFile, now: number): Promise<void> {
    try {
      const rows = await this.options.readFile(file);
      if (this.files.get(file) !== entry) return;
      if (this.rows + rows.length > (this.options.maxRows ?? DEFAULT_MAX_ROWS)) {
        // Not read again on every lookup: once the idle time has passed, other files may have gone.
        entry.passedUntil = now + (this.options.idleMs ?? DEFAULT_IDLE_MS);
        return;
      }
      const byTicker = new Map<string, RawSnapshot[]>();
      const markets = new Map<string, string>();
      const market = (name: string) => markets.get(name) ?? (markets.set(name, name), name);
      for (const row of rows) {
        // One string for the file's path and market, not one per row: the held rows are mostly these.
        row.file = file;
        row.market = market(row.market);
        const key = keyOf(row.market, row.ticker);
        const list = byTicker.get(key);
        if (list) list.push(row);
        else byTicker.set(key, [row]);
      }
      for (const list of byTicker.values()) if (list.length > 1) list.sort((a, b) => a.day - b.day || a.screenedAtMs - b.screenedAtMs);
      entry.rows = byTicker;
      entry.size = rows.length;
      this.rows += rows.length;
    } catch {
      // This lookup's caller reads the file itself; a read is tried again a second later, not per request.
      entry.passedUntil = now + 1_000;
    } finally {
      entry.loading = null;
    }
  }

  /** At most once a second: drops files no lookup asked for within `idleMs` (indexed since, or compacted away). */
  private sweep(now: number): void {
    if (now - this.lastSweep < 1_000) return;
    this.lastSweep = now;
    const idleMs = this.options.idleMs ?? DEFAULT_IDLE_MS;
    for (const [file, entry] of this.files) if (now - entry.wantedAt > idleMs && entry.loading === null) this.drop(file, entry);
  }

  private drop(file: string, entry: HeldFile): void {
    this.files.delete(file);
    this.rows -= entry.size;
  }
}
