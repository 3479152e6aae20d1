import type { VerdictRow } from './api-reads-types.ts';
import { SNAPSHOT_FRAMEWORKS, SNAPSHOT_RATIOS } from '../lake-schemas.ts';
import { eraOf, type SnapshotFramework, type SnapshotRatio, type SnapshotStatus } from '../snapshot-schema.ts';

/** Status codes in the order of their 2-bit encoding (see `statusBitsSql`). */
export const STATUS_CODES: readonly SnapshotStatus[] = ['compliant', 'non_compliant', 'questionable', 'insufficient_data'];

const DAY_MS = 86_400_000;
const RATIO_COUNT = SNAPSHOT_RATIOS.length;

/** One snapshot as the loader hands it over: dates as day numbers, statuses packed 2 bits each. */
export interface RawSnapshot {
  market: string;
  ticker: string;
  /** Days since 1970-01-01. */
  day: number;
  /** `screened_at` in epoch milliseconds (UTC). */
  screenedAtMs: number;
  /** 2 bits per framework, in `SNAPSHOT_FRAMEWORKS` order (code index of `STATUS_CODES`). */
  statusBits: number;
  ratios: ReadonlyArray<number | null>;
  source: string;
  dataSource: string;
  synthetic: boolean;
  /** Path of the Parquet file holding the row's `result_json`, or null when known only in memory. */
  file: string | null;
  /** Day of the ticker's first snapshot, when the loader knows an earlier one than `day`. */
  firstDay?: number;
}

/** Days since 1970-01-01 → `YYYY-MM-DD`. */
export function dayString(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** `screened_at` epoch ms → the reads' form: ISO 8601 in UTC without zone, millisecond precision. */
export function screenedAtString(ms: number): string {
  return new Date(ms).toISOString().slice(0, 23);
}

/** A snapshot as the reads return it. */
export function verdictRowOfRaw(raw: RawSnapshot): VerdictRow {
  const snapshotDate = dayString(raw.day);
  const statuses = {} as Record<SnapshotFramework, SnapshotStatus>;
  SNAPSHOT_FRAMEWORKS.forEach((framework, i) => {
    statuses[framework] = STATUS_CODES[(raw.statusBits >>> (2 * i)) & 3]!;
  });
  const ratios = {} as Record<SnapshotRatio, number | null>;
  SNAPSHOT_RATIOS.forEach((name, i) => {
    ratios[name] = raw.ratios[i] ?? null;
  });
  return {
    market: raw.market,
    ticker: raw.ticker,
    snapshotDate,
    screenedAt: screenedAtString(raw.screenedAtMs),
    source: raw.source,
    era: eraOf(snapshotDate),
    statuses,
    ratios,
    synthetic: raw.synthetic,
    dataSource: raw.dataSource,
  };
}

/** Packs a status map into the 2-bit encoding. */
export function packStatuses(statuses: Record<SnapshotFramework, SnapshotStatus>): number {
  return SNAPSHOT_FRAMEWORKS.reduce((bits, id, i) => bits | (STATUS_CODES.indexOf(statuses[id]) << (2 * i)), 0);
}

/** What a checkpoint stores beside the typed arrays' bytes. */
export interface CurrentStoreHeader {
  count: number;
  strings: string[];
  files: string[];
  /** Per market: tickers and their row ids. */
  markets: Array<[string, string[], number[]]>;
}

/** Interned strings (sources, file paths) referenced by small integers. */
class StringTable {
  private readonly values: string[] = [];
  private readonly ids = new Map<string, number>();

  constructor(private readonly limit: number) {}

  intern(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      if (id >= this.limit) throw new Error(`current store: more than ${this.limit} distinct values`);
      this.values.push(value);
      this.ids.set(value, id);
    }
    return id;
  }

  at(id: number): string {
    return this.values[id]!;
  }

  /** Every value, by id (what a checkpoint stores). */
  all(): readonly string[] {
    return this.values;
  }

  /** A table with exactly these ids (after `rename`, several ids may share a value). */
  static of(values: readonly string[], limit: number): StringTable {
    const table = new StringTable(limit);
    values.forEach((value, id) => {
      table.values.push(value);
      if (!table.ids.has(value)) table.ids.set(value, id);
    });
    return table;
  }

  /** Every id of `from` now stands for `to` (rows moved to another file keep their ids). */
  rename(from: string, to: string): void {
    const id = this.ids.get(from);
    if (id === undefined) return;
    this.values[id] = to;
    this.ids.delete(from);
    if (!this.ids.has(to)) this.ids.set(to, id);
  }
}

