import { spawn } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/temp-dir.ts';

/**
 * Two processes opening a new embedded service state at the same moment (a worker and an API
 * starting together on a fresh DATA_DIR, docs/operations.md): both open it, in WAL mode, with
 * the migrations applied once. Before, the loser of the race for the new file's lock failed with
 * "database is locked" (in 8 of 8 rounds of this test, one or both processes).
 */

const DB_MODULE = new URL('../../service-state/db.ts', import.meta.url).href;

/** A process that waits until `at` (ms since the epoch), opens the state in `dir`, and prints its journal mode and migrations. */
function openAt(dir: string, at: number): Promise<{ code: number | null; output: string }> {
  const script = `
    const { openServiceDb } = await import(${JSON.stringify(DB_MODULE)});
    while (Date.now() < ${at}) {}
    const db = await openServiceDb({ dataDir: ${JSON.stringify(dir)} });
    const [mode] = await db.all('PRAGMA journal_mode');
    const [migrations] = await db.all('SELECT count(*) AS n FROM schema_migrations');
    process.stdout.write(JSON.stringify({ mode: mode.journal_mode, migrations: Number(migrations.n) }));
    await db.close();`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (data: Buffer) => (output += data.toString()));
  child.stderr.on('data', (data: Buffer) => (output += data.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

describe('the embedded service state opened by two processes at once', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    temp = await makeTempDir('faithscreen-libsql-open-');
  });
  afterEach(async () => {
    await temp?.cleanup();
  });

  it('when two processes create the file at the same moment, then both open it in WAL mode with the migrations applied once', async () => {
    for (let round = 0; round < 4; round += 1) {
      const dir = `${temp.dir}/round-${round}`;
      // Far enough ahead for both processes to have loaded the code.
      const at = Date.now() + 2_500;
      const opened = await Promise.all([openAt(dir, at), openAt(dir, at)]);
      for (const { code, output } of opened) {
        expect({ round, code, output }).toEqual({ round, code: 0, output: expect.stringMatching(/^\{/) });
      }
      const states = opened.map(({ output }) => JSON.parse(output) as { mode: string; migrations: number });
      expect(states[0]).toEqual(states[1]);
      expect(states[0]!.mode).toBe('wal');
      expect(states[0]!.migrations).toBeGreaterThan(0);
    }
  }, 60_000);
});
