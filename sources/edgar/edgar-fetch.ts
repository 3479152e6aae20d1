import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { EdgarFetchError, type EdgarClient } from './edgar-client.ts';
import {
  CompanyFactsSchema,
  CompanyTickersExchangeSchema,
  SubmissionsSchema,
  paddedCik,
  parseEdgarJson,
  type CompanyTickersExchange,
} from './edgar-formats.ts';
import { inLanes } from '../../common/lanes.ts';
import { fetchInstance, instanceFilings } from './xbrl-fetch.ts';

/**
 * Downloads EDGAR files into the folder layout `createEdgarSource` reads (docs/data/sources.md,
 * "Fetching from EDGAR"): `company_tickers_exchange.json` first, then per company
 * `submissions/CIK##########.json` and `companyfacts/CIK##########.json`, then the XBRL
 * instances of the latest 10-K and the 10-Qs since (`xbrl/CIK##########/<accession>.xml`). Every body is checked
 * against the published format before it is written, and written by temp file + rename, so a
 * file in the folder is always complete; complete files are skipped unless `force`.
 */

export type EdgarSelection = { tickers: string[] } | { ciks: string[] } | { all: true };

export type FileOutcome = 'downloaded' | 'skipped' | 'failed';

export interface FileResult {
  /** Relative to the output folder, e.g. `companyfacts/CIK0000320193.json`. */
  file: string;
  outcome: FileOutcome;
  reason?: string;
}

export interface CompanyResult {
  /** What the user asked for: a ticker, or `CIK##########`. */
  company: string;
  /** Null when a ticker could not be resolved. */
  cik: string | null;
  files: FileResult[];
  /** Why the company failed, when it did: the first failed file's reason or the lookup error. */
  reason?: string;
}

export interface FetchEdgarProgress {
  doneCompanies: number;
  totalCompanies: number;
  last: CompanyResult;
}

export interface FetchEdgarSummary {
  out: string;
  companies: number;
  /** File counts over the run, the tickers list included. */
  downloaded: number;
  skipped: number;
  failed: number;
  /** One entry per company that did not get all its files, with the reason. */
  failures: Array<{ company: string; cik: string | null; reason: string }>;
  results: CompanyResult[];
}

export interface FetchEdgarRequest {
  client: EdgarClient;
  outDir: string;
  selection: EdgarSelection;
  /** Download even files already complete. */
  force?: boolean;
  /** Also fetch the XBRL instances of the latest 10-K and the 10-Qs since (default true). */
  instances?: boolean;
  /** Companies downloaded at once; the client's pacing still bounds the request rate (default 4). */
  concurrency?: number;
  onProgress?: (progress: FetchEdgarProgress) => void;
}

const TICKERS_FILE = 'company_tickers_exchange.json';

