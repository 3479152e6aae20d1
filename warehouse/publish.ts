import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/** Prefix and suffix of in-flight files: they never end in `.parquet`, so lake globs skip them. */
export const TEMP_PREFIX = '.tmp-';

/** Name of the temp file a publish writes before renaming it into place. */
export function tempNameFor(finalPath: string): string {
  const dir = path.dirname(finalPath);
  return path.join(dir, `${TEMP_PREFIX}${path.basename(finalPath)}.${process.pid}.${randomBytes(6).toString('hex')}`);
}

async function fsyncPath(target: string, flags: 'r' | 'r+'): Promise<void> {
  const handle = await open(target, flags);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Publishes a file atomically: `write` fills a temp file beside the target, which is fsynced
 * and renamed over the target, then the folder is fsynced so the rename survives a crash.
 * Readers see either the old file, the new file, or no file, never a partial one. A retry
 * with the same target name replaces the earlier output instead of adding a duplicate.
 */
export async function publishFile(finalPath: string, write: (tempPath: string) => Promise<void>): Promise<void> {
  const dir = path.dirname(finalPath);
  await mkdir(dir, { recursive: true });
  const temp = tempNameFor(finalPath);
  try {
    await write(temp);
    await fsyncPath(temp, 'r+');
    await rename(temp, finalPath);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await fsyncPath(dir, 'r');
}

/** The pid a temp file name carries, or null when the name is not one of ours. */
export function tempFileOwner(fileName: string): number | null {
  if (!fileName.startsWith(TEMP_PREFIX)) return null;
  const pid = Number(fileName.split('.').at(-2));
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes temp files left by processes that died between write and rename; live writers' files stay. */
export async function sweepTempFiles(root: string): Promise<number> {
  let entries;
  try {
    entries = await readdir(root, { recursive: true, withFileTypes: true });
  } catch {
    return 0;
  }
  let removed = 0;
  for (const entry of entries) {
    const owner = entry.isFile() ? tempFileOwner(entry.name) : null;
    if (owner !== null && !isRunning(owner)) {
      await rm(path.join(entry.parentPath, entry.name), { force: true });
      removed += 1;
    }
  }
  return removed;
}
