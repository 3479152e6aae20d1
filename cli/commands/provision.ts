import type { Command } from 'commander';
import { CHROMIUM, MissingDependencyError, POSTGRES, provisionSystemDependencies, PYTHON3 } from '../../platform/system-deps.ts';
import { provisionTemporalCli } from '../../platform/temporal-cli.ts';

/**
 * `provision-temporal`: find or build the Temporal CLI. `provision`: that, plus what the tests
 * need (Chromium, PostgreSQL 15), installed through apt-get when this process may; `npm test`
 * and `.ci/run` run it first.
 */
export function registerProvisionCommand(program: Command): void {
  program
    .command('provision-temporal')
    .description('find or build the Temporal CLI ($TEMPORAL_CLI_PATH, PATH, cache, go install, SDK download)')
    .option('--json', 'print the result as JSON')
    .action(async (options: { json?: boolean }) => {
      const cli = await provisionTemporalCli(process.env, (line) => process.stderr.write(`[provision-temporal] ${line}\n`));
      process.stdout.write(options.json ? `${JSON.stringify(cli)}\n` : `[provision-temporal] ${cli.message}\n`);
    });
  program
    .command('provision')
    .description(
      'find or install everything the tests need: the Temporal CLI, Chromium and PostgreSQL 15 (apt-get when root or passwordless sudo)',
    )
    .option('--json', 'print where each one is as JSON')
    .action(async (options: { json?: boolean }) => {
      const log = (line: string) => process.stderr.write(`[provision] ${line}\n`);
      const cli = await provisionTemporalCli(process.env, log);
      try {
        const found = { 'Temporal CLI': cli.path, ...(await provisionSystemDependencies([CHROMIUM, POSTGRES, PYTHON3], log)) };
        process.stdout.write(
          options.json
            ? `${JSON.stringify(found)}\n`
            : Object.entries(found)
                .map(([name, where]) => `[provision] ${name}: ${where}\n`)
                .join(''),
        );
      } catch (error) {
        if (!(error instanceof MissingDependencyError)) throw error;
        process.stderr.write(`[provision] error: ${error.message}\n`);
        process.exitCode = 1;
      }
    });
}
