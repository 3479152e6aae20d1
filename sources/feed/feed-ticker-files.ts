import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { MARKET_KEYS, findMarket } from '../markets.ts';
import { sqlIdent, sqlString } from '../../warehouse/sql.ts';
import { loadRaw } from './feed-read.ts';
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
      add({ file: at, line: 0, reason: `'${entry.name}' is not a market key (docs/data/markets.md): ${layout}, market one of ${MARKET_KEYS.join(', ')}` });
      continue;
    }
    const inner = await readdir(path.join(root, entry.name), { withFileTypes: true });
    for (const file of inner.filter((e) => !e.name.startsWith('.')).sort((a, b) => a.name.localeCompare(b.name))) {
      const name = `${at}/${file.name}`;
      const ticker = file.name.endsWith('.csv') ? file.name.slice(0, -'.csv'.length) : '';
      if (!file.isFile() || !TICKER.test(ticker)) {
        add({ file: name, line: 0, reason: `the file name must be the listed ticker in capitals plus .csv, e.g. AAPL.csv or BRK-B.csv: ${layout}` });
        continue;
      }
      files.push({ file: name, absolute: path.join(root, entry.name, file.name), market: entry.name, ticker });
    }
  }
  return { files, extras: found };
}

/**
 * Reads every ticker file into one all-text temp table `raw` with columns `file, market,
 * ticker, line` and the `wanted` columns (matched ignoring case; others are ignored). A file
 * that cannot be read or lacks a wanted column is an error and is left out. Returns the files read.
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
  const one = sqlIdent('feed_ticker_file');
  const read: TickerFile[] = [];
  for (const f of files) {
    let present: string[];
    try {
      present = await loadRaw(connection, f.absolute, one);
    } catch (error) {
      add({ file: f.file, line: 0, reason: `unreadable ${what.name}: ${(error as Error).message.split('\n')[0]}` });
      continue;
    }
    const byLower = new Map(present.map((c) => [c.toLowerCase(), c]));
    const missing = wanted.filter((w) => !byLower.has(w.toLowerCase()));
    if (missing.length > 0) {
      add({ file: f.file, line: 1, reason: `missing column(s) ${missing.join(', ')} of a ${what.name}: expected the header ${what.header}, got ${present.join(',')}` });
      continue;
    }
    const values = wanted.map((w) => `${sqlIdent(byLower.get(w.toLowerCase())!)} AS ${sqlIdent(w)}`).join(', ');
    await connection.run(`INSERT INTO ${raw} SELECT ${sqlString(f.file)}, ${sqlString(f.market)}, ${sqlString(f.ticker)}, line, ${values} FROM ${one}`);
    read.push(f);
  }
  await connection.run(`DROP TABLE IF EXISTS ${one}`);
  return read;
}
