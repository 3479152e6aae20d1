import { closeSync, fstatSync, openSync, readFileSync, readSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { SNAPSHOT_RATIOS } from '../lake-schemas.ts';

/**
 * The on-disk layout of the history index (docs/serving.md, "as_of from the history index"). A
 * segment is two files, `<id>.bin` and `<id>.dir.json`:
 *
 * - `.bin`: a 16-byte header (magic, format, row count), then every row's day number (int32),
 *   then every row's record (`RECORD_BYTES`), both in (market, ticker, day, screened_at) order,
 *   then the ticker table (`TickerTable`): each ticker's first row and row count, found by a
 *   binary search over the table's bytes. An as_of looks its ticker up there, reads the ticker's
 *   days (4 bytes a snapshot), binary-searches them and reads one record.
 * - `.dir.json`: the tables of the strings and Parquet files the records name by number, and
 *   each market's count of tickers in the ticker table.
 *
 * Bump `HISTORY_INDEX_FORMAT` whenever either changes: an index of another format is rebuilt.
 * 2: the tickers moved from the `.dir.json` into a binary table, which an API process loads
 * without parsing or building a map (parsing a full-universe segment's directory and indexing it
 * blocked the event loop: docs/serving.md, "as_of from the history index", has the figures).
 */
export const HISTORY_INDEX_FORMAT = 2;

export const HEADER_BYTES = 16;
const MAGIC = 0x49485346; // "FSHI" little-endian

const RATIO_COUNT = SNAPSHOT_RATIOS.length;
/** screened_at f64, ratios f64 each (NaN = null), status bits u32, file u32, source u16, data source u16, synthetic u8, padding. */
const AT = 0;
const RATIOS = 8;
const BITS = RATIOS + 8 * RATIO_COUNT;
const FILE = BITS + 4;
const SOURCE = FILE + 4;
const DATA_SOURCE = SOURCE + 2;
const SYNTHETIC = DATA_SOURCE + 2;
export const RECORD_BYTES = Math.ceil((SYNTHETIC + 1) / 8) * 8;

/** One row as stored: a `RawSnapshot` without market, ticker and day (the directory and the days region hold those). */
export interface IndexRecord {
  screenedAtMs: number;
  ratios: ReadonlyArray<number | null>;
  statusBits: number;
  /** Number in the segment's file table. */
  file: number;
  /** Numbers in the segment's string table. */
  source: number;
  dataSource: number;
  synthetic: boolean;
}

/** A segment's directory as writers build it (on disk: `SegmentDirectoryFile` and the ticker table). */
export interface SegmentDirectory {
  format: number;
  rows: number;
  strings: string[];
  files: string[];
  /** [market, tickers, first row of each, row count of each] */
  markets: Array<[string, string[], number[], number[]]>;
}

/** The `.dir.json` of a segment: the directory without its tickers, which the `.bin`'s ticker table holds. */
export interface SegmentDirectoryFile {
  format: number;
  rows: number;
  strings: string[];
  files: string[];
  /** [market, tickers it has in the ticker table], in the table's order. */
  markets: Array<[string, number]>;
  /** Bytes of the ticker table at the end of the `.bin`. */
  tickerTableBytes: number;
}

/**
 * Each ticker's first row and row count in a segment, kept as the bytes they are stored in. For
 * the table's N tickers — markets in order, each market's tickers in byte order, so each market
 * is a contiguous range — three little-endian u32 columns of N values (first row, row count, end
 * of the ticker's name in the text), then the text: every name's UTF-8 bytes, one after another.
 * A look-up is a binary search of the market's range; loading one is one read, with nothing
 * parsed and no map built per ticker.
 */
export class TickerTable {
  private readonly ranges = new Map<string, [start: number, end: number]>();
  private readonly count: number;
  private readonly text: number;

  constructor(
    private readonly table: Buffer,
    markets: ReadonlyArray<[string, number]>,
  ) {
    let start = 0;
    for (const [market, n] of markets) {
      this.ranges.set(market, [start, start + n]);
      start += n;
    }
    this.count = start;
    this.text = start * 12;
    if (table.length < this.text || (start > 0 && this.text + this.endOf(start - 1) !== table.length)) {
      throw new Error('history index: ticker table does not match its directory');
    }
  }

  /** [first row, row count] of the ticker in the market; null when the segment has no row of it. */
  find(market: string, ticker: Buffer): [first: number, count: number] | null {
    const range = this.ranges.get(market);
    if (!range) return null;
    let [lo, hi] = range;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const order = this.table.compare(ticker, 0, ticker.length, this.startOf(mid), this.text + this.endOf(mid));
      if (order === 0) return [this.table.readUInt32LE(mid * 4), this.table.readUInt32LE((this.count + mid) * 4)];
      if (order < 0) lo = mid + 1;
      else hi = mid;
    }
    return null;
  }

  /** Every ticker of the table as [market, ticker, first row, row count], in the table's order. */
  *entries(): Generator<[string, string, number, number]> {
    for (const [market, [start, end]] of this.ranges) {
      for (let i = start; i < end; i += 1) {
        const ticker = this.table.toString('utf8', this.startOf(i), this.text + this.endOf(i));
        yield [market, ticker, this.table.readUInt32LE(i * 4), this.table.readUInt32LE((this.count + i) * 4)];
      }
    }
  }

  private endOf(i: number): number {
    return this.table.readUInt32LE((2 * this.count + i) * 4);
  }

  private startOf(i: number): number {
    return this.text + (i === 0 ? 0 : this.endOf(i - 1));
  }
}