/**
 * The hot path's data: each ticker's current (newest) snapshot — identity, statuses and ratios
 * in growable typed arrays, about 110 bytes a ticker — and the day of its first snapshot. Memory
 * grows with the universe, not with history: older snapshots are read from the history index
 * on disk or the lake (`api-reads-history-index.ts`, docs/serving.md "History reads"). Reasons stay in the Parquet files.
 */
export class CurrentStore {
  private capacity = 0;
  private count = 0;
  private day = new Int32Array(0);
  private first = new Int32Array(0);
  private at = new Float64Array(0);
  private bits = new Uint32Array(0);
  private ratio = new Float64Array(0);
  private flags = new Uint8Array(0);
  private file = new Int32Array(0);
  private meta = new Uint16Array(0);
  private strings = new StringTable(65_535);
  private files = new StringTable(2 ** 31 - 1);
  private readonly byMarket = new Map<string, Map<string, number>>();
  /** Market and ticker of each row id (for passes over every row without map lookups). */
  private readonly names: Array<[string, string]> = [];

  /** The store as plain arrays and typed-array bytes, for a checkpoint on disk (`api-reads-checkpoint.ts`). */
  exportState(): { header: CurrentStoreHeader; columns: Buffer[] } {
    const n = this.count;
    const bytes = (array: Int32Array | Float64Array | Uint32Array | Uint8Array | Uint16Array, width = 1) =>
      Buffer.from(array.buffer, array.byteOffset, n * width * array.BYTES_PER_ELEMENT);
    const markets = [...this.byMarket].map(
      ([market, tickers]) => [market, [...tickers.keys()], [...tickers.values()]] as [string, string[], number[]],
    );
    return {
      header: { count: n, strings: [...this.strings.all()], files: [...this.files.all()], markets },
      columns: [
        bytes(this.day),
        bytes(this.first),
        bytes(this.at),
        bytes(this.bits),
        bytes(this.ratio, RATIO_COUNT),
        bytes(this.flags),
        bytes(this.file),
        bytes(this.meta, 2),
      ],
    };
  }

  /** A store from `exportState`'s output. */
  static importState(header: CurrentStoreHeader, columns: readonly Buffer[]): CurrentStore {
    const store = new CurrentStore();
    store.grow(Math.max(1024, header.count));
    store.count = header.count;
    const fill = (target: Int32Array | Float64Array | Uint32Array | Uint8Array | Uint16Array, source: Buffer) =>
      new Uint8Array(target.buffer, target.byteOffset, source.length).set(source);
    [store.day, store.first, store.at, store.bits, store.ratio, store.flags, store.file, store.meta].forEach((target, i) =>
      fill(target, columns[i]!),
    );
    store.strings = StringTable.of(header.strings, 65_535);
    store.files = StringTable.of(header.files, 2 ** 31 - 1);
    for (const [market, tickers, ids] of header.markets) {
      store.byMarket.set(market, new Map(tickers.map((t, i) => [t, ids[i]!])));
      tickers.forEach((ticker, i) => (store.names[ids[i]!] = [market, ticker]));
    }
    return store;
  }

  /** Tickers with a snapshot. */
  get size(): number {
    return this.count;
  }

  /**
   * Offers a snapshot: it becomes the ticker's current row when newer by (day, screened_at); the
   * same row seen again in another file (a refresh's file found later, a compacted file) takes
   * that file. Older rows only move the first day back. True when the current row changed.
   */
  add(raw: RawSnapshot): boolean {
    let tickers = this.byMarket.get(raw.market);
    if (!tickers) this.byMarket.set(raw.market, (tickers = new Map()));
    let id = tickers.get(raw.ticker);
    const first = Math.min(raw.day, raw.firstDay ?? raw.day);
    if (id === undefined) {
      if (this.count === this.capacity) this.grow(Math.max(1024, this.capacity * 2));
      id = this.count++;
      tickers.set(raw.ticker, id);
      this.names[id] = [raw.market, raw.ticker];
      this.first[id] = first;
      this.write(id, raw);
      return true;
    }
    if (first < this.first[id]!) this.first[id] = first;
    const day = this.day[id]!;
    if (raw.day > day || (raw.day === day && raw.screenedAtMs > this.at[id]!)) {
      this.write(id, raw);
      return true;
    }
    if (raw.day === day && raw.screenedAtMs === this.at[id] && raw.file !== null) {
      const file = this.files.intern(raw.file);
      if (file === this.file[id]) return false;
      this.file[id] = file;
      return true;
    }
    return false;
  }

