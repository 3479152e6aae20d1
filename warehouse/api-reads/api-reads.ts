import { existsSync } from 'node:fs';
import path from 'node:path';
import { stat } from 'node:fs/promises';
import { isRemovedFileError, lakeFile, SnapshotFileSet } from './api-reads-files.ts';
import { loadCheckpoint, saveCheckpoint } from './api-reads-checkpoint.ts';
import { ConnectionPool, loadListings } from './api-reads-lake.ts';
import { scanTableFiles } from '../lake-files.ts';
import { CurrentLoader } from './api-reads-loader.ts';
import { PointReadQueue, type PointReadLimits, type RowKey } from './api-reads-queue.ts';
import { ResultSidecars, type SidecarWant } from './api-reads-results.ts';
import type { SidecarRow } from './api-reads-sidecar-row.ts';
import type { PrerenderOption } from './api-reads-sidecar-build.ts';
import { storedResultBytes, type StoredResult } from './api-reads-stored-result.ts';
import { dayNumber } from '../../engine/dates.ts';
import { CurrentStore, dayString, packStatuses } from './api-reads-store.ts';
import { fundHoldingsDir, fundHoldingsSql, snapshotPartitionDir } from './api-reads-sql.ts';
import type { AsOfLookup, FundHoldings, Listing, VerdictRow } from './api-reads-types.ts';
import type { RefreshedScreen } from '../snapshot-schema.ts';
import { UniverseIndex } from './api-reads-universe.ts';
import { UniverseBuilder } from './api-reads-universe-builder.ts';
import { LakeJournalReader, type LakeChange } from '../lake-journal.ts';
import { copyIfNotHeld, syncServingFromLake, type ServingSyncResult } from '../serving-feed.ts';
import { openServingStore, servingTargetOf } from '../../serving/open-serving-store.ts';
import type { ServingRow, ServingStore } from '../../serving/serving-types.ts';
import { lakeRoot } from '../lake-paths.ts';
import { SNAPSHOT_FRAMEWORKS, SNAPSHOT_RATIOS } from '../lake-schemas.ts';
import { MethodologyTexts } from '../methodology-texts-lake.ts';
import { eraOf, snapshotRatiosOf } from '../snapshot-schema.ts';
import { readSql } from '../sql.ts';

export interface ApiReadsOptions {
  dataDir: string;
  /**
   * How often the lake's change journal is looked at (ms): one `stat`, and a read of what was
   * appended since, never a scan of the lake's files. 0 = only on `sync()`. Default 500.
   */
  followIntervalMs?: number;
  onError?: (error: unknown) => void;
  /**
   * Point-read sidecars of current results (docs/serving.md, "Reads under load"); default on, under
   * `DATA_DIR/api-cache/results`. Off, every result is read from the Parquet files through the queue.
   */
  sidecars?: boolean | { dir: string };
  /**
   * The module that renders each current row's default report into its sidecar (docs/serving.md,
   * "Pre-rendered reports"); none by default.
   */
  prerenderReports?: PrerenderOption;
  /** Limits of the reads of `result_json` from the Parquet files (the fallback path) and of sidecar reads. */
  pointReads?: PointReadLimits & { sidecarConcurrency?: number };
  /** Memory limit of the reads' DuckDB instance (MiB; default 384). */
  memoryLimitMiB?: number;
  /**
   * Save the current verdicts under `DATA_DIR/api-cache/current` after start and on close, and
   * start from them or from the lake's copy, whichever is further (default true): a start then
   * reads only the files published since. `'lake'` (the maintenance run): start the same way,
   * and always save the lake's copy (`DATA_DIR/lake/_current`) once started, never the API's.
   */
  checkpoint?: boolean | 'lake';
  /**
   * The serving store older snapshots are read from (docs/serving.md, "The serving store"); by
   * default the one the configuration places for `dataDir`, opened here and closed with the reads.
   */
  serving?: ServingStore;
  /** Hears how far the start's copy of lake files the store does not hold has got. */
  onServingProgress?: (done: number, total: number, rows: number) => void;
}

