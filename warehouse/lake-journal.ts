import { randomBytes } from 'node:crypto';
import { appendFile, mkdir, open, stat, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { lakeRoot, type LakeTable } from './lake-paths.ts';
import { publishFile } from './publish.ts';

/**
 * The lake's change journal (docs/warehouse.md, "How readers learn of new files"): every
 * publish and every compaction appends one JSON line naming the files it added or replaced,
 * paths relative to the lake root. Readers keep their byte offset (the lake's generation) and
 * read only what was appended since, instead of rescanning every file.
 */
export type LakeChange =
  | { op: 'add'; table: LakeTable; files: string[] }
  /** Compaction: `added` holds every row of `removed`; the removed files go after a grace period. */
  | { op: 'replace'; table: LakeTable; removed: string[]; added: string[] };

/**
 * First line of a trimmed journal (docs/warehouse.md, "Trimming the journal"): a journal file
 * of a new generation. Readers never hand it on as a change.
 */
interface TrimMarker {
  op: 'trim';
  /** Random: tells this journal file from any other, even one that reuses its inode. */
  generation: string;
  trimmedAt: string;
  /** Size of the journal it replaced. */
  bytesBefore: number;
}

/** Folder of the journal inside the lake; it holds no Parquet file, so no table glob matches it. */
export function journalPath(dataDir: string): string {
  return path.join(lakeRoot(dataDir), '_journal', 'changes.ndjson');
}

/**
 * Appends one change as one line. One `write` in append mode, so concurrent writers' lines never
 * interleave on a local file system; a line torn by a crash makes readers rescan once.
 */
export async function announceLakeChange(dataDir: string, change: LakeChange): Promise<void> {
  const file = journalPath(dataDir);
  await mkdir(path.dirname(file), { recursive: true });
  await appendFile(file, `${JSON.stringify(change)}\n`, { flag: 'a' });
}

/** Default size above which `trimLakeJournal` starts a new journal: about 4,000 announced files. */
export const JOURNAL_TRIM_BYTES = 1024 * 1024;

/**
 * Replaces a journal of at least `minBytes` by a new generation holding only a trim marker,
 * published atomically (temp file, fsync, rename). Every reader holding the old file sees a
 * different identity and rescans the lake's folders once, which finds every file announced
 * before the trim, also one whose line went to the old file after the rename: a file is in
 * place before its announcement is written.
 */
export async function trimLakeJournal(dataDir: string, minBytes = JOURNAL_TRIM_BYTES): Promise<{ trimmed: boolean; bytesBefore: number }> {
  const file = journalPath(dataDir);
  const info = await stat(file).catch(() => null);
  if (!info || info.size < minBytes) return { trimmed: false, bytesBefore: info?.size ?? 0 };
  const marker: TrimMarker = {
    op: 'trim',
    generation: randomBytes(8).toString('hex'),
    trimmedAt: new Date().toISOString(),
    bytesBefore: info.size,
  };
  await publishFile(file, (temp) => writeFile(temp, `${JSON.stringify(marker)}\n`));
  return { trimmed: true, bytesBefore: info.size };
}

/** What a journal read found: new changes, or `rescan` when the journal was replaced or holds a torn line. */
export type JournalRead = { kind: 'changes'; changes: LakeChange[] } | { kind: 'rescan' };

const NOTHING_NEW: JournalRead = { kind: 'changes', changes: [] };

/** The trim generation a journal file starts with ('' for one never trimmed). */
async function generationOf(handle: FileHandle): Promise<string> {
  const head = Buffer.alloc(512);
  const { bytesRead } = await handle.read(head, 0, head.length, 0);
  const text = head.subarray(0, bytesRead).toString('utf8');
  const end = text.indexOf('\n');
  if (!text.startsWith('{"op":"trim"') || end < 0) return '';
  try {
    return (JSON.parse(text.slice(0, end)) as TrimMarker).generation;
  } catch {
    return '';
  }
}

/**
 * Follows the journal from an offset: each `read()` is one `stat` and, when the journal grew,
 * one read of the bytes appended since. Only complete lines are consumed.
 */
export class LakeJournalReader {
  private offset = 0;
  /** `dev:ino/generation` of the journal file read, null before it existed. */
  private identity: string | null = null;
  /** `dev:ino` whose generation `identity` holds (null: not yet checked). */
  private checkedFile: string | null = null;

  constructor(private readonly dataDir: string) {}

  /** The byte offset read up to: the generation of the lake this reader has seen. */
  get generation(): number {
    return this.offset;
  }

  /** Skips to the journal's current end (after a full scan that covers everything written so far). */
  async skipToEnd(): Promise<void> {
    const handle = await open(journalPath(this.dataDir), 'r').catch(() => null);
    if (!handle) {
      this.offset = 0;
      this.identity = this.checkedFile = null;
      return;
    }
    try {
      const info = await handle.stat();
      this.checkedFile = `${info.dev}:${info.ino}`;
      this.identity = `${this.checkedFile}/${await generationOf(handle)}`;
      this.offset = info.size;
    } finally {
      await handle.close();
    }
  }

  async read(): Promise<JournalRead> {
    const info = await stat(journalPath(this.dataDir)).catch(() => null);
    if (!info) return this.identity === null ? NOTHING_NEW : { kind: 'rescan' };
    // The common case, every half second: the same file, nothing appended.
    if (`${info.dev}:${info.ino}` === this.checkedFile && info.size === this.offset) return NOTHING_NEW;
    const handle = await open(journalPath(this.dataDir), 'r').catch(() => null);
    if (!handle) return this.identity === null ? NOTHING_NEW : { kind: 'rescan' };
    try {
      return await this.readOpen(handle);
    } finally {
      await handle.close();
    }
  }

  private async readOpen(handle: FileHandle): Promise<JournalRead> {
    const info = await handle.stat();
    const file = `${info.dev}:${info.ino}`;
    const identity = file === this.checkedFile ? this.identity : `${file}/${await generationOf(handle)}`;
    if ((this.identity !== null && identity !== this.identity) || info.size < this.offset) return { kind: 'rescan' };
    this.identity = identity;
    this.checkedFile = file;
    if (info.size === this.offset) return NOTHING_NEW;
    const buffer = Buffer.alloc(info.size - this.offset);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, this.offset);
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    const complete = text.lastIndexOf('\n') + 1;
    const changes: LakeChange[] = [];
    for (const line of text.slice(0, complete).split('\n')) {
      if (line === '') continue;
      try {
        const parsed = JSON.parse(line) as LakeChange | TrimMarker;
        if (parsed.op !== 'trim') changes.push(parsed);
      } catch {
        this.offset += Buffer.byteLength(text.slice(0, complete));
        return { kind: 'rescan' };
      }
    }
    this.offset += Buffer.byteLength(text.slice(0, complete));
    return { kind: 'changes', changes };
  }
}
