import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { findPostgresBinDir, POSTGRES_MAJOR, postgresRunAs } from './postgres-server.ts';

const run = promisify(execFile);

/**
 * The programs the tests need besides Node (docs/getting-started.md, "Install and start"), found or installed the way
 * the Temporal CLI is (platform/temporal-cli.ts): look for them first; when missing, install the
 * Debian/Ubuntu package through apt-get if this process may (root, or sudo without a password);
 * otherwise stop with one message saying exactly what to install.
 */
export interface SystemDependency {
  name: string;
  /** The Debian/Ubuntu package that provides it. */
  debianPackage: string;
  /** Where it is, or null. */
  find(env: NodeJS.ProcessEnv): string | null;
  /** What to do by hand when it cannot be installed here. */
  manualHint: string;
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(env: NodeJS.ProcessEnv, names: readonly string[]): string | null {
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    for (const name of names) if (executable(path.join(dir, name))) return path.join(dir, name);
  }
  return null;
}

export const CHROMIUM: SystemDependency = {
  name: 'Chromium (certificate page tests)',
  debianPackage: 'chromium',
  find: (env) => {
    if (env.CHROMIUM_PATH) return executable(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : null;
    if (executable('/usr/bin/chromium')) return '/usr/bin/chromium';
    return onPath(env, ['chromium', 'chromium-browser']);
  },
  manualHint: "install Debian's or Ubuntu's chromium package, or set CHROMIUM_PATH to a Chromium binary",
};

export const POSTGRES: SystemDependency = {
  name: `PostgreSQL ${POSTGRES_MAJOR} (service-state tests on a throwaway cluster)`,
  debianPackage: `postgresql-${POSTGRES_MAJOR}`,
  find: (env) => findPostgresBinDir(env),
  manualHint:
    `install PostgreSQL ${POSTGRES_MAJOR} (Debian/Ubuntu: postgresql-${POSTGRES_MAJOR}; elsewhere put initdb and pg_ctl ` +
    `on PATH or set POSTGRES_BIN_DIR)`,
};

export const PYTHON3: SystemDependency = {
  name: 'Python 3 (runs the Python signature-verification example of docs/webhooks.md)',
  debianPackage: 'python3',
  find: (env) => onPath(env, ['python3']),
  manualHint: 'install Python 3 (Debian/Ubuntu: python3) and put python3 on PATH',
};

export interface InstallAbility {
  isRoot: boolean;
  /** `sudo -n true` succeeds: sudo without a password prompt. */
  passwordlessSudo: boolean;
  hasAptGet: boolean;
}

/** How the missing packages would be installed here, or why they cannot be. */
export function installPlan(packages: readonly string[], ability: InstallAbility): { commands: string[][] } | { refusal: string } {
  if (!ability.hasAptGet) return { refusal: 'apt-get is not available, so faithscreen cannot install them itself' };
  if (!ability.isRoot && !ability.passwordlessSudo) return { refusal: 'installing needs root or sudo without a password prompt' };
  const sudo = ability.isRoot ? [] : ['sudo', '-n'];
  const env = ['env', 'DEBIAN_FRONTEND=noninteractive'];
  return {
    commands: [
      [...sudo, ...env, 'apt-get', 'update', '-qq'],
      [...sudo, ...env, 'apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...packages],
    ],
  };
}

async function succeeds(command: string, args: string[]): Promise<boolean> {
  try {
    await run(command, args);
    return true;
  } catch {
    return false;
  }
}

export async function installAbility(env: NodeJS.ProcessEnv = process.env): Promise<InstallAbility> {
  const isRoot = process.getuid?.() === 0;
  return { isRoot, passwordlessSudo: !isRoot && (await succeeds('sudo', ['-n', 'true'])), hasAptGet: onPath(env, ['apt-get']) !== null };
}

/** Raised when a dependency is missing and cannot be installed here; the message says what to install. */
export class MissingDependencyError extends Error {
  override name = 'MissingDependencyError';
}

/**
 * Finds every dependency, installs the missing ones when it can, and returns where each is.
 * Idempotent: a second run finds everything and installs nothing.
 */
export async function provisionSystemDependencies(
  dependencies: readonly SystemDependency[],
  log: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
  ability?: InstallAbility,
  execute: (command: string[]) => Promise<void> = async ([command, ...args]) =>
    void (await run(command!, args, { maxBuffer: 64 * 1024 * 1024 })),
): Promise<Record<string, string>> {
  const missing = dependencies.filter((dependency) => dependency.find(env) === null);
  if (missing.length > 0) {
    const plan = installPlan(
      missing.map((d) => d.debianPackage),
      ability ?? (await installAbility(env)),
    );
    if ('refusal' in plan) {
      throw new MissingDependencyError(
        `missing: ${missing.map((d) => d.name).join('; ')}. ${plan.refusal}: ${missing.map((d) => d.manualHint).join('; ')}`,
      );
    }
    log(`installing ${missing.map((d) => d.debianPackage).join(', ')} with apt-get (first time only)…`);
    for (const command of plan.commands) await execute(command);
    const still = missing.filter((dependency) => dependency.find(env) === null);
    if (still.length > 0)
      throw new MissingDependencyError(
        `apt-get finished but ${still.map((d) => d.name).join('; ')} is still not found: ${still.map((d) => d.manualHint).join('; ')}`,
      );
  }
  if (dependencies.includes(POSTGRES)) {
    const runAs = postgresRunAs();
    if ('error' in runAs) throw new MissingDependencyError(runAs.error);
  }
  return Object.fromEntries(dependencies.map((d) => [d.name, d.find(env)!]));
}
