import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SNAPSHOT_RATIOS } from '../lake-schemas.ts';

/**
 * The on-disk layout of the history index (docs/api.md, "as_of from the history index"). A
 * segment is two files, `<id>.bin` and `<id>.dir.json`:
 *
 * - `.bin`: a 16-byte header (magic, format, row count), then every row's day number (int32),
 *   then every row's record (`RECORD_BYTES`), both in (market, ticker, day, screened_at) order.
 *   An as_of reads a ticker's days (4 bytes a snapshot), binary-searches them and reads one record.
 * - `.dir.json`: the directory — per market, each ticker's first row and row count — and the
 *   tables of the strings and Parquet files the records name by number.
 *
 * Bump `HISTORY_INDEX_FORMAT` whenever either changes: an index of another format is rebuilt.
 */
export const HISTORY_INDEX_FORMAT = 1;

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

/** The `.dir.json` of a segment. */
export interface SegmentDirectory {
  format: number;
  rows: number;
  strings: string[];
  files: string[];
  /** [market, tickers, first row of each, row count of each] */
  markets: Array<[string, string[], number[], number[]]>;
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
 * Puts a fully written `.bin` (at `binTemp`) in place, then its directory, each by a rename:
 * a segment whose directory exists is complete (the reader also checks the `.bin`'s header and size).
 */
export function completeSegment(binTemp: string, paths: { bin: string; directory: string }, directory: SegmentDirectory): void {
  if (directory.strings.length > 65_535) throw new Error('history index: more than 65,535 distinct sources');
  renameSync(binTemp, paths.bin);
  const directoryTemp = `${paths.directory}.${process.pid}.tmp`;
  writeFileSync(directoryTemp, JSON.stringify(directory));
  renameSync(directoryTemp, paths.directory);
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

/** Size of a complete `.bin` of `rows` rows (a torn write is shorter). */
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
