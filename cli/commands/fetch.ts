import path from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { getConfig } from '../../platform/config.ts';
import { createEdgarClient, userAgentProblem } from '../../sources/edgar/edgar-client.ts';
import { fetchEdgar, normaliseCik, type EdgarSelection, type FetchEdgarSummary } from '../../sources/edgar/edgar-fetch.ts';
import { createEdgarFetchView, summaryText } from '../edgar-fetch-view.ts';

export interface FetchEdgarOptions {
  tickers?: string[];
  ciks?: string[];
  all?: boolean;
  out?: string;
  userAgent?: string;
  rate: number;
  force?: boolean;
  json?: boolean;
  /** False with `--no-xbrl`: skip the XBRL instances of the filings. */
  xbrl?: boolean;
}

/** Raised for a command line that asks for nothing runnable; nothing has been downloaded. */
export class FetchUsageError extends Error {}

function parseTickers(value: string): string[] {
  const tickers = value
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  if (tickers.length === 0 || tickers.some((t) => !/^[A-Za-z0-9.-]{1,12}$/.test(t)))
    throw new InvalidArgumentError(`expected tickers separated by commas, e.g. AAPL,CZR; got "${value}"`);
  return tickers;
}

function parseCiks(value: string): string[] {
  const ciks = value
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  if (ciks.length === 0) throw new InvalidArgumentError(`expected CIKs separated by commas, e.g. 320193,1590895; got "${value}"`);
  try {
    return ciks.map(normaliseCik);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

function parseRate(value: string): number {
  const rate = Number(value);
  if (!(rate > 0 && rate <= 10))
    throw new InvalidArgumentError(`expected requests per second above 0 and at most 10 (the SEC's limit); got "${value}"`);
  return rate;
}

function selectionOf(options: FetchEdgarOptions): EdgarSelection {
  const chosen = [options.tickers && '--tickers', options.ciks && '--ciks', options.all && '--all'].filter(Boolean);
  if (chosen.length !== 1)
    throw new FetchUsageError(
      `choose what to fetch with exactly one of --tickers AAPL,CZR, --ciks 320193,1590895 or --all${chosen.length > 1 ? ` (got ${chosen.join(' and ')})` : ''}`,
    );
  if (options.tickers) return { tickers: options.tickers };
  if (options.ciks) return { ciks: options.ciks };
  return { all: true };
}

/**
 * `fetch edgar`: the command's work, callable from tests. `env` supplies SEC_USER_AGENT and the
 * base URL overrides SEC_BASE_URL / SEC_DATA_BASE_URL.
 */
export async function runFetchEdgar(options: FetchEdgarOptions, env: NodeJS.ProcessEnv = process.env): Promise<FetchEdgarSummary> {
  const selection = selectionOf(options);
  const userAgent = options.userAgent ?? env.SEC_USER_AGENT;
  const problem = userAgentProblem(userAgent);
  if (problem)
    throw new FetchUsageError(
      `${problem}; pass --user-agent "Name email" or set SEC_USER_AGENT (the SEC's fair-access policy: https://www.sec.gov/os/accessing-edgar-data)`,
    );
  const outDir = path.resolve(options.out ?? path.join(getConfig().dataDir, 'edgar'));
  const edgar = createEdgarClient({
    userAgent: userAgent!,
    maxPerSecond: options.rate,
    baseUrls: { ...(env.SEC_BASE_URL ? { www: env.SEC_BASE_URL } : {}), ...(env.SEC_DATA_BASE_URL ? { data: env.SEC_DATA_BASE_URL } : {}) },
  });
  const view = createEdgarFetchView();
  try {
    return await fetchEdgar({
      client: edgar,
      outDir,
      selection,
      force: options.force,
      instances: options.xbrl ?? true,
      onProgress: (p) => view.update(p),
    });
  } finally {
    view.stop();
  }
}

/** `fetch edgar`: download SEC EDGAR files into a folder the EDGAR source reads (docs/data/sources.md). */
export function registerFetchCommand(program: Command): void {
  const fetchCommand = program.command('fetch').description('download source files from the network into a delivery folder');
  fetchCommand
    .command('edgar')
    .description(
      'download SEC EDGAR files (tickers list, submissions, companyfacts, the XBRL instances of the latest 10-K and the 10-Qs since) ' +
        'into a folder `ingest --source edgar` reads; resumable',
    )
    .option('--tickers <list>', 'comma-separated tickers, e.g. AAPL,CZR', parseTickers)
    .option('--ciks <list>', 'comma-separated CIKs, e.g. 320193,1590895', parseCiks)
    .option('--all', 'every company in company_tickers_exchange.json')
    .option('--out <dir>', 'delivery folder (default DATA_DIR/edgar)')
    .option('--user-agent <text>', 'who you are for the SEC: a name and a contact e-mail (default $SEC_USER_AGENT)')
    .option('--rate <n>', 'requests per second, at most 10', parseRate, 8)
    .option('--force', 'download again even files already complete')
    .option('--no-xbrl', 'skip the XBRL instances of the filings')
    .option('--json', 'print the summary as JSON')
    .action(async (options: FetchEdgarOptions) => {
      let summary: FetchEdgarSummary;
      try {
        summary = await runFetchEdgar(options);
      } catch (error) {
        if (!(error instanceof FetchUsageError)) throw error;
        process.stderr.write(`faithscreen fetch edgar: ${error.message}\n`);
        process.exitCode = 2;
        return;
      }
      process.stdout.write(`${options.json ? JSON.stringify(summary) : summaryText(summary)}\n`);
      if (summary.failures.length > 0) process.exitCode = 1;
    });
}