/** The ticker table of a directory (`TickerTable`) and the markets' ticker counts in its order. */
export function encodeTickerTable(markets: SegmentDirectory['markets']): { table: Buffer; counts: Array<[string, number]> } {
  const entries: Array<[bytes: Buffer, first: number, count: number]> = [];
  const counts: Array<[string, number]> = [];
  for (const [market, tickers, firsts, rowCounts] of [...markets].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const own = tickers.map((ticker, i): [Buffer, number, number] => [Buffer.from(ticker, 'utf8'), firsts[i]!, rowCounts[i]!]);
    own.sort(([a], [b]) => Buffer.compare(a, b));
    entries.push(...own);
    counts.push([market, own.length]);
  }
  const n = entries.length;
  const textBytes = entries.reduce((sum, [bytes]) => sum + bytes.length, 0);
  const table = Buffer.alloc(n * 12 + textBytes);
  let end = 0;
  entries.forEach(([bytes, first, count], i) => {
    table.writeUInt32LE(first, i * 4);
    table.writeUInt32LE(count, (n + i) * 4);
    bytes.copy(table, n * 12 + end);
    end += bytes.length;
    table.writeUInt32LE(end, (2 * n + i) * 4);
  });
  return { table, counts };
}

/** Rows a segment writer buffers before one positioned write of their days and one of their records. */
export const BATCH_ROWS = 16_384;

/** Interns strings as numbers in first-seen order (a segment's tables of sources and files). */
export function internTable(): { values: string[]; id: (value: string) => number } {
  const ids = new Map<string, number>();
  const values: string[] = [];
  return {
    values,
    id(value) {
      let id = ids.get(value);
      if (id === undefined) {
        id = values.length;
        ids.set(value, id);
        values.push(value);
      }
      return id;
    },
  };
}

/**
 * Appends the ticker table to a fully written `.bin` (at `binTemp`), puts it in place, then its
 * directory, each by a rename: a segment whose directory exists is complete (the reader also
 * checks the `.bin`'s header and size).
 */
export function completeSegment(binTemp: string, paths: { bin: string; directory: string }, directory: SegmentDirectory): void {
  if (directory.strings.length > 65_535) throw new Error('history index: more than 65,535 distinct sources');
  const { table, counts } = encodeTickerTable(directory.markets);
  const fd = openSync(binTemp, 'r+');
  try {
    if (writeSync(fd, table, 0, table.length, segmentBytes(directory.rows)) !== table.length) {
      throw new Error('history index: ticker table written short');
    }
  } finally {
    closeSync(fd);
  }
  renameSync(binTemp, paths.bin);
  const file: SegmentDirectoryFile = {
    format: directory.format,
    rows: directory.rows,
    strings: directory.strings,
    files: directory.files,
    markets: counts,
    tickerTableBytes: table.length,
  };
  const directoryTemp = `${paths.directory}.${process.pid}.tmp`;
  writeFileSync(directoryTemp, JSON.stringify(file));
  renameSync(directoryTemp, paths.directory);
}

/**
 * A complete segment's `.dir.json` and ticker table, read synchronously (a merge in the builder
 * process, tests); null when the directory is of another format. Throws when a file is missing
 * (ENOENT) or the `.bin` does not match its directory.
 */
