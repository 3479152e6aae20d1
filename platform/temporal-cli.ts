import { execFile } from 'node:child_process';
import { access, constants, mkdir, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The CLI release built from source when no binary is found (newest without a go.mod `replace`). */
export const TEMPORAL_CLI_VERSION = 'v1.5.1';
const GO_PACKAGE = `github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_VERSION}`;
const MIN_GO = [1, 25] as const;

export type CliOrigin = 'env' | 'path' | 'cache' | 'go-install' | 'sdk-download';

export interface ProvisionedCli {
  path: string;
  origin: CliOrigin;
  /** What provisioning did, for the user. */
  message: string;
}

/** Cache folder outside the repo, so clean clones and CI reuse one build. */
export function cliCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.FAITHSCREEN_CACHE_DIR ?? path.join(env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'faithscreen');
  return path.join(base, `temporal-cli-${TEMPORAL_CLI_VERSION}`);
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function findOnPath(env: NodeJS.ProcessEnv): Promise<string | null> {
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, 'temporal');
    if (await isExecutable(candidate)) return candidate;
  }
  return null;
}

/** Parses `go version go1.26.8 linux/amd64` → [1, 26]; null when unreadable. */
export function parseGoVersion(output: string): [number, number] | null {
  const match = /go(\d+)\.(\d+)/.exec(output);
  return match ? [Number(match[1]), Number(match[2])] : null;
}

async function goInstall(cacheDir: string, env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<string | null> {
  let version: [number, number] | null;
  try {
    version = parseGoVersion((await run('go', ['version'], { env })).stdout);
  } catch {
    log('Go toolchain not found; skipping the source build of the Temporal CLI');
    return null;
  }
  if (!version || version[0] < MIN_GO[0] || (version[0] === MIN_GO[0] && version[1] < MIN_GO[1])) {
    log(`Go ${version?.join('.') ?? '?'} is older than ${MIN_GO.join('.')}; skipping the source build`);
    return null;
  }
  // Build into a scratch GOBIN and rename into place, so an interrupted build never leaves a half binary.
  const scratch = `${cacheDir}.build-${process.pid}`;
  await mkdir(scratch, { recursive: true });
  log(`building the Temporal CLI ${TEMPORAL_CLI_VERSION} with go install (first time only, takes a few minutes)…`);
  try {
    await run('go', ['install', GO_PACKAGE], { env: { ...env, GOBIN: scratch, CGO_ENABLED: '0' }, maxBuffer: 64 * 1024 * 1024 });
    await mkdir(cacheDir, { recursive: true });
    const target = path.join(cacheDir, 'temporal');
    await rename(path.join(scratch, 'temporal'), target);
    return target;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function sdkDownload(cacheDir: string, log: (line: string) => void): Promise<string> {
  log('downloading the Temporal CLI with the SDK (needs internet access)…');
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  // Starting and stopping a local env makes the SDK download and cache its binary.
  const envTest = await TestWorkflowEnvironment.createLocal({ server: { executable: { type: 'cached-download', downloadDir: cacheDir } } });
  await envTest.teardown();
  const { readdir } = await import('node:fs/promises');
  const found = (await readdir(cacheDir, { recursive: true })).find((name) => path.basename(String(name)).startsWith('temporal'));
  if (!found) throw new Error(`the SDK download finished but no binary was found under ${cacheDir}`);
  return path.join(cacheDir, String(found));
}

/**
 * Finds or builds the Temporal CLI, in the order docs/getting-started.md ("The Temporal CLI") states: $TEMPORAL_CLI_PATH → `temporal`
 * on PATH → cached build → `go install` → the SDK's download. Idempotent; says what it did.
 */
export async function provisionTemporalCli(
  env: NodeJS.ProcessEnv = process.env,
  log: (line: string) => void = () => undefined,
): Promise<ProvisionedCli> {
  if (env.TEMPORAL_CLI_PATH) {
    if (!(await isExecutable(env.TEMPORAL_CLI_PATH))) {
      throw new Error(`TEMPORAL_CLI_PATH=${env.TEMPORAL_CLI_PATH} is not an executable file`);
    }
    return { path: env.TEMPORAL_CLI_PATH, origin: 'env', message: `using TEMPORAL_CLI_PATH ${env.TEMPORAL_CLI_PATH}` };
  }
  const onPath = await findOnPath(env);
  if (onPath) return { path: onPath, origin: 'path', message: `using temporal on PATH at ${onPath}` };
  const cacheDir = cliCacheDir(env);
  const cached = path.join(cacheDir, 'temporal');
  if (await isExecutable(cached)) return { path: cached, origin: 'cache', message: `using cached build ${cached}` };
  try {
    const built = await goInstall(cacheDir, env, log);
    if (built) return { path: built, origin: 'go-install', message: `built ${GO_PACKAGE} into ${built}` };
  } catch (error) {
    log(`go install failed: ${(error as Error).message.split('\n')[0]}`);
  }
  const downloaded = await sdkDownload(cacheDir, log);
  return { path: downloaded, origin: 'sdk-download', message: `downloaded the Temporal CLI to ${downloaded}` };
}
