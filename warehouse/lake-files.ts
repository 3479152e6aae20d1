import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { HeldFile } from '../serving/serving-types.ts';
import { lakeRoot, type LakeTable } from './lake-paths.ts';
import { SEED_PARTITION } from './lake-schemas.ts';

/** Published Parquet files of a table with a change signature (mtime and size), seed files excluded. */
export async function scanTableFiles(dataDir: string, table: LakeTable): Promise<Map<string, string>> {
  const root = path.join(lakeRoot(dataDir), table);
  const files = new Map<string, string>();
  if (!existsSync(root)) return files;
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  await Promise.all(
    entries
      .filter((e) => e.isFile() && e.name.endsWith('.parquet') && !e.name.startsWith('.'))
      .map(async (e) => {
        const file = path.join(e.parentPath, e.name);
        if (file.includes(`=${SEED_PARTITION}${path.sep}`)) return;
        try {
          const info = await stat(file);
          files.set(file, `${info.mtimeMs}:${info.size}`);
        } catch {
          // removed between readdir and stat: the next scan no longer lists it
        }
      }),
  );
  return files;
}

/**
 * Whether a table has a published Parquet file (seed files excluded): whether the lake holds any
 * of its rows, since no publisher writes a file without rows. A listing of names, not a scan of
 * the files: the first start's check on a long history took seconds of both cores counting rows.
 */
export async function hasPublishedFiles(dataDir: string, table: LakeTable): Promise<boolean> {
  const root = path.join(lakeRoot(dataDir), table);
  if (!existsSync(root)) return false;
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.some(
    (e) =>
      e.isFile() &&
      e.name.endsWith('.parquet') &&
      !e.name.startsWith('.') &&
      !path.join(e.parentPath, e.name).includes(`=${SEED_PARTITION}${path.sep}`),
  );
}

/** A read listed a file that compaction removed before the read opened it: list again and read again. */
export function isRemovedFileError(error: unknown): boolean {
  return /No such file or directory|No files found that match the pattern/.test((error as Error)?.message ?? '');
}

/** A lake file's identity in the serving store: its path under the lake root and its size and mtime. */
export async function heldFileOf(dataDir: string, file: string): Promise<HeldFile> {
  const info = await stat(file);
  return { path: path.relative(lakeRoot(dataDir), file), signature: `${info.mtimeMs}:${info.size}` };
}
