import { renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sidecarRowBytes, type SidecarRow } from '../../warehouse/api-reads/api-reads-sidecar-row.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const dictionary = Buffer.from('{"ticker":"","frameworks":{"shariah_aaoifi":{"status":"compliant"}}}');

/** Writes a sidecar-shaped `.bin` (dictionary, then each JSON deflated on its own) and returns where each row sits. */
function writeSidecar(file: string, jsons: string[]): SidecarRow[] {
  const parts = [dictionary];
  const rows: Array<{ offset: number; length: number }> = [];
  let offset = dictionary.length;
  for (const json of jsons) {
    const packed = deflateRawSync(json, { dictionary });
    parts.push(packed);
    rows.push({ offset, length: packed.length });
    offset += packed.length;
  }
  writeFileSync(file, Buffer.concat(parts));
  const { ino } = statSync(file);
  return rows.map((r) => ({ path: file, ino, ...r, dictionary: new Uint8Array(dictionary) }));
}

describe('reading a current result from its point-read sidecar by path (in a render thread)', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeAll(async () => {
    temp = await makeTempDir();
  });
  afterAll(() => temp?.cleanup());

  it('when the row is there, then it reads and inflates exactly that row', () => {
    const rows = writeSidecar(path.join(temp.dir, 'a.bin'), ['{"ticker":"AAA"}', '{"ticker":"BBB","x":"≤ 30 %"}']);
    expect(sidecarRowBytes(rows[1]!)?.toString('utf8')).toBe('{"ticker":"BBB","x":"≤ 30 %"}');
    expect(sidecarRowBytes(rows[0]!)?.toString('utf8')).toBe('{"ticker":"AAA"}');
  });

  it('when the sidecar is gone before the thread opened it, then the answer is null (the caller reads the result another way)', () => {
    const [row] = writeSidecar(path.join(temp.dir, 'b.bin'), ['{"ticker":"AAA"}']);
    expect(sidecarRowBytes({ ...row!, path: path.join(temp.dir, 'missing.bin') })).toBeNull();
  });

  it('when a sidecar was rebuilt under the same name, then a row of the old one is not read from the new file', () => {
    const file = path.join(temp.dir, 'c.bin');
    const [old] = writeSidecar(file, ['{"ticker":"OLD"}']);
    const other = path.join(temp.dir, 'c.bin.new');
    writeSidecar(other, ['{"ticker":"NEW-AND-LONGER"}']);
    renameSync(other, file);
    expect(statSync(file).ino).not.toBe(old!.ino);
    expect(sidecarRowBytes(old!)).toBeNull();
  });

  it('when a sidecar the thread has open is replaced, then its rows are still read from the file they belong to', () => {
    const file = path.join(temp.dir, 'd.bin');
    const [first, second] = writeSidecar(file, ['{"ticker":"ONE"}', '{"ticker":"TWO"}']);
    expect(sidecarRowBytes(first!)?.toString('utf8')).toBe('{"ticker":"ONE"}');
    const other = path.join(temp.dir, 'd.bin.new');
    writeSidecar(other, ['{"ticker":"SOMETHING ELSE ENTIRELY"}']);
    renameSync(other, file);
    expect(sidecarRowBytes(second!)?.toString('utf8')).toBe('{"ticker":"TWO"}');
  });

  it('when the file is shorter than the row, then the answer is null', () => {
    const file = path.join(temp.dir, 'e.bin');
    const [row] = writeSidecar(file, ['{"ticker":"AAA"}']);
    expect(sidecarRowBytes({ ...row!, offset: row!.offset + 1_000 })).toBeNull();
  });
});
