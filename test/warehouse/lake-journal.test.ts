import { spawn } from 'node:child_process';
import { appendFile, rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { announceLakeChange, journalPath, LakeJournalReader, type LakeChange } from '../../warehouse/lake-journal.ts';
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
});
