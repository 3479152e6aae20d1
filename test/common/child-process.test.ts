import type { ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forkChild, onChildClosed, stopChild, type ChildEnd } from '../../common/child-process.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const TSX_API = import.meta.resolve('tsx/esm/api');
const CHILD_PROCESS_MODULE = new URL('../../common/child-process.ts', import.meta.url).href;

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeEach(async () => {
  temp = await makeTempDir();
});
afterEach(() => temp.cleanup());

/** Writes a child entry file that loads the TypeScript loader, runs `body`, then says it is ready. */
async function childScript(body: string): Promise<string> {
  const file = path.join(temp.dir, `child-${Math.random().toString(36).slice(2)}.mjs`);
  const source = [
    `const { register } = await import(${JSON.stringify(TSX_API)});`,
    'register();',
    `const { exitWhenParentGone } = await import(${JSON.stringify(CHILD_PROCESS_MODULE)});`,
    body,
    "process.send({ type: 'ready' });",
  ].join('\n');
  await writeFile(file, source);
  return file;
}

function started(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => child.once('message', () => resolve()));
}

function closed(child: ChildProcess): Promise<ChildEnd> {
  return new Promise((resolve) => onChildClosed(child, resolve));
}

/** How a child ended, from 'exit': after the parent's own disconnect() its 'close' does not come. */
function exited(child: ChildProcess): Promise<ChildEnd> {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

describe('child process supervision', () => {
  it('forks without the parent execArgv', async () => {
    const file = await childScript('process.send({ execArgv: process.execArgv }); exitWhenParentGone();');
    const child = forkChild(file, []);
    const message = await new Promise<{ execArgv: string[] }>((resolve) => child.once('message', resolve));
    expect(message.execArgv).toEqual([]);
    await stopChild(child, 5_000);
  });

  it('stops a child with SIGTERM when it heeds it', async () => {
    const file = await childScript('exitWhenParentGone();');
    const child = forkChild(file, []);
    await started(child);
    const end = closed(child);
    await stopChild(child, 30_000);
    expect(await end).toEqual({ code: null, signal: 'SIGTERM' });
  });

  it('kills a child with SIGKILL when it does not stop within the grace period', async () => {
    const file = await childScript("process.on('SIGTERM', () => undefined); setInterval(() => undefined, 1_000);");
    const child = forkChild(file, []);
    await started(child);
    const end = closed(child);
    const asked: string[] = [];
    await stopChild(child, 300, () => asked.push('cancel'));
    expect(asked).toEqual(['cancel']);
    expect(await end).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('returns at once for a child that has already ended', async () => {
    const file = await childScript('process.exit(3);');
    const child = forkChild(file, []);
    expect(await closed(child)).toEqual({ code: 3, signal: null });
    const asked: string[] = [];
    await stopChild(child, 300, () => asked.push('cancel'));
    expect(asked).toEqual([]);
  });

  it('notices the end of a process that could not be started at all', async () => {
    const child = forkChild(path.join(temp.dir, 'never.mjs'), [], { execPath: path.join(temp.dir, 'no-such-node') });
    child.on('error', () => undefined);
    expect((await closed(child)).code).not.toBe(0);
  });

  it.each([
    ['exits at once with code 1 when there is nothing to drain', '', 1],
    ['drains, then exits with code 0', '{ drain: () => new Promise((resolve) => setTimeout(resolve, 100)), graceMs: 30_000 }', 0],
    ['bounds a drain that never ends and exits with code 1', '{ drain: () => new Promise(() => undefined), graceMs: 300 }', 1],
  ])('when the parent is gone, %s', async (_, options, code) => {
    const file = await childScript(`exitWhenParentGone(${options}); setInterval(() => undefined, 1_000);`);
    const child = forkChild(file, []);
    await started(child);
    const end = exited(child);
    child.disconnect();
    expect(await end).toEqual({ code, signal: null });
  });
});
