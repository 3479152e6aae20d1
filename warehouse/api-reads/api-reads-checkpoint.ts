import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CurrentStore, type CurrentStoreHeader } from './api-reads-store.ts';
import { publishFile } from '../publish.ts';

/**
 * The API's current verdicts saved across restarts (docs/api.md, "How the API follows the
 * lake"): the store's typed arrays as bytes, the files it has read (with their change
 * signatures) and the change journal's offset it reflects. A start loads it and then reads only
 * what changed since, so time to ready does not grow with history. Derived data: safe to delete.
 */
const FORMAT = 1;

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
}

export function checkpointPath(dataDir: string): string {
  return path.join(dataDir, 'api-cache', 'current', 'verdicts.bin');
}

/** Writes the checkpoint atomically: a 4-byte header length, the JSON header, then each column's bytes. */
export async function saveCheckpoint(dataDir: string, checkpoint: Checkpoint): Promise<void> {
  const { header, columns } = checkpoint.store.exportState();
  const full: Header = {
    ...header,
    format: FORMAT,
    readFiles: checkpoint.files,
    generation: checkpoint.generation,
    journalIdentity: checkpoint.journalIdentity,
    lengths: columns.map((c) => c.length),
  };
  const json = Buffer.from(JSON.stringify(full), 'utf8');
  const size = Buffer.alloc(4);
  size.writeUInt32LE(json.length);
  await publishFile(checkpointPath(dataDir), (temp) => writeFile(temp, Buffer.concat([size, json, ...columns])));
}

/** The saved checkpoint, or null when there is none or it cannot be read (then the reads start from the lake). */
export async function loadCheckpoint(dataDir: string): Promise<Checkpoint | null> {
  let bytes: Buffer;
  try {
    bytes = await readFile(checkpointPath(dataDir));
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
    return {
      store: CurrentStore.importState(header, columns),
      files: header.readFiles,
      generation: header.generation,
      journalIdentity: header.journalIdentity,
    };
  } catch {
    return null;
  }
}
