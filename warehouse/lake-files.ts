import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
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
