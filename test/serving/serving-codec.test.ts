import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { blockReference, compressResult, compressResultBlock, decompressResult, resultInBlock } from '../../serving/serving-codec.ts';

// A whole result of the sample universe (synthetic), changed as the next day's screen changes it.
const dictionaryResult = readFileSync(new URL('../../serving/result-dictionary-1.dict', import.meta.url), 'utf8');
const dictionaryBytes = Buffer.from(dictionaryResult);
const nextDay = Buffer.from(dictionaryResult.replaceAll('2026-11-28', '2026-11-29').replaceAll('"score":80.5', '"score":79.9'));

describe('stored results', () => {
  it('come back byte for byte, at well under half the size of plain deflate', () => {
    const stored = compressResult(nextDay);
    expect(decompressResult(stored).equals(nextDay)).toBe(true);
    expect(stored.length * 2).toBeLessThan(deflateRawSync(nextDay, { level: 1 }).length);
  });

  it('are zstd frames against the dictionary: smaller than the earlier format, deflate against the same dictionary', () => {
    const stored = compressResult(nextDay);
    expect(stored[0]).toBe(0xf7);
    expect(stored.subarray(2, 6).readUInt32LE(0)).toBe(0xfd2fb528); // zstd's frame magic
    const earlier = deflateRawSync(nextDay, { level: 1, dictionary: dictionaryBytes });
    expect(stored.length).toBeLessThan(earlier.length + 2);
  });

  it('written by the earlier format (deflate against the dictionary, mark 0xff) still read', () => {
    const earlier = Buffer.concat([Buffer.from([0xff, 1]), deflateRawSync(nextDay, { level: 1, dictionary: dictionaryBytes })]);
    expect(decompressResult(earlier).equals(nextDay)).toBe(true);
  });

  it('written before dictionaries (plain raw deflate, small window) still read', () => {
    const legacy = deflateRawSync(nextDay, { level: 1, windowBits: 10, memLevel: 4 });
    expect(decompressResult(legacy).equals(nextDay)).toBe(true);
    const empty = deflateRawSync(Buffer.alloc(0));
    expect(decompressResult(empty).length).toBe(0);
  });

  it('naming a dictionary this version lacks are refused, not misread', () => {
    const stored = compressResult(nextDay);
    stored[1] = 200;
    expect(() => decompressResult(stored)).toThrow(/dictionary 200, which this version lacks/);
  });
});

describe('result blocks', () => {
  // A company's result on three month ends: what the dictionary lacks (2 kB here) repeats from day to day.
  const own = Array.from({ length: 32 }, (_, i) => createHash('sha256').update(`ZZZ${i}`).digest('hex')).join('');
  const days = ['2026-09-30', '2026-10-31', '2026-11-28'].map((day) =>
    Buffer.from(`${dictionaryResult.replaceAll('2026-11-28', day)}${own}`),
  );

  it('give back each entry byte for byte through its reference, in about the bytes of one result alone', () => {
    const block = compressResultBlock(days);
    days.forEach((day, i) => expect(decompressResult(blockReference(i), block).equals(day)).toBe(true));
    expect(block.length).toBeLessThan(compressResult(days[2]!).length * 1.5);
  });

  it('written by the earlier format (one deflate stream, the zstd flag clear) still read', () => {
    const header = Buffer.alloc(3 + 4 * days.length);
    header[0] = 1;
    header.writeUInt16BE(days.length, 1);
    days.forEach((day, i) => header.writeUInt32BE(day.length, 3 + 4 * i));
    const earlier = Buffer.concat([header, deflateRawSync(Buffer.concat(days), { level: 1, dictionary: dictionaryBytes })]);
    days.forEach((day, i) => expect(resultInBlock(earlier, i).equals(day)).toBe(true));
  });

  it('refuse an entry past their end, a reference with no block, and a dictionary this version lacks', () => {
    const block = compressResultBlock(days);
    expect(() => resultInBlock(block, 3)).toThrow(/entry 3 of a block of 3/);
    expect(() => decompressResult(blockReference(0), null)).toThrow(/refers to a block the store does not hold/);
    block[0] = 0x80 | 9;
    expect(() => resultInBlock(block, 0)).toThrow(/dictionary 9, which this version lacks/);
    expect(() => compressResultBlock([])).toThrow(/a block of 0 results/);
  });
});
