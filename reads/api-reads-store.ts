import type { VerdictRow } from './api-reads-types.ts';
import { SNAPSHOT_FRAMEWORKS, SNAPSHOT_RATIOS } from '../warehouse/lake-schemas.ts';
import { eraOf, type SnapshotFramework, type SnapshotRatio, type SnapshotStatus } from '../warehouse/snapshot-schema.ts';

/** Status codes in the order of their 2-bit encoding (see `statusBitsSql`). */
export const STATUS_CODES: readonly SnapshotStatus[] = ['compliant', 'non_compliant', 'questionable', 'insufficient_data'];

const DAY_MS = 86_400_000;
const RATIO_COUNT = SNAPSHOT_RATIOS.length;

/** One snapshot as the reads hand it to the store: dates as day numbers, statuses packed 2 bits each. */
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
  /** Day of the ticker's first snapshot, when an earlier one than `day` is known. */
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

/** Interned strings (sources, data sources) referenced by small integers. */
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
}

/**
 * The API's copy of each ticker's current (newest) snapshot — identity, statuses and ratios in
 * growable typed arrays, about 100 bytes a ticker — and the day of its first snapshot, filled
 * from the serving store's change feed (docs/serving.md, "Current verdicts"). Memory grows with
 * the universe, not with history; older snapshots and every stored result are read from the store.
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
  private meta = new Uint16Array(0);
  private strings = new StringTable(65_535);
  private readonly byMarket = new Map<string, Map<string, number>>();

  /** Tickers with a snapshot. */
  get size(): number {
    return this.count;
  }

  /**
   * Offers a snapshot: it becomes the ticker's current row when newer by (day, screened_at).
   * Older rows only move the first day back. True when the current row changed.
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
    });
  }

  private write(id: number, raw: RawSnapshot): void {
    this.day[id] = raw.day;
    this.at[id] = raw.screenedAtMs;
    this.bits[id] = raw.statusBits;
    for (let i = 0; i < RATIO_COUNT; i += 1) this.ratio[id * RATIO_COUNT + i] = raw.ratios[i] ?? Number.NaN;
    this.flags[id] = raw.synthetic ? 1 : 0;
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
    this.meta = copy(this.meta, (n) => new Uint16Array(n), 2);
    this.capacity = capacity;
  }
}
