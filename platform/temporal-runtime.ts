import { DefaultLogger, Runtime, type LogLevel, type LogMetadata } from '@temporalio/worker';
import type { Logger } from 'pino';

const PINO_LEVEL: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};

let installed = false;

/** Sends the Temporal SDK's logs (worker, core) through our pino logger; installs once per process. */
export function installTemporalRuntime(logger: Logger): void {
  if (installed) return;
  installed = true;
  const child = logger.child({ component: 'temporal' });
  Runtime.install({
    logger: new DefaultLogger('WARN', (entry) => {
      const { error, ...meta }: LogMetadata = entry.meta ?? {};
      // pino serialises Errors only under `err`; the SDK reports them under `error`.
      child[PINO_LEVEL[entry.level]](error === undefined ? meta : { ...meta, err: error }, entry.message);
    }),
  });
}
