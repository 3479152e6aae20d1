import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../platform/logger.ts';
import { formatLogLine } from '../../platform/pretty-log.ts';

/** A capture stream that says it is (or is not) a terminal, as process.stdout does. */
function capture(isTTY: boolean): { stream: PassThrough & { isTTY: boolean }; text: () => string } {
  const stream = Object.assign(new PassThrough(), { isTTY });
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { stream, text: () => text };
}

describe('terminal log lines', () => {
  it('when the destination is a terminal, then lines are readable: time, level, message, fields; secrets stay redacted', () => {
    const out = capture(true);
    const logger = createLogger('info', out.stream);
    logger.info({ url: 'http://127.0.0.1:8080', api_key: 'fs_live_secret' }, 'API listening');
    logger.warn({ pid: 4242, note: 'two words' }, 'stopping a stale Temporal dev server');
    const lines = out
      .text()
      .replace(/\u001b\[\d+m/g, '')
      .split('\n')
      .filter(Boolean);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d INFO {2}API listening {2}url=http:\/\/127\.0\.0\.1:8080 api_key=\[redacted\]$/);
    expect(lines[1]).toMatch(/WARN .* stopping a stale Temporal dev server/);
    expect(lines[1]).toContain('="two words"');
    expect(out.text()).not.toContain('fs_live_secret');
    expect(out.text()).not.toMatch(/^\{/m);
  });

  it('when the destination is not a terminal (a pipe or a file), then lines stay JSON', () => {
    const out = capture(false);
    createLogger('info', out.stream).info({ url: 'x' }, 'API listening');
    expect(JSON.parse(out.text())).toMatchObject({ level: 30, msg: 'API listening', url: 'x', service: 'faithscreen' });
  });

  it('prints an error with its stack indented under the line, and passes text that is not JSON through', () => {
    const line = JSON.stringify({
      level: 50,
      time: '2026-11-23T19:04:05.000Z',
      msg: 'failed to stop cleanly',
      component: 'worker',
      err: { message: 'boom', stack: 'Error: boom\n    at stop (worker.ts:1:1)' },
    });
    expect(formatLogLine(line, false)).toBe(
      '19:04:05 ERROR failed to stop cleanly  component=worker\n    Error: boom\n        at stop (worker.ts:1:1)\n',
    );
    expect(formatLogLine('plain text', false)).toBe('plain text\n');
  });
});
