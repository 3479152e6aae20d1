import { spawn } from 'node:child_process';
import { appendFile, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { announceLakeChange, journalPath, LakeJournalReader, trimLakeJournal, type LakeChange } from '../../warehouse/lake-journal.ts';
import { makeTempDir } from '../support/temp-dir.ts';

/** A separate process appending `count` changes, as pipeline workers do beside the API. */
function writerProcess(dataDir: string, writer: number, count: number): Promise<void> {
  const script = `
    const { announceLakeChange } = await import(${JSON.stringify(new URL('../../warehouse/lake-journal.ts', import.meta.url).href)});
    for (let i = 0; i < ${count}; i += 1) {
      const file = 'market=us/year=2026/w${writer}-' + i + '-' + 'x'.repeat(200) + '.parquet';
      await announceLakeChange(${JSON.stringify(dataDir)}, { op: 'add', table: 'snapshots', files: [file] });
    }`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: 'inherit' });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer ${writer} exited ${code}`))));
  });
}

/** A separate process that, like the lake writer, puts each file in place and then announces it. */
function placingWriterProcess(dataDir: string, filesDir: string, writer: number, count: number): Promise<void> {
  const script = `
    const { writeFile } = await import('node:fs/promises');
    const { announceLakeChange } = await import(${JSON.stringify(new URL('../../warehouse/lake-journal.ts', import.meta.url).href)});
    for (let i = 0; i < ${count}; i += 1) {
      const name = 'w${writer}-' + i + '.parquet';
      await writeFile(${JSON.stringify(filesDir)} + '/' + name, '');
      await announceLakeChange(${JSON.stringify(dataDir)}, { op: 'add', table: 'snapshots', files: [name] });
      // Spread over a second or more, so that several trims (each two fsyncs) land among the writes.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: 'inherit' });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer ${writer} exited ${code}`))));
  });
}

const added = (names: string[]): LakeChange[] => names.map((name) => ({ op: 'add', table: 'snapshots', files: [name] }));

