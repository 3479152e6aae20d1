/**
 * A lake of real companies, loaded the way a user loads them: the recorded SEC files in
 * test/fixtures/realdata/ through `faithscreen ingest --source edgar`, their month-end closes
 * as Yahoo-style daily price files through `faithscreen ingest --source feed`, then screened on
 * a date by the pipelines' own chunk work (load inputs, screen, publish snapshots).
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { createLakePipelineData } from '../../../activities/lake-pipeline-data.ts';
import { screenChunkWork } from '../../../activities/screen-chunk.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const REALDATA = path.join(ROOT, 'test', 'fixtures', 'realdata');

/** The last close in the recorded price files; a Yahoo close is split-adjusted up to it. */
export const PRICES_END = '2024-03-08';

/** Month-end closes per ticker from the recorded file, as `[date, close]` rows. */
export async function monthEndCloses(): Promise<Map<string, Array<[string, string]>>> {
  const text = gunzipSync(await readFile(path.join(REALDATA, 'month_end_close.csv.gz'))).toString('utf8');
  const [header, ...lines] = text.trim().split('\n');
  const col = header!.split(',');
  const at = (name: string) => col.indexOf(name);
  const byTicker = new Map<string, Array<[string, string]>>();
  for (const line of lines) {
    const f = line.split(',');
    const rows = byTicker.get(f[at('ticker')]!) ?? [];
    rows.push([f[at('last_trading_date_in_month')]!, f[at('close')]!]);
    byTicker.set(f[at('ticker')]!, rows);
  }
  return byTicker;
}

/**
 * A feed delivery of Yahoo-style daily price files, one per ticker, holding the recorded
 * month-end closes (Open/High/Low are the close: only `Close` is read).
 */
export async function writeDailyPriceDelivery(folder: string, only?: readonly string[]): Promise<void> {
  const dir = path.join(folder, 'prices-daily', 'us');
  await mkdir(dir, { recursive: true });
  for (const [ticker, rows] of await monthEndCloses()) {
    if (only && !only.includes(ticker)) continue;
    const body = rows.map(([date, close]) => `${date},${close},${close},${close},${close},${close},0`).join('\n');
    await writeFile(path.join(dir, `${ticker}.csv`), `Date,Open,High,Low,Close,Adj Close,Volume\n${body}\n`);
  }
}

/** Runs the real CLI with `DATA_DIR` set; rejects with its output when it exits non-zero. */
export async function faithscreen(dataDir: string, args: readonly string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [path.join(ROOT, 'bin', 'faithscreen.js'), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

/** Ingests the real companies (EDGAR files and prices) into `dataDir` through the CLI. */
export async function ingestRealCompanies(dataDir: string, edgarFolder = REALDATA): Promise<void> {
  const delivery = path.join(dataDir, 'deliveries', 'real-prices');
  await writeDailyPriceDelivery(delivery);
  await faithscreen(dataDir, ['ingest', '--source', 'edgar', '--path', edgarFolder]);
  await faithscreen(dataDir, ['ingest', '--source', 'feed', '--path', delivery]);
}

/** Screens every US listing on `date` with the pipelines' chunk work and publishes the snapshots. */
export async function screenUsOn(dataDir: string, date: string): Promise<void> {
  const data = createLakePipelineData(dataDir);
  const chunk = { index: 0, market: 'us', offset: 0, limit: 1_000_000 };
  await screenChunkWork({ dataDir, data }, { runId: `real-${date}`, source: 'refresh', chunk, dates: [date] }, () => undefined);
}