/** Figures of what the API has loaded. */
export interface ApiReadsStats {
  /** Tickers with a current snapshot in memory (history stays in the lake). */
  snapshots: number;
  listings: number;
  snapshotFiles: number;
  /** Full scans of the lake's folders: one at start, another only when the change journal was replaced or torn. */
  lakeScans: number;
  /** Rebuilds of the universe index in a worker thread (listings republished while serving). */
  universeRebuilds: number;
  /** Rebuilds of every current row from all files: a scan found files gone that held current rows (removed by hand). */
  currentRebuilds: number;
  /** Snapshot files whose rows were read into memory, at start and when announced since. */
  snapshotFilesLoaded: number;
  /** What the start began from: the API's saved verdicts, the lake's (saved by maintenance), or every file of the lake. */
  startedFrom: 'api-checkpoint' | 'lake-checkpoint' | 'lake-files' | null;
  /** Byte offset of the change journal read so far: the lake generation the reads have seen. */
  generation: number;
  /** Reads of older snapshots (as_of, a day's verdicts, a history) from the serving store. */
  historyReads: number;
  /** Snapshot files whose current rows are readable from a point-read sidecar. */
  sidecarFiles: number;
  /** Queries of `result_json` run over the Parquet files (the fallback path), each for every waiting row of one file. */
  resultQueries: number;
  /** What the start's copy of lake files into the serving store did (null before the start). */
  servingSync: ServingSyncResult | null;
  /** Rows copied into the serving store since start from announced files it did not hold. */
  servingCopies: number;
  lastSyncAt: string | null;
}

/**
 * The API's view of the warehouse (docs/serving.md, "How the API follows the lake"): each ticker's
 * current verdict and the universe held in memory; older snapshots for as_of from the history
 * index on disk (`api-reads-history-index.ts`); other history, `result_json` and fund holdings
 * read on demand from the lake with DuckDB. New files are learned from the lake's change
 * journal, only the new ones are read. Create with `openApiReads`, then `close()`.
 */
export class ApiReads {
  private store = new CurrentStore();
  private universe = new UniverseIndex([]);
  private readonly snapshotFiles = new SnapshotFileSet();
  private listingFiles = new Map<string, string>();
  private readonly known = new Map<string, string>();
  private readonly journal: LakeJournalReader;
  /** Rows handed out from the serving store: their stored result is read there too. */
  private readonly fromServing = new WeakSet<VerdictRow>();
  private servingStore: ServingStore | null = null;
  private servingSync: ServingSyncResult | null = null;
  private syncing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastSyncAt: string | null = null;
  private lakeScans = 0;
  private sidecarsPlanned = false;
  private snapshotFilesLoaded = 0;
  private historyReads = 0;
  /** Rows copied into the serving store from files the journal announced that it did not hold. */
  private servingCopies = 0;
  private currentRebuilds = 0;
  private startedFrom: ApiReadsStats['startedFrom'] = null;
  private universeRebuilds = 0;
  /** The checkpoint save the start began (after ready). */
  private startSave: Promise<void> = Promise.resolve();

  private readonly queue: PointReadQueue;
  private readonly loader = new CurrentLoader();
  private readonly universeBuilder = new UniverseBuilder();
  /** Set once the start is done: from then on the universe is rebuilt in a worker thread, not on the event loop. */
  private following = false;
  private readonly sidecars: ResultSidecars | null;
  /** The methodology texts stored results reference (docs/warehouse.md, "Methodology texts"). */
  private readonly texts: MethodologyTexts;

