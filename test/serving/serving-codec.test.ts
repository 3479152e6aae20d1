import { readFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { deflateResult, inflateResult } from '../../serving/serving-codec.ts';

// A whole result of the sample universe (synthetic), changed as the next day's screen changes it.
const dictionaryResult = readFileSync(new URL('../../serving/result-dictionary-1.dict', import.meta.url), 'utf8');
const nextDay = Buffer.from(dictionaryResult.replaceAll('2026-11-28', '2026-11-29').replaceAll('"score":80.5', '"score":79.9'));

describe('stored results', () => {
  it('come back byte for byte, at well under half the size of plain deflate', () => {
    const stored = deflateResult(nextDay);
    expect(inflateResult(stored).equals(nextDay)).toBe(true);
    expect(stored.length * 2).toBeLessThan(deflateRawSync(nextDay, { level: 1 }).length);
  });

  it('written before dictionaries (plain raw deflate, small window) still read', () => {
    const legacy = deflateRawSync(nextDay, { level: 1, windowBits: 10, memLevel: 4 });
    expect(inflateResult(legacy).equals(nextDay)).toBe(true);
    const empty = deflateRawSync(Buffer.alloc(0));
    expect(inflateResult(empty).length).toBe(0);
  });

  it('naming a dictionary this version lacks are refused, not misread', () => {
    const stored = deflateResult(nextDay);
    stored[1] = 200;
    expect(() => inflateResult(stored)).toThrow(/dictionary 200, which this version lacks/);
  });
});
