import type { Command } from 'commander';
import { getConfig } from '../../platform/config.ts';
import { serviceStateOf } from '../../platform/service-state.ts';
import { openServiceDb } from '../../service-state/db.ts';
import { exportState, importState, TransferError } from '../../service-state/transfer.ts';

/** `state export|import`: move the service state between engines (docs/operations.md, "Moving to PostgreSQL"). */
export function registerStateCommands(program: Command): void {
  const state = program
    .command('state')
    .description('the service state (accounts, keys, usage, certificates): export and import between engines');
  const run = async (action: 'export' | 'import', file: string) => {
    const db = await openServiceDb(serviceStateOf(getConfig()));
    try {
      const counts = action === 'export' ? await exportState(db, file) : await importState(db, file);
      process.stdout.write(`${JSON.stringify({ [action === 'export' ? 'exported' : 'imported']: counts, file, store: db.location })}\n`);
    } catch (error) {
      const known =
        error instanceof TransferError ||
        (error as NodeJS.ErrnoException).code === 'EEXIST' ||
        (error as NodeJS.ErrnoException).code === 'ENOENT';
      if (!known) throw error;
      process.stderr.write(`error: ${(error as Error).message}\n`);
      process.exitCode = 1;
    } finally {
      await db.close();
    }
  };
  state
    .command('export <file>')
    .description('write every row of the configured store (DATABASE_URL, else DATA_DIR/service.db) to a new JSON-lines file (mode 0600)')
    .action((file: string) => run('export', file));
  state
    .command('import <file>')
    .description('load an export into the configured store, which must be empty; all or nothing')
    .action((file: string) => run('import', file));
}
