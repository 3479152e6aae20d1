import { ConfigError } from '../platform/config.ts';
import { buildProgram } from './program.ts';

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`faithscreen: ${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`faithscreen: ${(error as Error).message}\n`);
  process.exit(1);
}
