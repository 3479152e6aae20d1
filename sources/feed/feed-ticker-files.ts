import { open, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { MARKET_KEYS, findMarket } from '../../common/markets.ts';
import { rawSql, runSql, sql, sqlIdent, sqlString } from '../../warehouse/sql.ts';
import type { FeedError } from './feed-validation.ts';

/**
 * Per-ticker CSV files of a delivery, laid out `<dir>/<market>/<TICKER>.csv` (Yahoo-style
 * downloads: docs/data/feed-contract.md, "Daily price files"). The ticker is the file name.
 */

/** A ticker file: `file` is its path inside the delivery (how errors name it). */
export interface TickerFile {
  file: string;
  absolute: string;
  market: string;
  ticker: string;
}

/** A ticker as listed: capitals, digits and `.`, `-`, `_` (BRK-B, BF.B, 2222). */
const TICKER = /^[A-Z0-9][A-Z0-9._-]*$/;

/**
 * The ticker files under `<folder>/<dir>`, or undefined when the delivery has no such folder.
 * Names that do not follow the layout are errors; `extras` are files allowed directly in `dir`
 * (returned by name); hidden files are ignored.
 */
export async function findTickerFiles(
  folder: string,
  dir: string,
  extras: readonly string[],
  add: (e: FeedError) => void,
): Promise<{ files: TickerFile[]; extras: string[] } | undefined> {
  const root = path.join(folder, dir);
  const top = await readdir(root, { withFileTypes: true }).catch(() => undefined);
  if (!top) return undefined;
  const layout = `files go in ${dir}/<market>/<TICKER>.csv`;
  const files: TickerFile[] = [];
  const found: string[] = [];
  for (const entry of top.filter((e) => !e.name.startsWith('.')).sort((a, b) => a.name.localeCompare(b.name))) {
    const at = `${dir}/${entry.name}`;
    if (!entry.isDirectory()) {
      if (extras.includes(entry.name)) found.push(entry.name);
      else add({ file: at, line: 0, reason: `not a ${dir} file: ${layout}${extras.length > 0 ? ` (or ${extras.join(', ')})` : ''}` });
      continue;
    }
    if (!findMarket(entry.name)) {
      add({
        file: at,
        line: 0,
        reason: `'${entry.name}' is not a market key (docs/data/markets.md): ${layout}, market one of ${MARKET_KEYS.join(', ')}`,
      });
      continue;
    }
    const inner = await readdir(path.join(root, entry.name), { withFileTypes: true });
    for (const file of inner.filter((e) => !e.name.startsWith('.')).sort((a, b) => a.name.localeCompare(b.name))) {
      const name = `${at}/${file.name}`;
      const ticker = file.name.endsWith('.csv') ? file.name.slice(0, -'.csv'.length) : '';
      if (!file.isFile() || !TICKER.test(ticker)) {
        add({
          file: name,
          line: 0,
          reason: `the file name must be the listed ticker in capitals plus .csv, e.g. AAPL.csv or BRK-B.csv: ${layout}`,
        });
        continue;
      }
      files.push({ file: name, absolute: path.join(root, entry.name, file.name), market: entry.name, ticker });
    }
  }
  return { files, extras: found };
}

/** The column names of a CSV file's header line (quotes removed, a byte-order mark dropped). */
export async function readCsvHeader(file: string): Promise<string[]> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(HEADER_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEADER_BYTES, 0);
    const first =
      buffer
        .subarray(0, bytesRead)
        .toString('utf8')
        .replace(/^\uFEFF/, '')
        .split(/\r?\n/)[0] ?? '';
    if (first.trim() === '') return [];
    return first.split(',').map((name) =>
      name
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .replaceAll('""', '"'),
    );
  } finally {
    await handle.close();
  }
}

const HEADER_BYTES = 64 * 1024;

/** Line and reason of the CSV reader's error (it names the line and, for a ragged row, the column counts). */
function csvProblem(message: string, what: string): { line: number; reason: string } {
  const line = /CSV Error on Line: (\d+)/.exec(message)?.[1];
  const counts = /Expected Number of Columns: (\d+) Found: (\d+)/.exec(message);
  if (line && counts)
    return { line: Number(line), reason: `unreadable ${what}: ${counts[2]} values where the header has ${counts[1]} columns` };
  return { line: line ? Number(line) : 0, reason: `unreadable ${what}: ${message.split('\n')[0]}` };
}

/**
 * Reads every ticker file into one all-text temp table `raw` with columns `file, market,
 * ticker, line` and the `wanted` columns (matched ignoring case; others are ignored). A file
 * that cannot be read or lacks a wanted column is an error and is left out. Returns the files
 * read. The header is read here and the CSV reader told the columns: letting it sniff each
 * file was slow (the cost is in docs/data/feed-contract.md, "Daily price files").
 */
export async function loadTickerFiles(
  connection: DuckDBConnection,
  files: readonly TickerFile[],
  raw: string,
  wanted: readonly string[],
  what: { name: string; header: string },
  add: (e: FeedError) => void,
): Promise<TickerFile[]> {
  const columns = wanted.map((w) => `${sqlIdent(w)} VARCHAR`).join(', ');
  await connection.run(`CREATE OR REPLACE TEMP TABLE ${raw} (file VARCHAR, market VARCHAR, ticker VARCHAR, line INTEGER, ${columns})`);
  const read: TickerFile[] = [];
  for (const f of files) {
    const header = await readCsvHeader(f.absolute);
    const lower = header.map((h) => h.toLowerCase());
    const repeated = lower.find((h, i) => lower.indexOf(h) !== i);
    const missing = wanted.filter((w) => !lower.includes(w.toLowerCase()));
    if (header.length === 0 || repeated !== undefined || missing.length > 0) {
      const problem =
        header.length === 0
          ? 'no header line'
          : repeated !== undefined
            ? `the header repeats column ${repeated}`
            : `missing column(s) ${missing.join(', ')}`;
      add({ file: f.file, line: 1, reason: `${problem} of a ${what.name}: expected the header ${what.header}, got ${header.join(',')}` });
      continue;
    }
    // Column names, written as a struct literal in header order: a bound struct is built from a JS object,
    // which would move numeric-looking names first and pair the file's columns with the wrong names.
    const types = rawSql(`{${header.map((h) => `${sqlString(h)}: 'VARCHAR'`).join(', ')}}`);
    const values = rawSql(wanted.map((w) => `${sqlIdent(header[lower.indexOf(w.toLowerCase())]!)}`).join(', '));
    const csv = sql`read_csv(${f.absolute}, header = true, auto_detect = false, delim = ',', quote = '"', escape = '"', columns = ${types}, parallel = false)`;
    try {
      await runSql(
        connection,
        sql`INSERT INTO ${rawSql(raw)} SELECT ${f.file}, ${f.market}, ${f.ticker}, (row_number() OVER () + 1)::INTEGER, ${values} FROM ${csv}`,
      );
    } catch (error) {
      add({ file: f.file, ...csvProblem((error as Error).message, what.name) });
      continue;
    }
    read.push(f);
  }
  return read;
}
