import { setImmediate as nextTurn } from 'node:timers/promises';
import type { CurrentStore, RawSnapshot } from './api-reads-store.ts';
import { SNAPSHOT_RATIOS } from '../lake-schemas.ts';

const RATIO_COUNT = SNAPSHOT_RATIOS.length;

/**
 * Snapshots in columns, as a load thread hands them to the event loop (docs/serving.md, "How the
 * API follows the lake"): typed arrays, repeated strings (markets, sources, files) as ids into
 * one small table, tickers as one joined string. A structured clone of this is a few memory
 * copies, where one object per row would cost the event loop 124,000 allocations to receive.
 */
export interface CurrentBatch {
  count: number;
  /** Distinct markets, sources, data sources and files, referenced by id. */
  strings: string[];
  /** Tickers, each followed by `\n`. */
  tickers: string;
  market: Int32Array;
  source: Int32Array;
  dataSource: Int32Array;
  file: Int32Array;
  day: Int32Array;
  /** Day of the ticker's first snapshot in the files read. */
  firstDay: Int32Array;
  atMs: Float64Array;
  statusBits: Uint32Array;
  /** `RATIO_COUNT` a row; NaN for null. */
  ratios: Float64Array;
  synthetic: Uint8Array;
}

/** Collects rows into a `CurrentBatch` (in a load thread). */
export class CurrentBatchBuilder {
  private readonly strings: string[] = [];
  private readonly ids = new Map<string, number>();
  private readonly tickers: string[] = [];
  private readonly columns = {
    market: [] as number[],
    source: [] as number[],
    dataSource: [] as number[],
    file: [] as number[],
    day: [] as number[],
    firstDay: [] as number[],
    atMs: [] as number[],
    statusBits: [] as number[],
    ratios: [] as number[],
    synthetic: [] as number[],
  };

  add(raw: RawSnapshot): void {
    const c = this.columns;
    this.tickers.push(raw.ticker);
    c.market.push(this.idOf(raw.market));
    c.source.push(this.idOf(raw.source));
    c.dataSource.push(this.idOf(raw.dataSource));
    c.file.push(raw.file === null ? -1 : this.idOf(raw.file));
    c.day.push(raw.day);
    c.firstDay.push(raw.firstDay ?? raw.day);
    c.atMs.push(raw.screenedAtMs);
    c.statusBits.push(raw.statusBits);
    for (let i = 0; i < RATIO_COUNT; i += 1) c.ratios.push(raw.ratios[i] ?? Number.NaN);
    c.synthetic.push(raw.synthetic ? 1 : 0);
  }

  finish(): CurrentBatch {
    const c = this.columns;
    return {
      count: this.tickers.length,
      strings: this.strings,
      tickers: this.tickers.length === 0 ? '' : `${this.tickers.join('\n')}\n`,
      market: Int32Array.from(c.market),
      source: Int32Array.from(c.source),
      dataSource: Int32Array.from(c.dataSource),
      file: Int32Array.from(c.file),
      day: Int32Array.from(c.day),
      firstDay: Int32Array.from(c.firstDay),
      atMs: Float64Array.from(c.atMs),
      statusBits: Uint32Array.from(c.statusBits),
      ratios: Float64Array.from(c.ratios),
      synthetic: Uint8Array.from(c.synthetic),
    };
  }

  private idOf(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.strings.length;
      this.strings.push(value);
      this.ids.set(value, id);
    }
    return id;
  }
}

/** Rows offered to the store between two turns of the event loop: a few milliseconds of work. */
const ROWS_PER_TURN = 4_096;

/**
 * Offers a batch's rows to `store`, `ROWS_PER_TURN` at a time, yielding to the event loop in
 * between so requests are served while 124,000 rows land. Each row lands whole; a reader may see
 * some tickers updated and others not yet, as while a publish is being written. Returns how many
 * current rows changed.
 */
export async function applyCurrentBatch(store: CurrentStore, batch: CurrentBatch): Promise<number> {
  let changed = 0;
  let at = 0;
  // One row object, refilled: the store copies what it keeps, so 124,000 rows make no garbage.
  const ratios = new Array<number | null>(RATIO_COUNT).fill(null);
  const raw: RawSnapshot = {
    market: '',
    ticker: '',
    day: 0,
    firstDay: 0,
    screenedAtMs: 0,
    statusBits: 0,
    ratios,
    source: '',
    dataSource: '',
    synthetic: false,
    file: null,
  };
  for (let start = 0; start < batch.count; start += ROWS_PER_TURN) {
    if (start > 0) await nextTurn();
    const end = Math.min(batch.count, start + ROWS_PER_TURN);
    for (let i = start; i < end; i += 1) {
      const stop = batch.tickers.indexOf('\n', at);
      raw.ticker = batch.tickers.slice(at, stop);
      at = stop + 1;
      for (let r = 0; r < RATIO_COUNT; r += 1) {
        const value = batch.ratios[i * RATIO_COUNT + r]!;
        ratios[r] = Number.isNaN(value) ? null : value;
      }
      const file = batch.file[i]!;
      raw.market = batch.strings[batch.market[i]!]!;
      raw.day = batch.day[i]!;
      raw.firstDay = batch.firstDay[i]!;
      raw.screenedAtMs = batch.atMs[i]!;
      raw.statusBits = batch.statusBits[i]!;
      raw.source = batch.strings[batch.source[i]!]!;
      raw.dataSource = batch.strings[batch.dataSource[i]!]!;
      raw.synthetic = batch.synthetic[i] === 1;
      raw.file = file < 0 ? null : batch.strings[file]!;
      if (store.add(raw)) changed += 1;
    }
  }
  return changed;
}
