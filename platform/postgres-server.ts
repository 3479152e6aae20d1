import { execFileSync } from 'node:child_process';
import { accessSync, constants, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * Where PostgreSQL's server programs (`initdb`, `pg_ctl`, `postgres`) are, for the tests'
 * throwaway clusters and `faithscreen provision`. Debian's `postgresql-15` puts them in
 * /usr/lib/postgresql/15/bin, off PATH; other systems put them on PATH.
 */
export const POSTGRES_MAJOR = 15;

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The folder holding `initdb` and `pg_ctl`, or null: $POSTGRES_BIN_DIR → Debian's versioned folders (15 first) → PATH. */
export function findPostgresBinDir(env: NodeJS.ProcessEnv = process.env): string | null {
  const candidates: string[] = [];
  if (env.POSTGRES_BIN_DIR) candidates.push(env.POSTGRES_BIN_DIR);
  candidates.push(`/usr/lib/postgresql/${POSTGRES_MAJOR}/bin`);
  try {
    const versions = readdirSync('/usr/lib/postgresql')
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => `/usr/lib/postgresql/${version}/bin`));
  } catch {
    // not a Debian layout
  }
  candidates.push(...(env.PATH ?? '').split(path.delimiter).filter(Boolean));
  return candidates.find((dir) => executable(path.join(dir, 'initdb')) && executable(path.join(dir, 'pg_ctl'))) ?? null;
}

/**
 * How to run the server programs: `initdb` and `postgres` refuse to run as root, so as root they
 * run as the `postgres` system user the package creates (through `runuser`); anyone else runs
 * them as themselves. Returns the command prefix and the uid/gid that must own the cluster's folder.
 */
export function postgresRunAs(): { prefix: string[]; uid: number; gid: number } | { error: string } {
  const uid = process.getuid?.() ?? 1;
  if (uid !== 0) return { prefix: [], uid, gid: process.getgid?.() ?? uid };
  try {
    const idOf = (flag: '-u' | '-g') => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    return { prefix: ['runuser', '-u', 'postgres', '--'], uid: idOf('-u'), gid: idOf('-g') };
  } catch {
    return {
      error:
        "running as root and there is no 'postgres' system user to run PostgreSQL as (initdb and postgres refuse root); install the " +
        'postgresql-15 package, which creates it, or run as an unprivileged user',
    };
  }
}
