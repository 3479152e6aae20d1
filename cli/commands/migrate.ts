import type { Command } from 'commander';
import { getConfig } from '../../platform/config.ts';
import { migrateCatalog } from '../../warehouse/catalog.ts';

/** `migrate`: create or migrate DATA_DIR/warehouse.duckdb and report the version. */
export function registerMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('create or migrate the warehouse catalog (DATA_DIR/warehouse.duckdb)')
    .action(async () => {
      const status = await migrateCatalog(getConfig().dataDir);
      process.stdout.write(`${JSON.stringify(status)}\n`);
    });
}
