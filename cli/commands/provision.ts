import type { Command } from 'commander';
import { provisionTemporalCli } from '../../platform/temporal-cli.ts';

/** `provision-temporal`: find or build the Temporal CLI and print where it is. */
export function registerProvisionCommand(program: Command): void {
  program
    .command('provision-temporal')
    .description('find or build the Temporal CLI ($TEMPORAL_CLI_PATH, PATH, cache, go install, SDK download)')
    .option('--json', 'print the result as JSON')
    .action(async (options: { json?: boolean }) => {
      const cli = await provisionTemporalCli(process.env, (line) => process.stderr.write(`[provision-temporal] ${line}\n`));
      process.stdout.write(options.json ? `${JSON.stringify(cli)}\n` : `[provision-temporal] ${cli.message}\n`);
    });
}
