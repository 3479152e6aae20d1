import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { Compressor, Decompressor } from 'zstd-napi';
import { SNAPSHOT_RATIOS } from '../common/snapshot-ratios.ts';
import { FRAMEWORK_IDS, type FrameworkId } from '../engine/frameworks.ts';
import type { VerdictStatus } from '../engine/result-types.ts';
import type { CurrentChanges, CurrentRow, ResultBlock, ServingRow, ServingSnapshot } from './serving-types.ts';

/** One letter per status, in `FRAMEWORK_IDS` order: ten bytes a row instead of ten columns. */
const STATUS_LETTERS: Record<VerdictStatus, string> = {
  compliant: 'c',
  non_compliant: 'n',
  questionable: 'q',
  insufficient_data: 'i',
};
const STATUS_OF_LETTER = new Map(Object.entries(STATUS_LETTERS).map(([status, letter]) => [letter, status as VerdictStatus]));

export function packStatuses(statuses: Record<FrameworkId, VerdictStatus>): string {
  return FRAMEWORK_IDS.map((id) => {
    const letter = STATUS_LETTERS[statuses[id]] as string | undefined;
    if (letter === undefined)
      throw new Error(`serving store: ${id} status '${String(statuses[id])}' is not one of ${Object.keys(STATUS_LETTERS).join(', ')}`);
    return letter;
  }).join('');
}

export function unpackStatuses(packed: string): Record<FrameworkId, VerdictStatus> {
  if (packed.length !== FRAMEWORK_IDS.length)
    throw new Error(`serving store: statuses '${packed}' are not ${FRAMEWORK_IDS.length} letters`);
  const out = {} as Record<FrameworkId, VerdictStatus>;
  FRAMEWORK_IDS.forEach((id, i) => {
    const status = STATUS_OF_LETTER.get(packed[i]!);
    if (status === undefined) throw new Error(`serving store: unknown status letter '${packed[i]}'`);
    out[id] = status;
  });
  return out;
}

/** The columns of a row as both engines store them, in `ROW_COLUMNS` order (result last). */
export const ROW_COLUMNS = [
  'market',
  'ticker',
  'snapshot_date',
  'screened_at',
  'source',
  'statuses',
  ...SNAPSHOT_RATIOS,
  'synthetic',
  'data_source',
] as const;

/** The columns of a row after its key and screen time: what a current row copies of its snapshot. */
export const VERDICT_COLUMNS = ROW_COLUMNS.slice(4);

/**
 * Results are compressed with zstd at level 1 against a preset dictionary (one whole result of
 * the sample universe, frozen once shipped): a result's keys, codes and methodology words repeat
 * in every row, and a backfill writes millions (docs/serving.md, "Stored results", for the sizes
 * and cost). A stored result starts with a mark byte: `ZSTD_MARK` and the dictionary's number,
 * `BLOCK_REFERENCE_MARK` and an index into a result block, or, written by earlier versions and
 * still read, `DEFLATE_MARK` and the dictionary's number, or a plain raw deflate stream. No raw
 * deflate stream starts with any of the three marks: bits 1–2 of each name block type 3, which
 * deflate reserves.
 */
const ZSTD_MARK = 0xf7;
const DEFLATE_MARK = 0xff;
/** The first byte of a reference into a result block; its next two bytes are the entry's index. */
const BLOCK_REFERENCE_MARK = 0xfe;
/** Entries of a block, at most (an index takes two bytes). */
export const MAX_BLOCK_RESULTS = 0xffff;
/** Set in a block's first byte (beside the dictionary's number) when the block is zstd; clear in deflated blocks of earlier versions. */
const ZSTD_BLOCK = 0x80;
/**
 * The newest format this codec writes. A pre-rendered report's version names it, so an API of
 * an earlier release, which cannot read it, treats the report as stale and renders its own
 * (docs/serving.md, "Formats").
 */
export const STORED_FORMAT = 'zstd1';

const CURRENT_DICTIONARY = 1;
const DICTIONARIES = new Map<number, Buffer>([[1, readFileSync(new URL('./result-dictionary-1.dict', import.meta.url))]]);

function dictionary(number: number): Buffer {
  const found = DICTIONARIES.get(number);
  if (found === undefined) throw new Error(`serving store: a result compressed against dictionary ${number}, which this version lacks`);
  return found;
}