  constructor(
    private readonly pool: ConnectionPool,
    private readonly options: ApiReadsOptions,
  ) {
    this.journal = new LakeJournalReader(options.dataDir);
    const limits = options.pointReads ?? {};
    this.texts = new MethodologyTexts(options.dataDir, (work) => pool.use(work));
    this.queue = new PointReadQueue(pool, limits);
    const sidecars = options.sidecars ?? true;
    this.sidecars =
      sidecars === false
        ? null
        : new ResultSidecars({
            dataDir: options.dataDir,
            dir: sidecars === true ? path.join(options.dataDir, 'api-cache', 'results') : sidecars.dir,
            ...(limits.sidecarConcurrency === undefined ? {} : { concurrency: limits.sidecarConcurrency }),
            ...(limits.maxQueued === undefined ? {} : { maxQueued: limits.maxQueued }),
            ...(limits.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: limits.retryAfterSeconds }),
            ...(options.onError ? { onError: options.onError } : {}),
            ...(options.prerenderReports === undefined ? {} : { prerender: options.prerenderReports }),
          });
  }

  private get serving(): ServingStore {
    if (this.servingStore === null) throw new Error('the API reads are not started');
    return this.servingStore;
  }

  /** Resolves when the point-read sidecars of the current rows are built (reads work before, through the queue). */
  async whenSidecarsBuilt(): Promise<void> {
    await this.sidecars?.whenBuilt();
  }

  /** Reads the change journal and loads what it announces; concurrent calls share one read. */
  sync(): Promise<void> {
    this.syncing ??= this.followJournal().finally(() => {
      this.syncing = null;
    });
    return this.syncing;
  }

  /** Scans the lake's folders in full and loads every file not yet known (at start; after a replaced journal). */
  rescan(): Promise<void> {
    const run = async () => {
      if (this.syncing) await this.syncing.catch(() => undefined);
      await this.scanAll();
    };
    this.syncing = run().finally(() => {
      this.syncing = null;
    });
    return this.syncing;
  }

  /**
   * First load: the saved checkpoint if there is one, the journal since it, then one scan of the
   * lake's folders for anything not announced; saves a new checkpoint when something was read.
   */
  async start(): Promise<void> {
    this.servingStore = this.options.serving ?? (await openServingStore(servingTargetOf(this.options.dataDir)));
    const checkpoint = this.options.checkpoint === false ? null : await loadCheckpoint(this.options.dataDir);
    this.startedFrom = checkpoint ? `${checkpoint.kind}-checkpoint` : 'lake-files';
    // Without saved verdicts every file is read: the load thread starts (tsx, DuckDB) while the folders are listed.
    if (!checkpoint) this.loader.warm();
    if (checkpoint) {
      this.store = checkpoint.store;
      for (const [file, signature] of checkpoint.files) this.snapshotFiles.set(file, signature);
      this.journal.resumeAt(checkpoint.generation, checkpoint.journalIdentity);
      await this.sync();
    }
    const loaded = this.snapshotFilesLoaded;
    // A journal replaced since the checkpoint (trimmed) already made `sync` scan the folders. Never skip this scan:
    // it is why a saved copy (the API's or the lake's) is only a starting point and never serves an older verdict.
    if (this.lakeScans === 0) await this.rescan();
    // A load thread that read every file goes with its memory; a fresh one waits for the first publish (its start takes seconds on a busy machine).
    if (!checkpoint) await this.loader.close();
    this.loader.warm();
    // Saved after ready (close waits for it): writing and syncing the file need not delay the first request.
    const lakeCopy = this.options.checkpoint === 'lake';
    if (lakeCopy || (this.options.checkpoint !== false && (!checkpoint || this.snapshotFilesLoaded > 0 || loaded > 0)))
      this.startSave = this.saveCheckpoint();
    // Lake files the store does not hold (an upgrade, a store on a new engine, files written by hand).
    this.servingSync = await syncServingFromLake(this.options.dataDir, this.serving, this.options.onServingProgress);
    this.following = true;
  }

  /** Saves the current verdicts and what they were read from (errors go to `onError`: a checkpoint is an optimisation). */
  async saveCheckpoint(): Promise<void> {
    try {
      await saveCheckpoint(
        this.options.dataDir,
        {
          store: this.store,
          files: [...this.snapshotFiles.entries()],
          generation: this.journal.generation,
          journalIdentity: this.journal.journalIdentity,
        },
        this.options.checkpoint === 'lake' ? 'lake' : 'api',
      );
    } catch (error) {
      this.options.onError?.(error);
    }
  }

  /** Starts following the change journal (unref'd: it never keeps the process alive). */
  startPolling(): void {
    const every = this.options.followIntervalMs ?? 500;
    if (every <= 0 || this.timer) return;
    this.timer = setInterval(() => {
      this.sync().catch((error: unknown) => this.options.onError?.(error));
    }, every);
    this.timer.unref();
  }

  /** The ticker's newest snapshot (a same-day re-screen supersedes the earlier one). */
  current(market: string, ticker: string): VerdictRow | undefined {
    const id = this.store.latest(market, ticker);
    return id === undefined ? undefined : this.store.decode(id, market, ticker);
  }

  /** A row of the serving store as the reads return it; its stored result is read there too. */
  private servedRow(row: ServingRow): VerdictRow {
    const out: VerdictRow = { ...row, era: eraOf(row.snapshotDate) };
    this.fromServing.add(out);
    return out;
  }

  /** Runs a lake read again after following the journal when compaction removed a file it listed. */
  private async withRemovedFileRetry<T>(read: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await read();
      } catch (error) {
        if (attempt >= 3 || !isRemovedFileError(error)) throw error;
        await this.sync();
      }
    }
  }

  /**
   * The newest snapshot dated on or before `date` (`YYYY-MM-DD`): the current one from memory,
   * an older one with one keyed read of the serving store.
   */
  async asOf(market: string, ticker: string, date: string): Promise<AsOfLookup> {
    const id = this.store.latest(market, ticker);
    if (id === undefined) return { found: false, firstSnapshotDate: null };
    const day = dayNumber(date);
    if (this.store.dayOf(id) <= day) return { found: true, row: this.store.decode(id, market, ticker) };
    const first = dayString(this.store.firstDay(market, ticker)!);
    if (date < first) return { found: false, firstSnapshotDate: first };
    this.historyReads += 1;
    const { row } = await this.serving.asOf(market, ticker, date);
    return row ? { found: true, row: this.servedRow(row) } : { found: false, firstSnapshotDate: first };
  }

  /** The newest snapshot dated exactly `date` (`YYYY-MM-DD`): a same-day re-screen supersedes the earlier one. */
  async newestOnDay(market: string, ticker: string, date: string): Promise<VerdictRow | undefined> {
    const id = this.store.latest(market, ticker);
    if (id === undefined) return undefined;
    const day = dayNumber(date);
    if (this.store.dayOf(id) === day) return this.store.decode(id, market, ticker);
    if (this.store.dayOf(id) < day || day < this.store.firstDay(market, ticker)!) return undefined;
    this.historyReads += 1;
    const row = await this.serving.onDay(market, ticker, date);
    return row ? this.servedRow(row) : undefined;
  }

  /**
   * Every snapshot of a ticker, the newest of each day, oldest first (empty when it has none):
   * one ordered read of the serving store. The current snapshot comes from memory, so a refresh
   * the API ran moments ago is included.
   */
  async tickerHistory(market: string, ticker: string): Promise<VerdictRow[]> {
    const id = this.store.latest(market, ticker);
    if (id === undefined) return [];
    this.historyReads += 1;
    const rows = (await this.serving.history(market, ticker)).map((row) => this.servedRow(row));
    const current = this.store.decode(id, market, ticker);
    const newest = rows.at(-1);
    if (!newest || newest.snapshotDate < current.snapshotDate) rows.push(current);
    else if (newest.snapshotDate === current.snapshotDate && newest.screenedAt <= current.screenedAt) rows[rows.length - 1] = current;
    return rows;
  }

  /** Current verdict of every ticker of a market, or each ticker's snapshot of one day (newest of that day, from the serving store). */
  async verdicts(market: string, date: string | null): Promise<VerdictRow[]> {
    const tickers = [...this.store.tickers(market)].sort();
    const current = tickers.map((ticker) => this.store.decode(this.store.latest(market, ticker)!, market, ticker));
    if (date === null) return current;
    this.historyReads += 1;
    const stored = await this.serving.marketOn(market, date);
    // A refresh the API ran moments ago is in memory first.
    const byTicker = new Map(stored.map((row) => [row.ticker, this.servedRow(row)]));
    for (const row of current) {
      const seen = byTicker.get(row.ticker);
      if (row.snapshotDate === date && (!seen || seen.screenedAt < row.screenedAt)) byTicker.set(row.ticker, row);
    }
    return [...byTicker.values()].sort((a, b) => (a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : 0));
  }

  listing(market: string, ticker: string): Listing | undefined {
    return this.universe.get(market, ticker);
  }

  /** Ticker-prefix and name matches, case- and accent-insensitive, best first. */
  search(query: string, market: string | null, limit: number): Listing[] {
    return this.universe.search(query, market, limit);
  }

  /** Every listing (or one market's), in (market, ticker) order. */
  listings(market: string | null = null): readonly Listing[] {
    return this.universe.listingsOf(market);
  }

  /** Listings per market (stocks and funds). */
  listingCounts(): ReadonlyMap<string, number> {
    return this.universe.counts;
  }

  /** The engine's full result of a snapshot, as stored (JSON text). */
  async resultJson(row: VerdictRow): Promise<string> {
    return (await this.resultJsons([row]))[0]!;
  }

  /** As `resultBytes`, decoded to JSON text. */
  async resultJsons(rows: readonly VerdictRow[]): Promise<string[]> {
    return (await this.resultBytes(rows)).map((bytes) => bytes.toString('utf8'));
  }

  /** As `storedResults`, each as UTF-8 JSON. */
  async resultBytes(rows: readonly VerdictRow[]): Promise<Buffer[]> {
    return (await this.storedResults(rows)).map(storedResultBytes);
  }

  /**
   * The stored results of many snapshots, in order: each from memory (a refresh), a point-read
   * sidecar (still deflated: a report inflates, decodes and renders it in a render thread), or
   * else one bounded query per Parquet file for all rows it holds. Throws `ReadsSaturatedError`
   * when the reads are full.
   */
  async storedResults(rows: readonly VerdictRow[]): Promise<StoredResult[]> {
    return this.withRemovedFileRetry(() => this.readResults(rows));
  }

  /**
   * Where a snapshot's stored result sits in a point-read sidecar, for a render thread to read it
   * there (docs/serving.md, "Reads under load"); null when it is held in memory (a refresh) or no
   * sidecar holds it (then `storedResults`).
   */
  sidecarRow(row: VerdictRow): SidecarRow | null {
    if (this.known.has(knownKey(row))) return null;
    const file = this.fileOf(row);
    return file === null ? null : (this.sidecars?.locate(file, rowKeyOf(row)) ?? null);
  }

  /**
   * The snapshot's default report as its sidecar holds it pre-rendered (UTF-8 JSON), or null
   * when none does for this company name (the listing's, which a report names; then render it).
   */
  prerenderedReport(row: VerdictRow, companyName: string): Buffer | null {
    if (this.known.has(knownKey(row))) return null;
    const file = this.fileOf(row);
    return file === null || !this.sidecars ? null : this.sidecars.readReport(file, rowKeyOf(row), companyName);
  }

  private async readResults(rows: readonly VerdictRow[]): Promise<StoredResult[]> {
    const out = new Array<StoredResult | null>(rows.length).fill(null);
    const byFile = new Map<string, number[]>();
    const pending: Array<Promise<void>> = [];
    const served: number[] = [];
    rows.forEach((row, i) => {
      const remembered = this.known.get(knownKey(row));
      if (remembered !== undefined) {
        out[i] = Buffer.from(remembered);
        return;
      }
      if (this.fromServing.has(row)) {
        served.push(i);
        return;
      }
      const file = this.fileOf(row);
      const key = rowKeyOf(row);
      if (file !== null && this.sidecars?.has(file, key)) {
        pending.push(this.sidecars.read(file, key).then((json) => void (out[i] = json)));
        return;
      }
      // The file was compacted away or the row is known only in memory: read the whole partition.
      const target = file !== null && existsSync(file) ? file : this.partitionGlob(row);
      if (target === null) return;
      const list = byFile.get(target);
      if (list) list.push(i);
      else byFile.set(target, [i]);
    });
    if (served.length > 0) pending.push(this.readServedResults(rows, served, out));
    for (const [file, indexes] of byFile) {
      pending.push(
        this.queue
          .readMany(
            file,
            indexes.map((i) => rowKeyOf(rows[i]!)),
          )
          // Rows read from Parquet reference their methodology texts (sidecars hold them expanded).
          .then(async (found) => {
            const expanded = await this.texts.expandAll(found.map((json) => json ?? ''));
            indexes.forEach((i, n) => (out[i] = found[n] === null ? null : Buffer.from(expanded[n]!)));
          }),
      );
    }
    await Promise.all(pending);
    return out.map((json, i) => {
      if (json !== null) return json;
      const row = rows[i]!;
      throw new Error(`result_json of ${row.market}/${row.ticker} ${row.snapshotDate} ${row.screenedAt} not found in the lake`);
    });
  }

  /** Stored results of rows the serving store handed out, read there (methodology texts expanded as from the lake). */
  private async readServedResults(rows: readonly VerdictRow[], indexes: readonly number[], out: Array<StoredResult | null>): Promise<void> {
    const found = await this.serving.results(indexes.map((i) => rows[i]!));
    const expanded = await this.texts.expandAll(found.map((json) => json?.toString('utf8') ?? ''));
    indexes.forEach((i, n) => (out[i] = found[n] === null ? null : Buffer.from(expanded[n]!)));
  }

  /** A fund's latest holdings, heaviest first, at most `limit`; undefined when the fund has none. */
  async fundHoldings(fundMarket: string, fundTicker: string, limit: number): Promise<FundHoldings | undefined> {
    if (!existsSync(fundHoldingsDir(this.options.dataDir, fundMarket))) return undefined;
    const rows = await this.pool.use(async (c) =>
      (await readSql(c, fundHoldingsSql(this.options.dataDir, fundMarket, fundTicker, limit))).getRowsJS(),
    );
    if (rows.length === 0) return undefined;
    return {
      fundMarket,
      fundTicker,
      asOf: String(rows[0]![0]),
      totalHoldings: Number(rows[0]![4]),
      holdings: rows.map(([, market, ticker, weight]) => ({ market: String(market), ticker: String(ticker), weight: Number(weight) })),
    };
  }

  /** Records a snapshot the API just published through a refresh, so reads see it before the next scan. */
  remember(snapshot: RefreshedScreen): VerdictRow {
    const row = verdictRowOf(snapshot);
    if (this.known.size >= 1_000) this.known.delete(this.known.keys().next().value!);
    this.known.set(knownKey(row), JSON.stringify(snapshot.result));
    this.store.add({
      market: row.market,
      ticker: row.ticker,
      day: dayNumber(row.snapshotDate),
      screenedAtMs: Date.parse(`${row.screenedAt}Z`),
      statusBits: packStatuses(row.statuses),
      ratios: SNAPSHOT_RATIOS.map((r) => row.ratios[r]),
      source: row.source,
      dataSource: row.dataSource,
      synthetic: row.synthetic,
      file: null,
    });
    return row;
  }

  stats(): ApiReadsStats {
    return {
      snapshots: this.store.size,
      listings: this.universe.size,
      snapshotFiles: this.snapshotFiles.size,
      lakeScans: this.lakeScans,
      snapshotFilesLoaded: this.snapshotFilesLoaded,
      currentRebuilds: this.currentRebuilds,
      universeRebuilds: this.universeRebuilds,
      startedFrom: this.startedFrom,
      generation: this.journal.generation,
      historyReads: this.historyReads,
      sidecarFiles: this.sidecars?.size ?? 0,
      resultQueries: this.queue.queriesRun,
      servingSync: this.servingSync,
      servingCopies: this.servingCopies,
      lastSyncAt: this.lastSyncAt,
    };
  }

  /** Stops following the lake and the lake queries at once; the promise settles when the checkpoint is saved and a running sidecar build has finished. */
  close(): Promise<void> {
    // Reads that followed the lake (a running API) save what they learned since start.
    const following = this.timer !== null;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.pool.close();
    const saved = this.startSave.then(() => (this.options.checkpoint === false || !following ? undefined : this.saveCheckpoint()));
    return Promise.all([
      saved.then(() => this.loader.close()),
      this.sidecars?.close(),
      this.options.serving ? undefined : this.servingStore?.close(),
      this.universeBuilder.close(),
    ]).then(() => undefined);
  }

  /** Parquet file holding the row's `result_json` (null when known only in memory). */
  private fileOf(row: VerdictRow): string | null {
    const id = this.store.latest(row.market, row.ticker);
    if (
      id === undefined ||
      this.store.dayOf(id) !== dayNumber(row.snapshotDate) ||
      this.store.screenedAtMsOf(id) !== Date.parse(`${row.screenedAt}Z`)
    )
      return null;
    return this.store.fileOf(id);
  }

  private partitionGlob(row: VerdictRow): string | null {
    const dir = snapshotPartitionDir(this.options.dataDir, row.market, row.snapshotDate.slice(0, 4));
    return existsSync(dir) ? `${dir}/*.parquet` : null;
  }

  /** Each file holding current rows, with their tickers: what the point-read sidecars cover. */
  private currentRowsByFile(): Map<string, SidecarWant> {
    const wants = new Map<string, SidecarWant>();
    for (const [file, rows] of this.store.rowsByFile()) {
      const signature = this.snapshotFiles.signatureOf(file);
      if (signature !== undefined) wants.set(file, { signature, tickers: rows.map(([, ticker]) => ticker) });
    }
    return wants;
  }

  /** Lists every file of the lake's folders and loads those not yet known or changed since. */
  private async scanAll(): Promise<void> {
    await this.journal.skipToEnd();
    const [snapshots, listings] = await Promise.all([
      scanTableFiles(this.options.dataDir, 'snapshots'),
      scanTableFiles(this.options.dataDir, 'listings'),
    ]);
    this.lakeScans += 1;
    if (!sameFiles(listings, this.listingFiles)) await this.reloadUniverse(listings);
    const fresh = [...snapshots].filter(([file, signature]) => this.snapshotFiles.signatureOf(file) !== signature);
    // A compacted file holding a current row re-points that row to itself when read.
    await this.loadSnapshotFiles(fresh);
    const vanished = new Set([...this.snapshotFiles.entries()].map(([file]) => file).filter((file) => !snapshots.has(file)));
    if (vanished.size === 0) return;
    for (const file of vanished) this.snapshotFiles.delete(file);
    if (this.currentRowsIn(vanished)) {
      // Files removed without a journal entry (by hand) held current rows: rebuild aside, then swap.
      const store = new CurrentStore();
      await this.loadInto(store, [...snapshots.keys()]);
      this.store = store;
      this.currentRebuilds += 1;
    }
    this.afterSnapshotChange();
  }

  /** Whether any ticker's current row is read from one of `files`. */
  private currentRowsIn(files: ReadonlySet<string>): boolean {
    for (const file of this.store.rowsByFile().keys()) if (files.has(file)) return true;
    return false;
  }

  /** Applies what the journal announced since the last read: new files are read, compacted ones swapped. */
  private async followJournal(): Promise<void> {
    const read = await this.journal.read();
    if (read.kind === 'rescan') {
      await this.scanAll();
      return;
    }
    const root = lakeRoot(this.options.dataDir);
    let listingsChanged = false;
    const fresh = new Map<string, string>();
    let moved = false;
    for (const change of read.changes) {
      if (change.table === 'listings') listingsChanged = true;
      if (change.table !== 'snapshots') continue;
      if (change.op === 'replace') {
        moved = (await this.applyReplace(change, root)) || moved;
        continue;
      }
      for (const relative of change.files) {
        const file = lakeFile(root, relative);
        const signature = await signatureOf(file);
        if (signature !== null && this.snapshotFiles.signatureOf(file) !== signature) fresh.set(file, signature);
      }
    }
    // A file the store does not hold yet (published to another engine's store) is copied before it is served.
    for (const [file, signature] of fresh)
      this.servingCopies += await copyIfNotHeld((work) => this.pool.use(work), this.options.dataDir, file, signature, this.serving);
    // Side by side: new listings do not delay new verdicts.
    await Promise.all([
      listingsChanged ? scanTableFiles(this.options.dataDir, 'listings').then((files) => this.reloadUniverse(files)) : null,
      this.loadSnapshotFiles([...fresh]),
    ]);
    if (moved && fresh.size === 0) this.afterSnapshotChange();
  }

  /** Compaction merged files into one holding the same rows: swap the names in one step, read nothing. */
  private async applyReplace(change: Extract<LakeChange, { op: 'replace' }>, root: string): Promise<boolean> {
    const added = change.added.map((relative) => lakeFile(root, relative));
    const target = added[0];
    if (target === undefined) return false;
    const signatures = await Promise.all(added.map(signatureOf));
    const removed = change.removed.map((relative) => lakeFile(root, relative));
    // Swapped in one synchronous step: no read sees some rows moved and others not.
    this.store.moveFiles(removed, target);
    for (const file of removed) this.snapshotFiles.delete(file);
    added.forEach((file, i) => this.snapshotFiles.set(file, signatures[i] ?? 'gone'));
    return true;
  }

  private async loadSnapshotFiles(files: Array<[string, string]>): Promise<void> {
    const changed = await this.loadInto(
      this.store,
      files.map(([file]) => file),
    );
    if (files.length > 0) {
      for (const [file, signature] of files) this.snapshotFiles.set(file, signature);
      this.snapshotFilesLoaded += files.length;
    }
    // Backfill files of past dates change history only: the sidecar plan (a pass over every ticker) stays.
    if (changed > 0 || !this.sidecarsPlanned) this.afterSnapshotChange();
    this.lastSyncAt = new Date().toISOString();
  }

  /** Offers the files' rows to `store` (read in a worker thread); returns how many current rows changed. */
  private loadInto(store: CurrentStore, files: string[]): Promise<number> {
    return this.loader.load(files, store);
  }

  private afterSnapshotChange(): void {
    this.sidecars?.plan(this.currentRowsByFile());
    this.sidecarsPlanned = true;
  }

  /** Before the reads serve (the start), on the event loop (nothing waits on it); after, in a worker thread, swapped in one step. */
  private async reloadUniverse(listings: Map<string, string>): Promise<void> {
    if (listings.size === 0) this.universe = new UniverseIndex([]);
    else if (this.following) {
      this.universe = await this.universeBuilder.build(this.options.dataDir);
      this.universeRebuilds += 1;
    } else this.universe = new UniverseIndex(await loadListings(this.pool, this.options.dataDir));
    this.listingFiles = listings;
  }
}

