import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CurrentStore, type CurrentStoreHeader } from './api-reads-store.ts';
import { lakeRoot } from '../lake-paths.ts';
import { publishFile } from '../publish.ts';

/**
 * The current verdicts saved across restarts (docs/serving.md, "How the API follows the lake"): the
 * store's typed arrays as bytes, the files it has read (with their change signatures) and the
 * change journal's offset it reflects. A start loads it and then reads only what changed since,
 * so time to ready does not grow with history. Two copies: the API's own, and the lake's, which
 * the maintenance run saves so that a first start (no copy of its own) begins from it too.
 * Derived data: safe to delete.
 */
const FORMAT = 1;

/** Which copy: the API's own (`api-cache/`), or the lake's (saved by the maintenance run). */
export type CheckpointKind = 'api' | 'lake';

export interface Checkpoint {
  store: CurrentStore;
  /** Snapshot files already read, with their signatures. */
  files: Array<[string, string]>;
  /** Journal offset and identity (`dev:ino`) the checkpoint reflects. */
  generation: number;
  journalIdentity: string | null;
}

interface Header extends CurrentStoreHeader {
  format: number;
  readFiles: Array<[string, string]>;
  generation: number;
  journalIdentity: string | null;
  lengths: number[];
  /** The lake root the file paths are under, so a copy still applies when DATA_DIR is mounted elsewhere (absent in older copies). */
  lakeRoot?: string;
  /** When it was saved (epoch ms; absent in older copies): between two copies of different journals, the newer wins. */
  savedAtMs?: number;
}

export function checkpointPath(dataDir: string, kind: CheckpointKind = 'api'): string {
  return kind === 'api'
    ? path.join(dataDir, 'api-cache', 'current', 'verdicts.bin')
    : path.join(lakeRoot(dataDir), '_current', 'verdicts.bin');
}

/** Writes the checkpoint atomically: a 4-byte header length, the JSON header, then each column's bytes. */
export async function saveCheckpoint(dataDir: string, checkpoint: Checkpoint, kind: CheckpointKind = 'api'): Promise<void> {
  const { header, columns } = checkpoint.store.exportState();
  const full: Header = {
    ...header,
    format: FORMAT,
    readFiles: checkpoint.files,
    generation: checkpoint.generation,
    journalIdentity: checkpoint.journalIdentity,
    lengths: columns.map((c) => c.length),
    lakeRoot: lakeRoot(dataDir),
    savedAtMs: Date.now(),
  };
  const json = Buffer.from(JSON.stringify(full), 'utf8');
  const size = Buffer.alloc(4);
  size.writeUInt32LE(json.length);
  await publishFile(checkpointPath(dataDir, kind), (temp) => writeFile(temp, Buffer.concat([size, json, ...columns])));
}

interface Loaded {
  checkpoint: Checkpoint;
  savedAtMs: number;
}

/** One saved copy, or null when there is none or it cannot be trusted (torn, of another format): the start then reads the lake. */
async function loadCopy(dataDir: string, kind: CheckpointKind): Promise<Loaded | null> {
  let bytes: Buffer;
  try {
    bytes = await readFile(checkpointPath(dataDir, kind));
  } catch {
    return null;
  }
  try {
    const length = bytes.readUInt32LE(0);
    const header = JSON.parse(bytes.subarray(4, 4 + length).toString('utf8')) as Header;
    if (header.format !== FORMAT) return null;
    const columns: Buffer[] = [];
    let offset = 4 + length;
    for (const n of header.lengths) {
      columns.push(bytes.subarray(offset, offset + n));
      offset += n;
    }
    if (offset !== bytes.length) return null;
    const rebase = rebaser(header.lakeRoot, lakeRoot(dataDir));
    return {
      checkpoint: {
        store: CurrentStore.importState({ ...header, files: header.files.map(rebase) }, columns),
        files: header.readFiles.map(([file, signature]) => [rebase(file), signature]),
        generation: header.generation,
        journalIdentity: header.journalIdentity,
      },
      savedAtMs: header.savedAtMs ?? 0,
    };
  } catch {
    return null;
  }
}

/** Maps paths under the lake root a copy was saved with to the same paths under this one. */
function rebaser(savedRoot: string | undefined, root: string): (file: string) => string {
  if (savedRoot === undefined || savedRoot === root) return (file) => file;
  const prefix = savedRoot + path.sep;
  return (file) => (file.startsWith(prefix) ? path.join(root, file.slice(prefix.length)) : file);
}

/**
 * The copy to start from: the API's own or the lake's, whichever reflects more of the lake (the
 * further journal offset of the same journal, else the one saved later); null when neither can
 * be trusted. Either is only a starting point: the start catches up from the journal and a
 * folder scan past it, so a stale copy never serves a verdict older than the lake's newest.
 */
export async function loadCheckpoint(
  dataDir: string,
  kinds: readonly CheckpointKind[] = ['api', 'lake'],
): Promise<(Checkpoint & { kind: CheckpointKind }) | null> {
  let best: (Loaded & { kind: CheckpointKind }) | null = null;
  for (const kind of kinds) {
    const copy = await loadCopy(dataDir, kind);
    if (copy && (!best || further(copy, best))) best = { ...copy, kind };
  }
  return best ? { ...best.checkpoint, kind: best.kind } : null;
}

function further(a: Loaded, b: Loaded): boolean {
  if (a.checkpoint.journalIdentity !== null && a.checkpoint.journalIdentity === b.checkpoint.journalIdentity)
    return a.checkpoint.generation > b.checkpoint.generation;
  return a.savedAtMs > b.savedAtMs;
}