export function readSegmentDirectory(paths: {
  bin: string;
  directory: string;
}): { file: SegmentDirectoryFile; tickers: TickerTable } | null {
  const file = JSON.parse(readFileSync(paths.directory, 'utf8')) as SegmentDirectoryFile;
  if (file.format !== HISTORY_INDEX_FORMAT) return null;
  const fd = openSync(paths.bin, 'r');
  try {
    const header = Buffer.alloc(HEADER_BYTES);
    readSync(fd, header, 0, HEADER_BYTES, 0);
    const at = tickerTableAt(file, header, fstatSync(fd).size);
    if (at === null) throw new Error(`history index segment ${paths.bin} does not match its directory`);
    const table = Buffer.alloc(file.tickerTableBytes);
    readSync(fd, table, 0, table.length, at);
    return { file, tickers: new TickerTable(table, file.markets) };
  } finally {
    closeSync(fd);
  }
}

/**
 * Where a segment's ticker table starts in its `.bin`, given the `.bin`'s header and size; null
 * when either does not match the directory (a torn write, or another segment's file).
 */
export function tickerTableAt(file: SegmentDirectoryFile, header: Buffer, binBytes: number): number | null {
  const at = segmentBytes(file.rows);
  return decodeHeader(header) === file.rows && binBytes === at + file.tickerTableBytes ? at : null;
}

export function segmentPaths(dir: string, id: string): { bin: string; directory: string } {
  return { bin: path.join(dir, `${id}.bin`), directory: path.join(dir, `${id}.dir.json`) };
}

export function encodeHeader(rows: number): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt32LE(MAGIC, 0);
  header.writeUInt32LE(HISTORY_INDEX_FORMAT, 4);
  header.writeUInt32LE(rows, 8);
  return header;
}

/** The header's row count, or null when it is not a header of this format. */
export function decodeHeader(header: Buffer): number | null {
  if (header.length < HEADER_BYTES || header.readUInt32LE(0) !== MAGIC || header.readUInt32LE(4) !== HISTORY_INDEX_FORMAT) return null;
  return header.readUInt32LE(8);
}

/** Size of a `.bin`'s header, days and records for `rows` rows (its ticker table follows). */
export function segmentBytes(rows: number): number {
  return HEADER_BYTES + rows * (4 + RECORD_BYTES);
}

/** Offset of row `row`'s day number. */
export function dayOffset(row: number): number {
  return HEADER_BYTES + row * 4;
}

/** Offset of row `row`'s record in a segment of `rows` rows. */
export function recordOffset(rows: number, row: number): number {
  return HEADER_BYTES + rows * 4 + row * RECORD_BYTES;
}

export function encodeRecord(record: IndexRecord, target: Buffer, at: number): void {
  target.writeDoubleLE(record.screenedAtMs, at + AT);
  for (let i = 0; i < RATIO_COUNT; i += 1) target.writeDoubleLE(record.ratios[i] ?? Number.NaN, at + RATIOS + 8 * i);
  target.writeUInt32LE(record.statusBits >>> 0, at + BITS);
  target.writeUInt32LE(record.file, at + FILE);
  target.writeUInt16LE(record.source, at + SOURCE);
  target.writeUInt16LE(record.dataSource, at + DATA_SOURCE);
  target.writeUInt8(record.synthetic ? 1 : 0, at + SYNTHETIC);
}

/** A record's `screened_at` (ms), without decoding the rest: what a merge orders rows of one day by. */
export function recordScreenedAtMs(source: Buffer, at: number): number {
  return source.readDoubleLE(at + AT);
}

/**
 * Renumbers a record's file, source and data source in place, through one table each (old
 * number → new): a merge joins segments whose tables number the same names differently.
 */
export function renumberRecord(target: Buffer, at: number, files: Uint32Array, strings: Uint32Array): void {
  target.writeUInt32LE(files[target.readUInt32LE(at + FILE)]!, at + FILE);
  target.writeUInt16LE(strings[target.readUInt16LE(at + SOURCE)]!, at + SOURCE);
  target.writeUInt16LE(strings[target.readUInt16LE(at + DATA_SOURCE)]!, at + DATA_SOURCE);
}

export function decodeRecord(source: Buffer, at = 0): IndexRecord {
  const ratios: Array<number | null> = [];
  for (let i = 0; i < RATIO_COUNT; i += 1) {
    const value = source.readDoubleLE(at + RATIOS + 8 * i);
    ratios.push(Number.isNaN(value) ? null : value);
  }
  return {
    screenedAtMs: source.readDoubleLE(at + AT),
    ratios,
    statusBits: source.readUInt32LE(at + BITS),
    file: source.readUInt32LE(at + FILE),
    source: source.readUInt16LE(at + SOURCE),
    dataSource: source.readUInt16LE(at + DATA_SOURCE),
    synthetic: source.readUInt8(at + SYNTHETIC) === 1,
  };
}
