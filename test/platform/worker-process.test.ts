import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { startWorkerProcess } from '../../platform/worker-process.ts';
import { freePort } from '../support/http.ts';
import { makeTempDir } from '../support/temp-dir.ts';

describe('the worker process of `faithscreen start`', () => {
  it(
    'when the worker cannot start (no Temporal at its address), then the start fails naming how it exited; nothing is restarted',
    {
      timeout: 120_000,
    },
    async () => {
      const temp = await makeTempDir('faithscreen-worker-process-');
      try {
        const closedPort = await freePort();
        const lines: string[] = [];
        const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
        const failure = await startWorkerProcess({
          env: { ...process.env, DATA_DIR: temp.dir, TEMPORAL_ADDRESS: `127.0.0.1:${closedPort}`, LOG_LEVEL: 'silent' },
          logger,
        }).ready.catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(Error);
        expect((failure as Error).message).toBe('the worker process exited before polling (code 1, signal null)');
        expect(lines.join('')).not.toContain('restarting');
      } finally {
        await temp.cleanup();
      }
    },
  );
});