/** One compressor a thread, its dictionary digested once; fast level 1 (docs/serving.md has the measured levels). */
let compressor: Compressor | undefined;
function zstdCompress(data: Uint8Array): Buffer {
  if (compressor === undefined) {
    compressor = new Compressor();
    compressor.setParameters({ compressionLevel: 1 });
    compressor.loadDictionary(dictionary(CURRENT_DICTIONARY));
  }
  return compressor.compress(data);
}

const decompressors = new Map<number, Decompressor>();
function zstdDecompress(data: Uint8Array, dictionaryNumber: number): Buffer {
  let found = decompressors.get(dictionaryNumber);
  if (found === undefined) {
    found = new Decompressor();
    found.loadDictionary(dictionary(dictionaryNumber));
    decompressors.set(dictionaryNumber, found);
  }
  return found.decompress(data);
}

/** A result as one row stores it alone: `ZSTD_MARK`, the dictionary's number, the zstd frame. */
export function compressResult(json: Uint8Array): Buffer {
  const frame = zstdCompress(json);
  const stored = Buffer.allocUnsafe(frame.length + 2);
  stored[0] = ZSTD_MARK;
  stored[1] = CURRENT_DICTIONARY;
  frame.copy(stored, 2);
  return stored;
}

/**
 * A stored result: its own compressed bytes, or `block`'s entry when it is a reference. A
 * reference with no block is an error, not a missing result: the block is written before the rows.
 */
export function decompressResult(stored: Uint8Array, block?: Uint8Array | null): Buffer {
  switch (stored[0]) {
    case ZSTD_MARK:
      return zstdDecompress(stored.subarray(2), stored[1]!);
    case BLOCK_REFERENCE_MARK:
      if (block === undefined || block === null) throw new Error('serving store: a result refers to a block the store does not hold');
      return resultInBlock(block, (stored[1]! << 8) | stored[2]!);
    case DEFLATE_MARK:
      return inflateRawSync(stored.subarray(2), { dictionary: dictionary(stored[1]!) });
    default:
      return inflateRawSync(stored);
  }
}

export function blockReference(index: number): Buffer {
  if (!Number.isInteger(index) || index < 0 || index >= MAX_BLOCK_RESULTS)
    throw new Error(`serving store: block index ${index} out of range`);
  return Buffer.from([BLOCK_REFERENCE_MARK, index >> 8, index & 0xff]);
}

/**
 * Results compressed as one zstd frame against the current dictionary. Layout: the dictionary's
 * number with `ZSTD_BLOCK` set (1 byte), the count (2 bytes), each result's length (4 bytes
 * each), then the frame. Blocks of earlier versions have the same layout with a raw deflate
 * stream and the flag clear.
 */
export function compressResultBlock(results: readonly Uint8Array[]): Buffer {
  if (results.length === 0 || results.length > MAX_BLOCK_RESULTS) throw new Error(`serving store: a block of ${results.length} results`);
  const header = Buffer.allocUnsafe(3 + 4 * results.length);
  header[0] = ZSTD_BLOCK | CURRENT_DICTIONARY;
  header.writeUInt16BE(results.length, 1);
  results.forEach((result, i) => header.writeUInt32BE(result.length, 3 + 4 * i));
  return Buffer.concat([header, zstdCompress(Buffer.concat(results))]);
}

/** Entry `index` of a block (the whole block is decompressed: one ticker's days of a year). */
export function resultInBlock(block: Uint8Array, index: number): Buffer {
  const data = Buffer.from(block.buffer, block.byteOffset, block.byteLength);
  const count = data.readUInt16BE(1);
  if (index >= count) throw new Error(`serving store: entry ${index} of a block of ${count}`);
  let start = 0;
  for (let i = 0; i < index; i += 1) start += data.readUInt32BE(3 + 4 * i);
  const body = data.subarray(3 + 4 * count);
  const dictionaryNumber = data[0]! & ~ZSTD_BLOCK;
  const all =
    (data[0]! & ZSTD_BLOCK) !== 0
      ? zstdDecompress(body, dictionaryNumber)
      : inflateRawSync(body, { dictionary: dictionary(dictionaryNumber) });
  return all.subarray(start, start + data.readUInt32BE(3 + 4 * index));
}

/** The values of a snapshot's columns, `ROW_COLUMNS` then the stored result. */
export function rowValues(snapshot: ServingSnapshot): Array<string | number | null | Buffer> {
  return [
    snapshot.market,
    snapshot.ticker,
    snapshot.snapshotDate,
    snapshot.screenedAt,
    ...verdictValues(snapshot),
    snapshot.resultStored ? Buffer.from(snapshot.result) : compressResult(snapshot.result),
  ];
}

