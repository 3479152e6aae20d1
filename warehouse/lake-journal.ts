import { appendFile, mkdir, open, stat } from 'node:fs/promises';
import path from 'node:path';
import { lakeRoot, type LakeTable } from './lake-paths.ts';

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

/** What a journal read found: new changes, or `rescan` when the journal was replaced or holds a torn line. */
export type JournalRead = { kind: 'changes'; changes: LakeChange[] } | { kind: 'rescan' };

/**
 * Follows the journal from an offset: each `read()` is one `stat` and, when the journal grew,
 * one read of the bytes appended since. Only complete lines are consumed.
 */
export class LakeJournalReader {
  private offset = 0;
  private identity: string | null = null;

  constructor(private readonly dataDir: string) {}

  /** The byte offset read up to: the generation of the lake this reader has seen. */
  get generation(): number {
    return this.offset;
  }

  /** Identity (`dev:ino`) of the journal file read, null before it existed. */
  get journalIdentity(): string | null {
    return this.identity;
  }

  /** Continues from where an earlier reader stopped (a checkpoint): a different journal file makes the next read ask for a rescan. */
  resumeAt(offset: number, identity: string | null): void {
    this.offset = offset;
    this.identity = identity;
  }

  /** Skips to the journal's current end (after a full scan that covers everything written so far). */
  async skipToEnd(): Promise<void> {
    const info = await stat(journalPath(this.dataDir)).catch(() => null);
    this.offset = info?.size ?? 0;
    this.identity = info ? `${info.dev}:${info.ino}` : null;
  }

  async read(): Promise<JournalRead> {
    const info = await stat(journalPath(this.dataDir)).catch(() => null);
    if (!info) return this.identity === null ? { kind: 'changes', changes: [] } : { kind: 'rescan' };
    const identity = `${info.dev}:${info.ino}`;
    if ((this.identity !== null && identity !== this.identity) || info.size < this.offset) return { kind: 'rescan' };
    this.identity = identity;
    if (info.size === this.offset) return { kind: 'changes', changes: [] };
    const handle = await open(journalPath(this.dataDir), 'r');
    let text: string;
    try {
      const buffer = Buffer.alloc(info.size - this.offset);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, this.offset);
      text = buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
    const complete = text.lastIndexOf('\n') + 1;
    const changes: LakeChange[] = [];
    for (const line of text.slice(0, complete).split('\n')) {
      if (line === '') continue;
      try {
        changes.push(JSON.parse(line) as LakeChange);
      } catch {
        this.offset += Buffer.byteLength(text.slice(0, complete));
        return { kind: 'rescan' };
      }
    }
    this.offset += Buffer.byteLength(text.slice(0, complete));
    return { kind: 'changes', changes };
  }
}
