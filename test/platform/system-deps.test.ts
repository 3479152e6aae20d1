import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CHROMIUM,
  PYTHON3,
  installPlan,
  MissingDependencyError,
  provisionSystemDependencies,
  type SystemDependency,
} from '../../platform/system-deps.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const ROOT = { isRoot: true, passwordlessSudo: false, hasAptGet: true };

describe('installPlan', () => {
  it('when root on Debian/Ubuntu, then apt-get update and one non-interactive install of every missing package', () => {
    expect(installPlan(['chromium', 'postgresql-15'], ROOT)).toEqual({
      commands: [
        ['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'update', '-qq'],
        [
          'env',
          'DEBIAN_FRONTEND=noninteractive',
          'apt-get',
          'install',
          '-y',
          '-qq',
          '--no-install-recommends',
          'chromium',
          'postgresql-15',
        ],
      ],
    });
  });

  it('when not root but sudo needs no password, then the same commands through sudo -n', () => {
    const plan = installPlan(['chromium'], { isRoot: false, passwordlessSudo: true, hasAptGet: true });
    expect('commands' in plan && plan.commands.every((command) => command.slice(0, 2).join(' ') === 'sudo -n')).toBe(true);
  });

  it('when there is no apt-get, or neither root nor passwordless sudo, then it refuses and says why', () => {
    expect(installPlan(['chromium'], { ...ROOT, hasAptGet: false })).toEqual({
      refusal: expect.stringMatching(/apt-get is not available/),
    });
    expect(installPlan(['chromium'], { isRoot: false, passwordlessSudo: false, hasAptGet: true })).toEqual({
      refusal: expect.stringMatching(/needs root or sudo/),
    });
  });
});

describe('provisionSystemDependencies', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    temp = await makeTempDir();
  });
  afterEach(() => temp.cleanup());

  /** A dependency found once `installed` holds a binary: stands in for a package apt-get would install. */
  const fake = (installed: { done: boolean }): SystemDependency => ({
    name: 'Widget',
    debianPackage: 'widget',
    find: () => (installed.done ? path.join(temp.dir, 'widget') : null),
    manualHint: 'install the widget package',
  });

  it('when everything is found, then nothing is installed and it says where each is', async () => {
    const executed: string[][] = [];
    const found = await provisionSystemDependencies(
      [fake({ done: true })],
      () => undefined,
      {},
      ROOT,
      async (command) => void executed.push(command),
    );
    expect(found).toEqual({ Widget: path.join(temp.dir, 'widget') });
    expect(executed).toEqual([]);
  });

  it('when something is missing and it may install, then it runs apt-get and finds it afterwards', async () => {
    const installed = { done: false };
    const executed: string[][] = [];
    const lines: string[] = [];
    const found = await provisionSystemDependencies(
      [fake(installed)],
      (line) => lines.push(line),
      {},
      ROOT,
      async (command) => {
        executed.push(command);
        if (command.includes('install')) installed.done = true;
      },
    );
    expect(found.Widget).toBe(path.join(temp.dir, 'widget'));
    expect(executed.map((c) => c.slice(2, 4).join(' '))).toEqual(['apt-get update', 'apt-get install']);
    expect(lines.join('\n')).toMatch(/installing widget with apt-get/);
  });

  it('when something is missing and it may not install, then one message names it and what to install', async () => {
    const attempt = provisionSystemDependencies(
      [fake({ done: false })],
      () => undefined,
      {},
      { isRoot: false, passwordlessSudo: false, hasAptGet: true },
    );
    await expect(attempt).rejects.toThrow(MissingDependencyError);
    await expect(attempt).rejects.toThrow(
      /missing: Widget\. installing needs root or sudo without a password prompt: install the widget package/,
    );
  });

  it('when apt-get ran but the program is still not there, then it says so', async () => {
    await expect(
      provisionSystemDependencies(
        [fake({ done: false })],
        () => undefined,
        {},
        ROOT,
        async () => undefined,
      ),
    ).rejects.toThrow(/still not found/);
  });

  it('finds Chromium at CHROMIUM_PATH when that is an executable, and not when it is not', async () => {
    const binary = path.join(temp.dir, 'my-chromium');
    await writeFile(binary, '#!/bin/sh\n');
    await chmod(binary, 0o755);
    expect(CHROMIUM.find({ CHROMIUM_PATH: binary })).toBe(binary);
    expect(CHROMIUM.find({ CHROMIUM_PATH: path.join(temp.dir, 'missing') })).toBeNull();
  });

  it('finds python3 on PATH, and not when PATH lacks it', async () => {
    const binary = path.join(temp.dir, 'python3');
    await writeFile(binary, '#!/bin/sh\n');
    await chmod(binary, 0o755);
    expect(PYTHON3.find({ PATH: temp.dir })).toBe(binary);
    expect(PYTHON3.find({ PATH: path.join(temp.dir, 'nowhere') })).toBeNull();
  });
});
