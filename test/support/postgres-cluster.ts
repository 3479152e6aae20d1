import { execFile } from 'node:child_process';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { findPostgresBinDir, postgresRunAs } from '../../platform/postgres-server.ts';
import { freePort } from './http.ts';

const run = promisify(execFile);

export interface PostgresCluster {
  /** Connection URL of the cluster's `postgres` database as its superuser `faithscreen`. */
  adminUrl: string;
  port: number;
  /** A URL to the same cluster's database `name`. */
  urlOf(name: string): string;
  stop(): Promise<void>;
}

/**
 * A throwaway PostgreSQL cluster for tests: `initdb` in a temp folder (owned by the user the
 * server runs as: `postgres` when the tests run as root), started with `pg_ctl` on a free port
 * of 127.0.0.1 with trust authentication, its socket in that folder. `stop()` shuts it down
 * and deletes the folder. fsync is off: a test cluster never outlives the machine staying up.
 */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  const binDir = findPostgresBinDir();
  if (binDir === null)
    throw new Error(
      'PostgreSQL server programs (initdb, pg_ctl) not found; run `npx faithscreen provision` (Debian/Ubuntu: the postgresql-15 package)',
    );
  const runAs = postgresRunAs();
  if ('error' in runAs) throw new Error(runAs.error);
  const root = await mkdtemp(path.join(os.tmpdir(), 'faithscreen-pg-'));
  await chown(root, runAs.uid, runAs.gid);
  const dataDir = path.join(root, 'data');
  const exec = (program: string, args: string[]) => {
    const [command, ...rest] = [...runAs.prefix, path.join(binDir, program), ...args];
    return run(command!, rest, { cwd: root, maxBuffer: 16 * 1024 * 1024 });
  };
  try {
    await exec('initdb', ['-D', dataDir, '-U', 'faithscreen', '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync']);
    const port = await freePort();
    const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=200`;
    await exec('pg_ctl', ['-D', dataDir, '-o', options, '-l', path.join(root, 'server.log'), '-w', '-t', '60', 'start']);
    const urlOf = (name: string) => `postgresql://faithscreen@127.0.0.1:${port}/${name}`;
    return {
      adminUrl: urlOf('postgres'),
      port,
      urlOf,
      stop: async () => {
        await exec('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
        await rm(root, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await exec('pg_ctl', ['-D', dataDir, '-m', 'immediate', 'stop']).catch(() => undefined);
    await rm(root, { recursive: true, force: true });
    throw error;
  }
}
