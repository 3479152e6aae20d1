/**
 * What bench/serving-engines.bench.ts asks of each engine: the serving store's history reads and a
 * backfill chunk's write, synchronous as both engines' Node APIs are.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { BenchRow } from './serving-engines-data.ts';
import { lmdbFile, openLmdbStore } from './serving-engines-lmdb.ts';
import { openSqliteStore, sqliteFile } from './serving-engines-sqlite.ts';

export const ENGINES = ['sqlite', 'lmdb'] as const;
export type EngineName = (typeof ENGINES)[number];

export interface BenchStore {
  engine: EngineName;
  /** Upserts the rows in one transaction. */
  write(rows: readonly BenchRow[]): void;
  /** The newest row on or before `date` (`YYYY-MM-DD`). */
  asOf(market: string, ticker: string, date: string): BenchRow | undefined;
  current(market: string, ticker: string): BenchRow | undefined;
  /** Every row of a ticker, oldest first. */
  history(market: string, ticker: string): BenchRow[];
  /** Every ticker's row of one day in a market, in ticker order. */
  marketOn(market: string, date: string): BenchRow[];
  /** SQLite only: how the engine runs a statement. */
  plan?(sql: string): string;
  close(): void;
}

export function openStore(engine: EngineName, dir: string): BenchStore {
  return engine === 'sqlite' ? openSqliteStore(dir) : openLmdbStore(dir);
}

/** Bytes the engine's files (data, WAL or lock) take on disk (allocated blocks, so a sparse map counts what it holds). */
export function storeBytes(engine: EngineName, dir: string): number {
  const prefix = path.basename(engine === 'sqlite' ? sqliteFile(dir) : lmdbFile(dir));
  let bytes = 0;
  for (const name of readdirSync(dir)) if (name.startsWith(prefix)) bytes += statSync(path.join(dir, name)).blocks * 512;
  return bytes;
}