/** Writes `text` to `file` so that a reader sees either the old file or the whole new one. */
async function writeAtomically(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** True when the file exists and parses in its published format. */
async function isComplete(file: string, schema: z.ZodType): Promise<boolean> {
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return false;
  try {
    parseEdgarJson(schema, text, file);
    return true;
  } catch {
    return false;
  }
}

function describeFailure(error: unknown, file: string): string {
  if (error instanceof EdgarFetchError) {
    const hint = error.status === 404 ? ' (the SEC has no such file for this company)' : '';
    return `${file}: ${error.message}${hint}`;
  }
  return (error as Error).message;
}

/** Gets one file into the folder: skipped when complete, else downloaded, format-checked and written. */
async function fetchFile(
  client: EdgarClient,
  outDir: string,
  file: string,
  url: string,
  schema: z.ZodType,
  force: boolean,
): Promise<FileResult> {
  const target = path.join(outDir, file);
  if (!force && (await isComplete(target, schema))) return { file, outcome: 'skipped' };
  try {
    const text = await client.getText(url);
    parseEdgarJson(schema, text, file);
    await writeAtomically(target, text);
    return { file, outcome: 'downloaded' };
  } catch (error) {
    return { file, outcome: 'failed', reason: describeFailure(error, file) };
  }
}

/** The tickers list, from the folder when complete (and `refresh` is off), else from the SEC. */
async function loadTickers(
  client: EdgarClient,
  outDir: string,
  refresh: boolean,
): Promise<{ list: CompanyTickersExchange; result: FileResult }> {
  const result = await fetchFile(client, outDir, TICKERS_FILE, client.urls.companyTickersExchange, CompanyTickersExchangeSchema, refresh);
  if (result.outcome === 'failed') throw new Error(`cannot get the tickers list: ${result.reason}`);
  const list = parseEdgarJson(CompanyTickersExchangeSchema, await readFile(path.join(outDir, TICKERS_FILE), 'utf8'), TICKERS_FILE);
  return { list, result };
}

interface Target {
  company: string;
  cik: string | null;
  reason?: string;
}

/** A CIK as the user typed it (`320193`, `0000320193`, `CIK0000320193`), zero-padded to 10 digits. */
export function normaliseCik(input: string): string {
  const digits = input.trim().replace(/^CIK/i, '');
  if (!/^\d{1,10}$/.test(digits) || Number(digits) === 0)
    throw new Error(`'${input}' is not a CIK: a CIK is 1 to 10 digits, e.g. 320193 or 0000320193`);
  return paddedCik(digits);
}

/** One target per CIK, named as the user asked (tickers of the same company joined). */
function dedupeByCik(targets: Target[]): Target[] {
  const byCik = new Map<string, Target>();
  const out: Target[] = [];
  for (const target of targets) {
    const seen = target.cik ? byCik.get(target.cik) : undefined;
    if (seen) {
      if (!seen.company.split(',').includes(target.company)) seen.company += `,${target.company}`;
      continue;
    }
    if (target.cik) byCik.set(target.cik, target);
    out.push(target);
  }
  return out;
}

function resolveTargets(selection: EdgarSelection, list: CompanyTickersExchange): Target[] {
  if ('all' in selection) return dedupeByCik(list.data.map(([cik]) => ({ company: `CIK${paddedCik(cik)}`, cik: paddedCik(cik) })));
  if ('ciks' in selection) return dedupeByCik(selection.ciks.map(normaliseCik).map((cik) => ({ company: `CIK${cik}`, cik })));
  const cikOf = new Map(list.data.map(([cik, , ticker]) => [ticker.toUpperCase(), paddedCik(cik)]));
  return dedupeByCik(
    selection.tickers.map((ticker) => {
      const cik = cikOf.get(ticker.toUpperCase()) ?? null;
      if (cik) return { company: ticker.toUpperCase(), cik };
      return {
        company: ticker,
        cik,
        reason: `ticker '${ticker}' is not in ${TICKERS_FILE} (${cikOf.size} tickers): check the symbol, or fetch by CIK with --ciks`,
      };
    }),
  );
}

const unknownTickers = (targets: Target[]): number => targets.filter((t) => t.cik === null).length;

/** The instances of the filings the saved submissions list; none when the submissions could not be had. */
async function fetchInstances(client: EdgarClient, outDir: string, cik: string, force: boolean): Promise<FileResult[]> {
  const file = `submissions/CIK${cik}.json`;
  const text = await readFile(path.join(outDir, file), 'utf8').catch(() => null);
  if (text === null) return [];
  const results: FileResult[] = [];
  for (const filing of instanceFilings(parseEdgarJson(SubmissionsSchema, text, file)))
    results.push(await fetchInstance(client, outDir, cik, filing, force, writeAtomically));
  return results;
}

async function fetchCompany(
  client: EdgarClient,
  outDir: string,
  target: Target,
  force: boolean,
  instances: boolean,
): Promise<CompanyResult> {
  if (!target.cik) return { company: target.company, cik: null, files: [], reason: target.reason };
  const cik = target.cik;
  const files = [
    await fetchFile(client, outDir, `submissions/CIK${cik}.json`, client.urls.submissions(cik), SubmissionsSchema, force),
    await fetchFile(client, outDir, `companyfacts/CIK${cik}.json`, client.urls.companyFacts(cik), CompanyFactsSchema, force),
  ];
  if (instances && files[0]!.outcome !== 'failed') files.push(...(await fetchInstances(client, outDir, cik, force)));
  const failed = files.filter((f) => f.outcome === 'failed');
  return { company: target.company, cik, files, ...(failed.length > 0 ? { reason: failed.map((f) => f.reason).join('; ') } : {}) };
}

/** Fetches the selected companies' EDGAR files into `outDir`; per-company failures are reported, not thrown. */
export async function fetchEdgar(request: FetchEdgarRequest): Promise<FetchEdgarSummary> {
  const { client, outDir, selection } = request;
  const force = request.force ?? false;
  let tickers = await loadTickers(client, outDir, force);
  let targets = resolveTargets(selection, tickers.list);
  // A saved list may predate a new listing: look once more in a fresh copy before calling a ticker unknown.
  // When that fetch fails, the saved list (still complete on disk) stands.
  if (unknownTickers(targets) > 0 && tickers.result.outcome === 'skipped') {
    const fresh = await loadTickers(client, outDir, true).catch(() => null);
    if (fresh) {
      tickers = fresh;
      targets = resolveTargets(selection, tickers.list);
    }
  }

  const results: CompanyResult[] = new Array<CompanyResult>(targets.length);
  let done = 0;
  await inLanes(targets.length, request.concurrency ?? 4, async (index) => {
    const result = await fetchCompany(client, outDir, targets[index]!, force, request.instances ?? true);
    results[index] = result;
    done += 1;
    request.onProgress?.({ doneCompanies: done, totalCompanies: targets.length, last: result });
  });

  const files = [tickers.result, ...results.flatMap((r) => r.files)];
  const count = (outcome: FileOutcome): number => files.filter((f) => f.outcome === outcome).length;
  return {
    out: outDir,
    companies: targets.length,
    downloaded: count('downloaded'),
    skipped: count('skipped'),
    failed: count('failed'),
    failures: results.filter((r) => r.reason !== undefined).map((r) => ({ company: r.company, cik: r.cik, reason: r.reason! })),
    results,
  };
}
