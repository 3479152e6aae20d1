/**
 * How the serving store keeps results (docs/serving.md, "Stored results"): bytes and CPU a
 * result for the store's codec (zstd against the result dictionary) beside the format before it
 * (deflate level 1 against the same dictionary), measured in the same run on the engine's own
 * results of the deterministic bench universe (synthetic companies):
 * - a nightly's rows: each full result alone, as `snapshotRowFrom` stores it;
 * - a backfill's blocks: one company's compact results on twelve month ends in one block.
 * Run with `npx tsx bench/stored-results.bench.ts`.
 */
import { pathToFileURL } from 'node:url';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { screenCompany } from '../engine/index.ts';
import { compactResultJson, snapshotRowFrom } from '../activities/snapshot-rows.ts';
import { compressResult, compressResultBlock, decompressResult, resultInBlock } from '../serving/serving-codec.ts';
import { generateUniverse } from './engine.bench.ts';
import { describeMachine } from './machine.ts';
import { median } from './median.ts';

const COMPANIES = 2_000;
const BLOCK_COMPANIES = 300;
const MONTH_ENDS = 12;
const PASSES = 5;
const DICTIONARY = readFileSync(new URL('../serving/result-dictionary-1.dict', import.meta.url));

interface Codec {
  compress(items: readonly Buffer[]): Buffer;
  /** Every item back (the store reads one; a block is decompressed whole either way). */
  decompress(stored: Buffer, count: number): void;
}

/** The format before this one: raw deflate level 1 against the dictionary, a block one stream. */
const DEFLATE: Codec = {
  compress: (items) => deflateRawSync(items.length === 1 ? items[0]! : Buffer.concat(items), { level: 1, dictionary: DICTIONARY }),
  decompress: (stored) => void inflateRawSync(stored, { dictionary: DICTIONARY }),
};

const ZSTD: Codec = {
  compress: (items) => (items.length === 1 ? compressResult(items[0]!) : compressResultBlock(items)),
  decompress: (stored, count) => void (count === 1 ? decompressResult(stored) : resultInBlock(stored, count - 1)),
};

export interface CodecFigures {
  bytes: number;
  compressMicros: number;
  decompressMicros: number;
}

export interface StoredResultsFigures {
  nightlyJsonBytes: number;
  blockJsonBytes: number;
  nightly: { deflate: CodecFigures; zstd: CodecFigures };
  blocks: { deflate: CodecFigures; zstd: CodecFigures };
}

/** Median over passes, per group of items (a row, or a block). */
function measure(codec: Codec, groups: readonly Buffer[][]): CodecFigures {
  const compress: number[] = [];
  const decompress: number[] = [];
  let stored: Buffer[] = [];
  for (let pass = 0; pass < PASSES; pass++) {
    let started = process.hrtime.bigint();
    stored = groups.map((items) => codec.compress(items));
    compress.push(Number(process.hrtime.bigint() - started) / 1e3 / groups.length);
    started = process.hrtime.bigint();
    stored.forEach((bytes, i) => codec.decompress(bytes, groups[i]!.length));
    decompress.push(Number(process.hrtime.bigint() - started) / 1e3 / groups.length);
  }
  return {
    bytes: stored.reduce((sum, bytes) => sum + bytes.length, 0) / groups.length,
    compressMicros: median(compress),
    decompressMicros: median(decompress),
  };
}

const META = { source: 'nightly', runId: 'bench', screenedAt: '2026-11-28T02:00:00.000' } as const;

export function runStoredResultsBench(): StoredResultsFigures {
  const nightly = generateUniverse(COMPANIES).map((input) => [Buffer.from(snapshotRowFrom(input, screenCompany(input), META).result_json)]);
  const blocks = generateUniverse(BLOCK_COMPANIES, 20261128).map((input) =>
    Array.from({ length: MONTH_ENDS }, (_, month) => {
      const screeningDate = new Date(Date.UTC(2015, month + 1, 0)).toISOString().slice(0, 10);
      const day = { ...input, screeningDate };
      return Buffer.from(compactResultJson(screenCompany(day)));
    }),
  );
  const jsonBytes = (groups: Buffer[][]) => groups.reduce((sum, items) => sum + items.reduce((s, b) => s + b.length, 0), 0) / groups.length;
  return {
    nightlyJsonBytes: jsonBytes(nightly),
    blockJsonBytes: jsonBytes(blocks),
    nightly: { deflate: measure(DEFLATE, nightly), zstd: measure(ZSTD, nightly) },
    blocks: { deflate: measure(DEFLATE, blocks), zstd: measure(ZSTD, blocks) },
  };
}

export function formatStoredResultsBench(f: StoredResultsFigures): string[] {
  const line = (what: string, jsonBytes: number, pair: { deflate: CodecFigures; zstd: CodecFigures }) => {
    const { deflate, zstd } = pair;
    const faster = (before: number, now: number) => `×${(before / now).toFixed(2)}`;
    const one = (c: CodecFigures) =>
      `${c.bytes.toFixed(0)} B, compress ${c.compressMicros.toFixed(1)} µs, decompress ${c.decompressMicros.toFixed(1)} µs`;
    return (
      `[stored results] ${what} (${jsonBytes.toFixed(0)} B of JSON each, synthetic), median of ${PASSES} passes: ` +
      `zstd ${one(zstd)}; deflate before it ${one(deflate)}; ` +
      `compress ${faster(deflate.compressMicros, zstd.compressMicros)} faster, ` +
      `decompress ${faster(deflate.decompressMicros, zstd.decompressMicros)}, ` +
      `bytes ${((zstd.bytes / deflate.bytes) * 100).toFixed(0)} % of deflate's`
    );
  };
  return [
    line(`a nightly's rows, ${COMPANIES} full results each alone`, f.nightlyJsonBytes, f.nightly),
    line(`a backfill's blocks, ${BLOCK_COMPANIES} companies × ${MONTH_ENDS} month ends of compact results`, f.blockJsonBytes, f.blocks),
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(describeMachine());
  for (const line of formatStoredResultsBench(runStoredResultsBench())) console.log(line);
}
