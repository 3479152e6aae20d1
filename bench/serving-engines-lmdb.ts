/**
 * The serving store's history on LMDB through the `lmdb` package, as bench/serving-engines.bench.ts
 * measures it: array keys [market, ticker, snapshot_date] (ordered, so as_of is a reverse range
 * read of one entry), each value a msgpack record with shared structures; one day of a market
 * needs a second database as its index, keyed [market, snapshot_date, ticker] with an empty
 * value, written in the same transaction. Commits are LMDB's default (flushed before returning).
 */
import path from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import type { BenchRow } from './serving-engines-data.ts';
import type { BenchStore } from './serving-engines-store.ts';

/** Sorts after every ticker and date string, so it closes a prefix range. */
const HIGH = '\uffff';
const EMPTY = Buffer.alloc(0);

type Key = [string, string, string];

interface Record {
  screenedAt: string;
  statuses: string;
  ratios: number[];
  synthetic: number;
  dataSource: string;
  result: Buffer;
}

function toRow(key: Key, value: Record): BenchRow {
  return { market: key[0], ticker: key[1], snapshotDate: key[2], ...value };
}

/** One file (and its `-lock`), as the name has an extension. */
export function lmdbFile(dir: string): string {
  return path.join(dir, 'serving.lmdb');
}

export function openLmdbStore(dir: string): BenchStore {
  const root: RootDatabase = open({ path: lmdbFile(dir), maxDbs: 4 });
  const history: Database<Record, Key> = root.openDB({
    name: 'history',
    encoding: 'msgpack',
    sharedStructuresKey: Symbol.for('structures'),
  });
  const byDay: Database<Buffer, Key> = root.openDB({ name: 'history-by-day', encoding: 'binary' });
  const newestFrom = (start: Key, market: string, ticker: string) => {
    for (const { key, value } of history.getRange({ start, end: [market, ticker], reverse: true, limit: 1 })) return toRow(key, value);
    return undefined;
  };
  return {
    engine: 'lmdb',
    write: (rows) =>
      root.transactionSync(() => {
        for (const r of rows) {
          const { market, ticker, snapshotDate, ...record } = r;
          history.putSync([market, ticker, snapshotDate], record);
          byDay.putSync([market, snapshotDate, ticker], EMPTY);
        }
      }),
    asOf: (market, ticker, date) => newestFrom([market, ticker, date], market, ticker),
    current: (market, ticker) => newestFrom([market, ticker, HIGH], market, ticker),
    history: (market, ticker) => {
      const rows: BenchRow[] = [];
      for (const { key, value } of history.getRange({ start: [market, ticker], end: [market, ticker, HIGH] })) rows.push(toRow(key, value));
      return rows;
    },
    marketOn: (market, date) => {
      const rows: BenchRow[] = [];
      for (const { key } of byDay.getRange({ start: [market, date], end: [market, date, HIGH] })) {
        const value = history.get([market, key[2], date]);
        if (value !== undefined) rows.push(toRow([market, key[2], date], value));
      }
      return rows;
    },
    close: () => void root.close(),
  };
}
