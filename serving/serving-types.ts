import type { SnapshotRatio } from '../common/snapshot-ratios.ts';
import type { FrameworkId } from '../engine/frameworks.ts';
import type { VerdictStatus } from '../engine/result-types.ts';

/**
 * What the serving store holds per snapshot (docs/serving.md, "The serving store"): the newest
 * screen of each (market, ticker, day), its statuses and ratio columns, and its stored result.
 * Dates are `YYYY-MM-DD`; `screenedAt` is an ISO 8601 timestamp in UTC without zone.
 */
export interface ServingRow {
  market: string;
  ticker: string;
  snapshotDate: string;
  screenedAt: string;
  /** Which run wrote it: `nightly`, `backfill`, `refresh`. */
  source: string;
  statuses: Record<FrameworkId, VerdictStatus>;
  /** Ratio columns (0..1, may exceed 1) and market caps (listing currency). */
  ratios: Record<SnapshotRatio, number | null>;
  synthetic: boolean;
  dataSource: string;
}

/** One snapshot to write: the row and its stored result JSON (UTF-8, as the lake's `result_json` holds it). */
export interface ServingSnapshot extends ServingRow {
  result: Uint8Array;
  /**
   * `result` is already in its stored form: compressed (`compressResult`) as the row was made, or a
   * reference into a `ResultBlock` written with it (`ResultGrouper`).
   */
  resultStored?: boolean;
}

/**
 * A ticker's consecutive results of one screen in one year, compressed together
 * (`compressResultBlock`): each repeats most of the one before, so together they take a
 * fraction of the bytes and CPU of compressing each alone. Its rows hold references to it, and it is
 * keyed by what those rows share: market, ticker, `screenedAt` and the year of their days.
 */
export interface ResultBlock {
  market: string;
  ticker: string;
  screenedAt: string;
  year: string;
  data: Buffer;
}

/** The rows of a published file as a writer hands them to the store, with the blocks their results are in. */
export interface ServingBatch {
  snapshots: ServingSnapshot[];
  blocks: ResultBlock[];
  /** Default reports the writer rendered of some of `snapshots` (a nightly's): none otherwise. */
  reports?: StoredReport[];
}

export interface TickerKey {
  market: string;
  ticker: string;
}

export interface SnapshotKey extends TickerKey {
  snapshotDate: string;
}

/**
 * Where a render thread reads a stored result itself: the SQLite store's file and the snapshot.
 * A read that misses the page cache waits for the disk, and in a render thread it stops that
 * thread alone, not the event loop (docs/serving.md, "Rendering off the event loop").
 */
export interface StoredResultKey extends SnapshotKey {
  storePath: string;
}

/** One screen of a ticker: its day and when it was screened (a same-day re-screen is another). */
export interface SnapshotStamp extends SnapshotKey {
  screenedAt: string;
}

/** A lake file whose rows the store holds: its path relative to the lake root and its change signature (size and mtime). */
export interface HeldFile {
  path: string;
  signature: string;
}

/** A ticker's current row as the change feed hands it out: its first day too. */
export interface CurrentRow extends ServingRow {
  firstSnapshotDate: string;
}

/**
 * The current rows written after a sequence number, the number to ask from next time, the
 * store's current-rows epoch (when it differs from the one a reader holds, current rows were
 * rebuilt, some may be gone, and the reader reads them all again) and its listings version
 * (when it moved, listings were written or released: the reader rebuilds its universe).
 */
export interface CurrentChanges {
  rows: CurrentRow[];
  seq: number;
  epoch: string;
  listingsVersion: string;
}

/** One listing of the universe. */
export interface ServingListing {
  market: string;
  ticker: string;
  name: string;
  /** ISO 10383 MIC of the listing exchange. */
  exchange: string;
  kind: string;
  currency: string;
}

/** A listing as a lake file holds it: which source it came from decides between two files' rows. */
export interface ServingListingRow extends ServingListing {
  dataSource: string;
}

/** One holding of a fund's report. */
export interface ServingHoldingRow {
  fundMarket: string;
  fundTicker: string;
  /** Report date, `YYYY-MM-DD`. */
  asOf: string;
  market: string;
  ticker: string;
  /** 0..1 of the fund. */
  weight: number;
}

/** A fund's holdings on its latest report date, heaviest first; weights in 0..1 of the fund. */
export interface FundHoldings {
  fundMarket: string;
  fundTicker: string;
  asOf: string;
  /** Number of holdings in the report (before any top-N cut). */
  totalHoldings: number;
  holdings: Array<{ market: string; ticker: string; weight: number }>;
}

/** The rows of one lake file of a table the store holds besides snapshots. */
export type LakeFileRows =
  | { table: 'methodology_texts'; rows: ReadonlyArray<{ textId: string; text: string }> }
  | { table: 'listings'; rows: readonly ServingListingRow[] }
  | { table: 'fund_holdings'; rows: readonly ServingHoldingRow[] };

/** A ticker's pre-rendered default report: of which snapshot, naming which company, made by which rendering code. */
/** What a stored report is of, without the report: enough to tell whether it can be served. */
export interface StoredReportStamp {
  market: string;
  ticker: string;
  snapshotDate: string;
  screenedAt: string;
  companyName: string;
  version: string;
}