/** A file's change signature (mtime and size), or null when it is gone. */
async function signatureOf(file: string): Promise<string | null> {
  try {
    const info = await stat(file);
    return `${info.mtimeMs}:${info.size}`;
  } catch {
    return null;
  }
}

/** The snapshot columns of an engine result, mapped as the pipelines write them (market-cap ratios on the 24-month average). */
function verdictRowOf(s: RefreshedScreen): VerdictRow {
  const { result } = s;
  const ratios = snapshotRatiosOf(result);
  const statuses = Object.fromEntries(
    SNAPSHOT_FRAMEWORKS.map((id) => [id, result.frameworks[id]?.status ?? 'insufficient_data']),
  ) as VerdictRow['statuses'];
  return {
    market: s.market,
    ticker: s.ticker,
    snapshotDate: s.snapshotDate,
    screenedAt: s.screenedAt,
    source: s.source,
    era: eraOf(s.snapshotDate),
    statuses,
    ratios,
    synthetic: result.provenance.synthetic,
    dataSource: result.provenance.data_source,
  };
}

function rowKeyOf(row: VerdictRow): RowKey {
  return { ticker: row.ticker, day: dayNumber(row.snapshotDate), atMs: Date.parse(`${row.screenedAt}Z`) };
}

function knownKey(row: VerdictRow): string {
  return `${row.market}/${row.ticker}|${row.snapshotDate}|${row.screenedAt}`;
}

function sameFiles(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  return a.size === b.size && [...a].every(([file, signature]) => b.get(file) === signature);
}

/** Opens the API's reads over `dataDir`, loads the current verdicts once and starts following the change journal. */
export async function openApiReads(options: ApiReadsOptions): Promise<ApiReads> {
  const reads = new ApiReads(
    await ConnectionPool.open(options.memoryLimitMiB === undefined ? {} : { memoryLimitMiB: options.memoryLimitMiB }),
    options,
  );
  try {
    await reads.start();
  } catch (error) {
    void reads.close();
    throw error;
  }
  reads.startPolling();
  return reads;
}