  /** Row id of the ticker's current snapshot. */
  latest(market: string, ticker: string): number | undefined {
    return this.byMarket.get(market)?.get(ticker);
  }

  /** Day number of the ticker's first snapshot. */
  firstDay(market: string, ticker: string): number | undefined {
    const id = this.latest(market, ticker);
    return id === undefined ? undefined : this.first[id];
  }

  /** The tickers of a market that have snapshots. */
  tickers(market: string): IterableIterator<string> {
    return (this.byMarket.get(market) ?? new Map<string, number>()).keys();
  }

  /** Markets that have snapshots. */
  markets(): string[] {
    return [...this.byMarket.keys()];
  }

  /** Parquet file holding the row's `result_json`, or null when only known in memory. */
  fileOf(id: number): string | null {
    const index = this.file[id]!;
    return index < 0 ? null : this.files.at(index);
  }

  /**
   * Each file holding current rows, with the market and ticker of each: one pass over the rows'
   * file column, no per-ticker lookups (it runs on the event loop after every publish).
   */
  rowsByFile(): Map<string, Array<[string, string]>> {
    const byId = new Map<number, Array<[string, string]>>();
    for (let id = 0; id < this.count; id += 1) {
      const file = this.file[id]!;
      if (file < 0) continue;
      const rows = byId.get(file);
      if (rows) rows.push(this.names[id]!);
      else byId.set(file, [this.names[id]!]);
    }
    const out = new Map<string, Array<[string, string]>>();
    // After a compaction several ids may name the same file.
    for (const [file, rows] of byId) {
      const name = this.files.at(file);
      const known = out.get(name);
      if (known) known.push(...rows);
      else out.set(name, rows);
    }
    return out;
  }

  /** Compaction merged `removed` into `added`: rows read from them are now read from it. */
  moveFiles(removed: readonly string[], added: string): void {
    for (const file of removed) this.files.rename(file, added);
  }

  dayOf(id: number): number {
    return this.day[id]!;
  }

  screenedAtMsOf(id: number): number {
    return this.at[id]!;
  }

  /** The row as a plain object. */
  decode(id: number, market: string, ticker: string): VerdictRow {
    const ratios: Array<number | null> = [];
    for (let i = 0; i < RATIO_COUNT; i += 1) {
      const value = this.ratio[id * RATIO_COUNT + i]!;
      ratios.push(Number.isNaN(value) ? null : value);
    }
    return verdictRowOfRaw({
      market,
      ticker,
      day: this.day[id]!,
      screenedAtMs: this.at[id]!,
      statusBits: this.bits[id]!,
      ratios,
      source: this.strings.at(this.meta[id * 2]!),
      dataSource: this.strings.at(this.meta[id * 2 + 1]!),
      synthetic: this.flags[id] === 1,
      file: null,
    });
  }

  private write(id: number, raw: RawSnapshot): void {
    this.day[id] = raw.day;
    this.at[id] = raw.screenedAtMs;
    this.bits[id] = raw.statusBits;
    for (let i = 0; i < RATIO_COUNT; i += 1) this.ratio[id * RATIO_COUNT + i] = raw.ratios[i] ?? Number.NaN;
    this.flags[id] = raw.synthetic ? 1 : 0;
    this.file[id] = raw.file === null ? -1 : this.files.intern(raw.file);
    this.meta[id * 2] = this.strings.intern(raw.source);
    this.meta[id * 2 + 1] = this.strings.intern(raw.dataSource);
  }

  private grow(capacity: number): void {
    const copy = <T extends Int32Array | Float64Array | Uint32Array | Uint8Array | Uint16Array>(
      old: T,
      make: (n: number) => T,
      width = 1,
    ): T => {
      const next = make(capacity * width);
      next.set(old);
      return next;
    };
    this.day = copy(this.day, (n) => new Int32Array(n));
    this.first = copy(this.first, (n) => new Int32Array(n));
    this.at = copy(this.at, (n) => new Float64Array(n));
    this.bits = copy(this.bits, (n) => new Uint32Array(n));
    this.ratio = copy(this.ratio, (n) => new Float64Array(n), RATIO_COUNT);
    this.flags = copy(this.flags, (n) => new Uint8Array(n));
    this.file = copy(this.file, (n) => new Int32Array(n));
    this.meta = copy(this.meta, (n) => new Uint16Array(n), 2);
    this.capacity = capacity;
  }
}