export interface StoredReport extends StoredReportStamp {
  /** The report's UTF-8 JSON, compressed as a stored result is (`compressResult`). */
  report: Buffer;
}

/** The newest snapshot on or before a day, and the ticker's first day (null when it has none). */
export interface ServingLookup {
  row: ServingRow | undefined;
  firstSnapshotDate: string | null;
}

/**
 * The serving store: one interface, two engines (SQLite in `DATA_DIR/serving.db`, PostgreSQL at
 * `DATABASE_URL`). Every read is a keyed read; writes are idempotent upserts, so a retried
 * publish leaves one row per (market, ticker, day).
 */
export interface ServingStore {
  readonly engine: 'sqlite' | 'postgres';
  /** Where the store lives, for messages (never a password). */
  readonly location: string;
  /**
   * Upserts snapshots in one transaction: a day's newer screen replaces the older, never the
   * reverse. With `file`, records in the same transaction that the store holds that lake file's rows;
   * `blocks` are the result blocks the snapshots' references point into, written first.
   * `reports` are default reports of these snapshots the writer rendered (`writeReports`' rule).
   */
  write(
    snapshots: readonly ServingSnapshot[],
    file?: HeldFile,
    blocks?: readonly ResultBlock[],
    reports?: readonly StoredReport[],
  ): Promise<void>;
  /** The lake files whose rows the store holds, by path (relative to the lake root). */
  heldFiles(): Promise<Map<string, string>>;
  /** The signature the store holds one lake file at (undefined: it does not hold it). */
  heldSignature(path: string): Promise<string | undefined>;
  /**
   * Records files as held without writing rows (a compaction's merged file holds rows already
   * held); a released file's listings and fund holdings go with it.
   */
  holdFiles(files: readonly HeldFile[], released: readonly string[]): Promise<void>;
  /**
   * Replaces the rows a lake file of listings or fund holdings held with `content`'s (methodology
   * texts are only added: they are named by their content) and records the file as held, in one
   * transaction.
   */
  writeLakeFile(file: HeldFile, content: LakeFileRows): Promise<void>;
  /**
   * The ticker's pre-rendered default report when it is of this snapshot (its day and screen),
   * else undefined: a stale report's bytes are not read (after a nightly every report is stale
   * until the pre-renderer has caught up, and a request would read each for nothing).
   */
  report(snapshot: SnapshotStamp): Promise<StoredReport | undefined>;
  /** What the stored reports of these tickers are of (not the reports), in order; undefined where none is stored. */
  reportStamps(keys: readonly TickerKey[]): Promise<Array<StoredReportStamp | undefined>>;
  /** Stores pre-rendered reports; one of an older snapshot than the stored one is ignored. */
  writeReports(reports: readonly StoredReport[]): Promise<void>;
  /** Every methodology text, by id. */
  texts(): Promise<Map<string, string>>;
  /** One listing per (market, ticker), in (market, ticker) order. */
  listings(): Promise<ServingListing[]>;
  /** A fund's holdings on its latest report date, heaviest first, at most `limit`; undefined when it has none. */
  fundHoldings(fundMarket: string, fundTicker: string, limit: number): Promise<FundHoldings | undefined>;
  /** The ticker's newest snapshot. */
  current(market: string, ticker: string): Promise<ServingRow | undefined>;
  /**
   * Every current row written by a write numbered above `seq` (all of them for -1), the highest
   * number seen, the epoch and the listings version, read at once: what an API replica polls to
   * follow the publishes of every worker.
   */
  currentSince(seq: number): Promise<CurrentChanges>;
  /**
   * Forgets a market's snapshots of `from`..`to` (a lake partition whose files were removed by
   * hand; the caller copies the remaining files again, then calls `rebuildCurrent`), and the
   * result blocks of those years no remaining row points into.
   */
  forgetSnapshots(market: string, from: string, to: string): Promise<void>;
  /** Rebuilds the current rows of `markets` from their snapshots, under a new epoch. */
  rebuildCurrent(markets: readonly string[]): Promise<void>;
  /** The newest snapshot on or before `date`. */
  asOf(market: string, ticker: string, date: string): Promise<ServingLookup>;
  /** The snapshot of exactly `date`. */
  onDay(market: string, ticker: string, date: string): Promise<ServingRow | undefined>;
  /** Every snapshot of a ticker, oldest first. */
  history(market: string, ticker: string): Promise<ServingRow[]>;
  /** Every ticker's snapshot of one day in a market, in ticker order. */
  marketOn(market: string, date: string): Promise<ServingRow[]>;
  /** Stored results (UTF-8 JSON), in order; null where the store has no such snapshot. */
  results(keys: readonly SnapshotKey[]): Promise<Array<Buffer | null>>;
  /** A value the store keeps about itself (what a rebuild has copied so far). */
  meta(key: string): Promise<string | undefined>;
  setMeta(key: string, value: string): Promise<void>;
  close(): Promise<void>;
}