/** The values of a row's `VERDICT_COLUMNS`. */
function verdictValues(row: ServingRow): Array<string | number | null> {
  return [row.source, packStatuses(row.statuses), ...SNAPSHOT_RATIOS.map((r) => row.ratios[r]), row.synthetic ? 1 : 0, row.dataSource];
}

/** The values of a ticker's current row, as `UPSERT_CURRENT` takes them: its newest snapshot, first day and the write's number. */
export function currentValues(newest: ServingRow, firstDate: string, seq: number): Array<string | number | null> {
  return [newest.market, newest.ticker, newest.snapshotDate, newest.screenedAt, firstDate, seq, ...verdictValues(newest)];
}

/** The values of a result block's columns, as `UPSERT_BLOCK` takes them. */
export function blockValues(block: ResultBlock): Array<string | Buffer> {
  return [block.market, block.ticker, block.screenedAt, block.year, block.data];
}

/** A row read back by either engine (column names as `ROW_COLUMNS`). */
export function rowOf(record: Record<string, unknown>): ServingRow {
  return rowOfValues(
    ROW_COLUMNS.map((column) => record[column]),
    0,
  );
}

/**
 * The change feed's records read back by either engine, as arrays in `SELECT_CURRENT_SINCE`'s
 * column order: the epoch and listings version in the record without `seq`, then rows. Arrays,
 * not objects: a start reads every ticker's row, and one object per row is most of its cost.
 */
export function currentChangesOf(records: ReadonlyArray<readonly unknown[]>, since: number): CurrentChanges {
  const first = 2 + ROW_COLUMNS.length;
  let seq = since;
  let meta: readonly unknown[] | undefined;
  const rows: CurrentRow[] = [];
  for (const record of records) {
    const recordSeq = record[first + 1];
    if (recordSeq === null || recordSeq === undefined) {
      meta = record;
      continue;
    }
    seq = Math.max(seq, Number(recordSeq));
    rows.push({ ...rowOfValues(record, 2), firstSnapshotDate: String(record[first]) });
  }
  const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));
  return { rows, seq, epoch: text(meta?.[0]), listingsVersion: text(meta?.[1]) };
}

/** Where each of `ROW_COLUMNS` is in a row of them. */
const AT = Object.fromEntries(ROW_COLUMNS.map((column, i) => [column, i])) as Record<(typeof ROW_COLUMNS)[number], number>;

/** A row from `ROW_COLUMNS` values starting at `at`: the one decoder of both engines' rows, by name or in order. */
function rowOfValues(values: readonly unknown[], at: number): ServingRow {
  const ratios = {} as ServingRow['ratios'];
  for (const r of SNAPSHOT_RATIOS) {
    const value = values[at + AT[r]];
    ratios[r] = value === null || value === undefined ? null : Number(value);
  }
  const synthetic = values[at + AT.synthetic];
  return {
    market: String(values[at + AT.market]),
    ticker: String(values[at + AT.ticker]),
    snapshotDate: String(values[at + AT.snapshot_date]),
    screenedAt: String(values[at + AT.screened_at]),
    source: String(values[at + AT.source]),
    statuses: unpackStatuses(String(values[at + AT.statuses])),
    ratios,
    synthetic: synthetic === true || Number(synthetic) === 1,
    dataSource: String(values[at + AT.data_source]),
  };
}

/** The newest row of each ticker in a batch and its earliest day: what the current table takes. */
export function newestPerTicker(snapshots: readonly ServingRow[]): Array<{ newest: ServingRow; firstDate: string }> {
  const byTicker = new Map<string, { newest: ServingRow; firstDate: string }>();
  for (const row of snapshots) {
    const key = `${row.market}\u0000${row.ticker}`;
    const seen = byTicker.get(key);
    if (seen === undefined) {
      byTicker.set(key, { newest: row, firstDate: row.snapshotDate });
      continue;
    }
    if (row.snapshotDate < seen.firstDate) seen.firstDate = row.snapshotDate;
    if (newer(row, seen.newest)) seen.newest = row;
  }
  return [...byTicker.values()];
}

/** What orders two screens of a ticker (a row, a stored report). */
type ScreenOrder = Pick<ServingRow, 'snapshotDate' | 'screenedAt'>;

/** Whether `a` supersedes `b`: a later day, or the same day screened later (or at once: a retry). */
export function newer(a: ScreenOrder, b: ScreenOrder): boolean {
  return a.snapshotDate > b.snapshotDate || (a.snapshotDate === b.snapshotDate && a.screenedAt >= b.screenedAt);
}
