import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, type CommanderError } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerFetchCommand } from '../../cli/commands/fetch.ts';
import type { FetchEdgarSummary } from '../../sources/edgar/edgar-fetch.ts';
import { readEdgarFolder } from '../support/edgar-folder.ts';
import { startSecReplayServer, type SecReplayServer } from '../support/sec-replay-server.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const BIN = fileURLToPath(new URL('../../bin/faithscreen.js', import.meta.url));
const USER_AGENT = 'Faithscreen Tests ops@example.com';

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `node bin/faithscreen.js …` with exactly the environment given (plus PATH), not the test runner's. */
function runCli(args: string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe('faithscreen fetch edgar (the real CLI against a local SEC replay server)', () => {
  let server: SecReplayServer;
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let env: Record<string, string>;

  beforeAll(async () => {
    server = await startSecReplayServer();
    temp = await makeTempDir('faithscreen-edgar-cli-');
    env = { DATA_DIR: temp.dir, SEC_BASE_URL: server.url, SEC_DATA_BASE_URL: server.url };
  });
  afterAll(async () => {
    await server.close();
    await temp.cleanup();
  });

  it('when tickers are fetched with SEC_USER_AGENT set, then DATA_DIR/edgar holds their files, the JSON summary counts them, and the EDGAR source reads them', async () => {
    const run = await runCli(['fetch', 'edgar', '--no-xbrl', '--tickers', 'AAPL,NVDA', '--json'], { ...env, SEC_USER_AGENT: USER_AGENT });

    expect(run.stderr).toMatch(/\[2\/2\] (AAPL|NVDA) \(CIK\d{10}\): submissions downloaded, companyfacts downloaded/);
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout) as FetchEdgarSummary;
    expect(summary).toMatchObject({ out: path.join(temp.dir, 'edgar'), companies: 2, downloaded: 5, skipped: 0, failed: 0, failures: [] });
    expect(server.requests.every((r) => r.userAgent === USER_AGENT)).toBe(true);
    const folder = await readEdgarFolder(path.join(temp.dir, 'edgar'));
    expect(folder.listings.get('NVDA')).toEqual({ sourceRef: 'edgar:CIK0001045810', sic: '3674' });
    expect(folder.fundamentals.get('AAPL')).toBeGreaterThan(40);
  });

  it('when a ticker is unknown and a company has no submissions file, then the others are fetched, each failure is named with its reason, and the exit code is 1', async () => {
    const out = path.join(temp.dir, 'second');
    const run = await runCli(['fetch', 'edgar', '--no-xbrl', '--tickers', 'aapl,CZR,QQZZX', '--out', out, '--user-agent', USER_AGENT], env);

    expect(run.code).toBe(1);
    expect(run.stdout).toContain('3 companies; files downloaded 4, skipped (already complete) 0, failed 1\n2 companies failed:');
    expect(run.stdout).toContain(
      'CZR (CIK0001590895): submissions/CIK0001590895.json: HTTP 404 (the SEC has no such file for this company)',
    );
    expect(run.stdout).toMatch(/QQZZX: ticker 'QQZZX' is not in company_tickers_exchange.json/);
    expect(await readdir(path.join(out, 'companyfacts'))).toEqual(['CIK0000320193.json', 'CIK0001590895.json']);
  });

  it('when fetched by CIK a second time, then every file is skipped without a request', async () => {
    const out = path.join(temp.dir, 'third');
    const first = await runCli(['fetch', 'edgar', '--no-xbrl', '--ciks', '320193', '--out', out, '--user-agent', USER_AGENT], env);
    expect(first.code).toBe(0);
    const before = server.requests.length;
    const second = await runCli(
      ['fetch', 'edgar', '--no-xbrl', '--ciks', 'CIK0000320193', '--out', out, '--user-agent', USER_AGENT, '--json'],
      env,
    );
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ downloaded: 0, skipped: 3, failed: 0 });
    expect(server.requests.length).toBe(before);
  });

  it('when no User-Agent is given, then it exits 2 saying the SEC requires a name and a contact e-mail, before any request', async () => {
    const before = server.requests.length;
    const run = await runCli(['fetch', 'edgar', '--tickers', 'AAPL'], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/the SEC requires a User-Agent with a name and a contact e-mail.*--user-agent "Name email".*SEC_USER_AGENT/);
    expect(server.requests.length).toBe(before);
  });

  it('when the command line asks for two selections, then it exits 2 naming the three choices', async () => {
    const both = await runCli(['fetch', 'edgar', '--tickers', 'AAPL', '--all', '--user-agent', USER_AGENT], env);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/exactly one of --tickers AAPL,CZR, --ciks 320193,1590895 or --all \(got --tickers and --all\)/);
  });
});

describe('fetch edgar option parsing', () => {
  /** The command as registered, parsing in process; subcommands inherit the captured output and exit override. */
  async function parse(args: string[]): Promise<{ code: number | null; stderr: string }> {
    let stderr = '';
    const program = new Command('faithscreen')
      .exitOverride()
      .configureOutput({ writeErr: (text) => (stderr += text), writeOut: () => undefined });
    registerFetchCommand(program);
    try {
      await program.parseAsync(['node', 'faithscreen', 'fetch', 'edgar', ...args]);
      return { code: null, stderr };
    } catch (error) {
      return { code: (error as CommanderError).exitCode, stderr };
    }
  }

  it('when a CIK is not 1 to 10 digits, then the option is rejected naming the value and the form', async () => {
    const run = await parse(['--ciks', '320193,32x', '--user-agent', USER_AGENT]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/'32x' is not a CIK: a CIK is 1 to 10 digits, e.g. 320193/);
  });

  it('when the rate is above the SEC limit of 10 per second or not a number, then the option is rejected', async () => {
    expect((await parse(['--all', '--rate', '20'])).stderr).toMatch(/at most 10 \(the SEC's limit\); got "20"/);
    expect((await parse(['--all', '--rate', 'fast'])).stderr).toMatch(/got "fast"/);
  });

  it('when tickers are not symbols, then the option is rejected with an example', async () => {
    expect((await parse(['--tickers', 'AAPL;rm'])).stderr).toMatch(/expected tickers separated by commas, e.g. AAPL,CZR; got "AAPL;rm"/);
  });
});
