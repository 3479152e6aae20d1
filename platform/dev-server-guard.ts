import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The embedded dev server never outlives faithscreen (docs/operations.md, "The embedded dev server's lifecycle"):
 *
 * - It runs under a dead-man switch (GUARD_SCRIPT): a shell that starts it, then reads its own
 *   stdin, whose other end only faithscreen holds. When faithscreen exits, however it exits
 *   (kill -9 included), the pipe closes, the read ends and the shell stops the server.
 * - A start also looks for a dev server already running on the same DATA_DIR (its SQLite file
 *   on the command line). One whose owner is gone is stale: it is stopped and replaced, and the
 *   start says so. One whose owner still runs is another faithscreen on this DATA_DIR: refused.
 */
export const GUARD_SCRIPT = `
"$@" </dev/null &
server=$!
echo "$server"
while read -r _; do :; done
kill -TERM "$server" 2>/dev/null
waited=0
while kill -0 "$server" 2>/dev/null; do
  waited=$((waited + 1))
  if [ "$waited" -gt 100 ]; then kill -KILL "$server" 2>/dev/null; fi
  sleep 0.1
done
`;

/** The guard shell's $0, so process listings tell it from the server it guards. */
export const GUARD_NAME = 'faithscreen-dev-server-guard';

interface Owner {
  /** The faithscreen process that started the server. */
  ownerPid: number;
  serverPid: number;
  port: number;
}

function ownerFile(dbFile: string): string {
  return path.join(path.dirname(dbFile), 'dev-server.owner.json');
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Pids of `temporal server start-dev` processes whose database is `dbFile`. */
export async function devServersOf(dbFile: string): Promise<number[]> {
  const { stdout } = await run('ps', ['-eo', 'pid=,args=']);
  return stdout
    .split('\n')
    .filter((line) => line.includes('start-dev') && line.includes(dbFile) && !line.includes(GUARD_NAME))
    .map((line) => Number(line.trim().split(/\s+/)[0]))
    .filter((pid) => Number.isInteger(pid) && pid !== process.pid);
}

/** Stops `pid` with SIGTERM, then SIGKILL after `graceMs`, and waits until it is gone. */
export async function stopProcess(pid: number, graceMs = 10_000): Promise<void> {
  if (!isAlive(pid)) return;
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) {
      process.kill(pid, 'SIGKILL');
      break;
    }
    await sleep(100);
  }
  while (isAlive(pid)) await sleep(50);
}

async function readOwner(dbFile: string): Promise<Owner | undefined> {
  try {
    return JSON.parse(await readFile(ownerFile(dbFile), 'utf8')) as Owner;
  } catch {
    return undefined;
  }
}

/**
 * Stops dev servers of `dbFile` left behind by a faithscreen that is gone, and says so through
 * `warn`; refuses (throws) when the faithscreen that started one is still running.
 */
export async function replaceStaleDevServers(
  dbFile: string,
  warn: (message: string, fields: Record<string, unknown>) => void,
): Promise<void> {
  const owner = await readOwner(dbFile);
  for (const pid of await devServersOf(dbFile)) {
    if (owner && owner.serverPid === pid && owner.ownerPid !== process.pid && isAlive(owner.ownerPid)) {
      throw new Error(
        `a Temporal dev server for this DATA_DIR (pid ${pid}, port ${owner.port}) belongs to faithscreen pid ${owner.ownerPid}, ` +
          `which is still running; stop it first or give this one another DATA_DIR`,
      );
    }
    warn(
      'stopping a stale Temporal dev server left on this DATA_DIR by a faithscreen that is no longer running; a new one starts in its place',
      {
        pid,
        ...(owner?.serverPid === pid ? { port: owner.port, owner_pid: owner.ownerPid } : {}),
      },
    );
    await stopProcess(pid);
  }
}

export async function recordOwner(dbFile: string, owner: Owner): Promise<void> {
  await writeFile(ownerFile(dbFile), `${JSON.stringify(owner)}\n`);
}

export async function forgetOwner(dbFile: string): Promise<void> {
  await rm(ownerFile(dbFile), { force: true });
}