describe('the lake change journal', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    temp = await makeTempDir();
  });
  afterEach(() => temp.cleanup());

  it('when four processes append while a reader follows, then the reader gets every change exactly once, whole', async () => {
    const reader = new LakeJournalReader(temp.dir);
    const got: LakeChange[] = [];
    let writing = true;
    const following = (async () => {
      while (writing) {
        const read = await reader.read();
        expect(read.kind).toBe('changes');
        if (read.kind === 'changes') got.push(...read.changes);
      }
    })();
    await Promise.all([0, 1, 2, 3].map((w) => writerProcess(temp.dir, w, 250))).finally(() => (writing = false));
    await following;
    const last = await reader.read();
    if (last.kind === 'changes') got.push(...last.changes);
    const files = got.flatMap((c) => (c.op === 'add' ? c.files : []));
    expect(files).toHaveLength(1_000);
    expect(new Set(files).size).toBe(1_000);
  }, 60_000);

  it('when nothing was appended, then a read is empty and the generation stays', async () => {
    await announceLakeChange(temp.dir, { op: 'add', table: 'listings', files: ['market=us/a.parquet'] });
    const reader = new LakeJournalReader(temp.dir);
    expect(await reader.read()).toEqual({ kind: 'changes', changes: [{ op: 'add', table: 'listings', files: ['market=us/a.parquet'] }] });
    const generation = reader.generation;
    expect(await reader.read()).toEqual({ kind: 'changes', changes: [] });
    expect(reader.generation).toBe(generation);
  });

  it('when a line is still being written, then it is read only once complete', async () => {
    const reader = new LakeJournalReader(temp.dir);
    await announceLakeChange(temp.dir, { op: 'add', table: 'snapshots', files: ['a.parquet'] });
    await appendFile(journalPath(temp.dir), '{"op":"add","table":"snap');
    expect(await reader.read()).toEqual({ kind: 'changes', changes: [{ op: 'add', table: 'snapshots', files: ['a.parquet'] }] });
    await appendFile(journalPath(temp.dir), 'shots","files":["b.parquet"]}\n');
    expect(await reader.read()).toEqual({ kind: 'changes', changes: [{ op: 'add', table: 'snapshots', files: ['b.parquet'] }] });
  });

  it('when a line was torn by a crash, or the journal was replaced or removed, then the reader asks for a rescan', async () => {
    const reader = new LakeJournalReader(temp.dir);
    await announceLakeChange(temp.dir, { op: 'add', table: 'snapshots', files: ['a.parquet'] });
    await reader.read();
    await appendFile(journalPath(temp.dir), '{"op":"add","tab\n');
    expect(await reader.read()).toEqual({ kind: 'rescan' });

    await reader.skipToEnd();
    await rm(journalPath(temp.dir));
    expect(await reader.read()).toEqual({ kind: 'rescan' });
    await announceLakeChange(temp.dir, { op: 'add', table: 'snapshots', files: ['b.parquet'] });
    expect(await reader.read()).toEqual({ kind: 'rescan' });
    await reader.skipToEnd();
    expect(await reader.read()).toEqual({ kind: 'changes', changes: [] });
  });

  it('when the journal is smaller than the trim size, then trimming leaves it as it is', async () => {
    await announceLakeChange(temp.dir, added(['a.parquet'])[0]!);
    const before = await readFile(journalPath(temp.dir), 'utf8');
    expect(await trimLakeJournal(temp.dir, before.length + 1)).toEqual({ trimmed: false, bytesBefore: before.length });
    expect(await readFile(journalPath(temp.dir), 'utf8')).toBe(before);
    expect(await trimLakeJournal(path.join(temp.dir, 'no-lake'), 0)).toEqual({ trimmed: false, bytesBefore: 0 });
  });

  it('when the journal is trimmed, then it holds only a marker, a reader of the old file rescans once and then follows the new one', async () => {
    const reader = new LakeJournalReader(temp.dir);
    for (const change of added(['a.parquet', 'b.parquet'])) await announceLakeChange(temp.dir, change);
    expect(await reader.read()).toEqual({ kind: 'changes', changes: added(['a.parquet', 'b.parquet']) });
    const oldSize = (await stat(journalPath(temp.dir))).size;

    expect(await trimLakeJournal(temp.dir, 1)).toEqual({ trimmed: true, bytesBefore: oldSize });
    const lines = (await readFile(journalPath(temp.dir), 'utf8')).split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ op: 'trim', bytesBefore: oldSize, generation: expect.stringMatching(/^[0-9a-f]{16}$/) });

    await announceLakeChange(temp.dir, added(['c.parquet'])[0]!);
    expect(await reader.read()).toEqual({ kind: 'rescan' });
    await reader.skipToEnd();
    await announceLakeChange(temp.dir, added(['d.parquet'])[0]!);
    expect(await reader.read()).toEqual({ kind: 'changes', changes: added(['d.parquet']) });
    // A reader new to the trimmed journal reads it from the start: the marker is not a change.
    expect(await new LakeJournalReader(temp.dir).read()).toEqual({ kind: 'changes', changes: added(['c.parquet', 'd.parquet']) });
  });

  it('when writers in four processes publish while the journal is trimmed again and again, then a reader that rescans on a trim misses no file', async () => {
    const filesDir = path.join(temp.dir, 'files');
    await mkdir(filesDir);
    await writeFile(path.join(filesDir, 'before.parquet'), '');
    const reader = new LakeJournalReader(temp.dir);
    const seen = new Set<string>();
    let rescans = 0;
    let writing = true;
    const following = (async () => {
      do {
        const read = await reader.read();
        if (read.kind === 'changes') {
          for (const change of read.changes) if (change.op === 'add') change.files.forEach((f) => seen.add(f));
        } else {
          // As ApiReads does: move to the journal's end first, then list, so nothing falls between.
          rescans += 1;
          await reader.skipToEnd();
          for (const name of await readdir(filesDir)) seen.add(name);
        }
      } while (writing);
    })();
    let trims = 0;
    const trimming = (async () => {
      while (writing) {
        if ((await trimLakeJournal(temp.dir, 1)).trimmed) trims += 1;
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
    })();
    await Promise.all([0, 1, 2, 3].map((w) => placingWriterProcess(temp.dir, filesDir, w, 150))).finally(() => (writing = false));
    await Promise.all([following, trimming]);
    const last = await reader.read();
    if (last.kind === 'changes') {
      for (const change of last.changes) if (change.op === 'add') change.files.forEach((f) => seen.add(f));
    } else {
      for (const name of await readdir(filesDir)) seen.add(name);
    }

    expect(trims).toBeGreaterThan(1);
    expect(rescans).toBeGreaterThan(0);
    expect(rescans).toBeLessThanOrEqual(trims + 1);
    expect(seen).toEqual(new Set(await readdir(filesDir)));
    expect(seen.size).toBe(601);
  }, 60_000);
});
