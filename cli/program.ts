import { Command } from 'commander';
import { registerAccessCommands } from './commands/access.ts';
import { registerAttestCommands } from './commands/attest.ts';
import { registerFetchCommand } from './commands/fetch.ts';
import { registerIngestCommand } from './commands/ingest.ts';
import { registerMcpCommand } from './commands/mcp.ts';
import { registerMigrateCommand } from './commands/migrate.ts';
import { registerPipelineCommands } from './commands/pipelines.ts';
import { registerProvisionCommand } from './commands/provision.ts';
import { registerServeCommands } from './commands/serve.ts';
import { registerServingCommands } from './commands/serving.ts';
import { registerStateCommands } from './commands/state.ts';
import { registerUserCommands } from './commands/users.ts';
import { registerWebhookCommands } from './commands/webhooks.ts';

/** The `faithscreen` command line: every command registered on one commander program. */
export function buildProgram(): Command {
  const program = new Command('faithscreen')
    .description('faith-based compliance screening: pipelines, warehouse and API')
    .showHelpAfterError()
    .configureOutput({ outputError: (text, write) => write(text) });
  registerServeCommands(program);
  registerProvisionCommand(program);
  registerMigrateCommand(program);
  registerPipelineCommands(program);
  registerFetchCommand(program);
  registerIngestCommand(program);
  registerAccessCommands(program);
  registerAttestCommands(program);
  registerStateCommands(program);
  registerUserCommands(program);
  registerWebhookCommands(program);
  registerMcpCommand(program);
  registerServingCommands(program);
  return program;
}
