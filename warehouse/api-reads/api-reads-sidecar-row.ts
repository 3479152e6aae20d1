import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';

/**
 * Where one current result sits in its point-read sidecar (docs/serving.md, "Reads under load"):
 * handed to a render thread, which reads and inflates it there. The event loop then neither
 * waits on a file read (an asynchronous read's hand-off to libuv's pool costs the event loop
 * more than the read itself under load) nor copies the row.
 */
export interface SidecarRow {
  /** The sidecar's `.bin` (named by its file's path and change signature). */
  path: string;
  /**
   * Its inode when the reads loaded its index: a `.bin` rebuilt under the same name (its folder
   * deleted meanwhile) is another file, whose rows may sit elsewhere.
   */
  ino: number;
  offset: number;
  length: number;
  /** The file's deflate dictionary, in shared memory. */
  dictionary: Uint8Array;
}

/** Sidecars this thread has open, by path and inode; one swept meanwhile stays readable through its open descriptor. */
const openFiles = new Map<string, number>();
const MAX_OPEN = 64;

function descriptorOf(row: SidecarRow): number | null {
  const key = `${row.path}#${row.ino}`;
  const known = openFiles.get(key);
  if (known !== undefined) return known;
  let fd: number;
  try {
    fd = openSync(row.path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (fstatSync(fd).ino !== row.ino) {
    closeSync(fd);
    return null;
  }
  if (openFiles.size >= MAX_OPEN) {
    const [oldest, oldestFd] = openFiles.entries().next().value!;
    openFiles.delete(oldest);
    closeSync(oldestFd);
  }
  openFiles.set(key, fd);
  return fd;
}

/**
 * The row's result JSON (UTF-8), read with one positional read and inflated; null when its
 * sidecar is gone, replaced by another file, or shorter than the row (superseded and swept
 * before this thread opened it): the caller then reads the result as any other.
 */
export function sidecarRowBytes(row: SidecarRow): Buffer | null {
  const fd = descriptorOf(row);
  if (fd === null) return null;
  const deflated = Buffer.allocUnsafe(row.length);
  if (readSync(fd, deflated, 0, row.length, row.offset) !== row.length) return null;
  return inflateRawSync(deflated, { dictionary: row.dictionary });
}
