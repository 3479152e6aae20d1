import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConnectionPool, loadListings, loadSnapshots, scanTableFiles } from './api-reads-lake.ts';
import { PointReadQueue, type PointReadLimits, type RowKey } from './api-reads-queue.ts';
import { ResultSidecars, type SidecarWant } from './api-reads-results.ts';
import { SnapshotStore, dayNumber, packStatuses } from './api-reads-store.ts';
import { fundHoldingsDir, fundHoldingsSql, snapshotPartitionDir } from './api-reads-sql.ts';
import type { AsOfLookup, FundHoldings, Listing, RefreshedSnapshot, VerdictRow } from './api-reads-types.ts';
import { UniverseIndex } from './api-reads-universe.ts';
import { SNAPSHOT_FRAMEWORKS, SNAPSHOT_RATIOS } from './lake-schemas.ts';
import { MethodologyTexts } from './methodology-texts-lake.ts';
import { eraOf, snapshotRatiosOf } from './snapshot-schema.ts';

export interface ApiReadsOptions {
  dataDir: string;
  /** How often the lake is scanned for newly published files (ms); 0 = only on `sync()`. Default 2000. */
  scanIntervalMs?: number;
  onError?: (error: unknown) => void;
  /**
   * Point-read sidecars of current results (docs/api.md, "Reads under load"); default on, under
   * `DATA_DIR/api-cache/results`. Off, every result is read from the Parquet files through the queue.
   */
  sidecars?: boolean | { dir: string };
  /** Limits of the reads of `result_json` from the Parquet files (the fallback path) and of sidecar reads. */
  pointReads?: PointReadLimits & { sidecarConcurrency?: number };
  /** Memory limit of the reads' DuckDB instance (MiB; default 384). */
  memoryLimitMiB?: number;
}

/** Figures of what the API has loaded. */
export interface ApiReadsStats {
  snapshots: number;
  listings: number;
  snapshotFiles: number;
  /** Snapshot files whose current rows are readable from a point-read sidecar. */
  sidecarFiles: number;
  /** Queries of `result_json` run over the Parquet files (the fallback path), each for every waiting row of one file. */
  resultQueries: number;
  lastSyncAt: string | null;
}

/**
 * The API's view of the warehouse: current verdicts, history and the universe held in memory
 * (rebuilt from the lake's Parquet files, refreshed when new files are published), `result_json`
 * and fund holdings read on demand with DuckDB. Create with `openApiReads`, then `close()`.
 */
export class ApiReads {
  private store = new SnapshotStore();
  private universe = new UniverseIndex([]);
  private snapshotFiles = new Map<string, string>();
  private listingFiles = new Map<string, string>();
  private readonly known = new Map<string, string>();
  private syncing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastSyncAt: string | null = null;

  private readonly queue: PointReadQueue;
  private readonly sidecars: ResultSidecars | null;
  /** The methodology texts stored results reference (docs/warehouse.md, "Methodology texts"). */
  private readonly texts: MethodologyTexts;

  constructor(
    private readonly pool: ConnectionPool,
    private readonly options: ApiReadsOptions,
  ) {
    const limits = options.pointReads ?? {};
    this.texts = new MethodologyTexts(options.dataDir, (work) => pool.use(work));
    this.queue = new PointReadQueue(pool, limits);
    const sidecars = options.sidecars ?? true;
    this.sidecars =
      sidecars === false
        ? null
        : new ResultSidecars({
            dir: sidecars === true ? path.join(options.dataDir, 'api-cache', 'results') : sidecars.dir,
            ...(limits.sidecarConcurrency === undefined ? {} : { concurrency: limits.sidecarConcurrency }),
            ...(limits.maxQueued === undefined ? {} : { maxQueued: limits.maxQueued }),
            ...(limits.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: limits.retryAfterSeconds }),
            ...(options.onError ? { onError: options.onError } : {}),
          });
  }

  /** Resolves when the point-read sidecars of the current rows are built (reads work before, through the queue). */
  async whenSidecarsBuilt(): Promise<void> {
    await this.sidecars?.whenBuilt();
  }

  /** Scans the lake and loads what changed; concurrent calls share one scan. */
  sync(): Promise<void> {
    this.syncing ??= this.syncOnce().finally(() => {
      this.syncing = null;
    });
    return this.syncing;
  }

  /** Starts the periodic scan (unref'd: it never keeps the process alive). */
  startPolling(): void {
    const every = this.options.scanIntervalMs ?? 2_000;
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

  /** The newest snapshot dated on or before `date` (`YYYY-MM-DD`). */
  asOf(market: string, ticker: string, date: string): AsOfLookup {
    const id = this.store.atOrBefore(market, ticker, dayNumber(date));
    if (id !== undefined) return { found: true, row: this.store.decode(id, market, ticker) };
    const first = this.store.firstDay(market, ticker);
    return { found: false, firstSnapshotDate: first === undefined ? null : new Date(first * 86_400_000).toISOString().slice(0, 10) };
  }

  /** The newest snapshot dated exactly `date` (`YYYY-MM-DD`): a same-day re-screen supersedes the earlier one. */
  newestOnDay(market: string, ticker: string, date: string): VerdictRow | undefined {
    const day = dayNumber(date);
    const id = this.store.atOrBefore(market, ticker, day);
    return id === undefined || this.store.dayOf(id) !== day ? undefined : this.store.decode(id, market, ticker);
  }

  /** Current verdict of every ticker of a market, or each ticker's snapshot of one day (newest of that day). */
  verdicts(market: string, date: string | null): VerdictRow[] {
    const rows: VerdictRow[] = [];
    const day = date === null ? null : dayNumber(date);
    for (const ticker of [...this.store.tickers(market)].sort()) {
      const id = day === null ? this.store.latest(market, ticker) : this.store.atOrBefore(market, ticker, day);
      if (id === undefined || (day !== null && this.store.dayOf(id) !== day)) continue;
      rows.push(this.store.decode(id, market, ticker));
    }
    return rows;
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

  /**
   * The stored results of many snapshots, in order: each from memory (a refresh), a point-read
   * sidecar, or else one bounded query per Parquet file for all rows it holds. Throws
   * `ReadsSaturatedError` when the reads are full.
   */
  async resultJsons(rows: readonly VerdictRow[]): Promise<string[]> {
    const out = new Array<string | null>(rows.length).fill(null);
    const byFile = new Map<string, number[]>();
    const pending: Array<Promise<void>> = [];
    rows.forEach((row, i) => {
      const remembered = this.known.get(knownKey(row));
      if (remembered !== undefined) {
        out[i] = remembered;
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
    for (const [file, indexes] of byFile) {
      pending.push(
        this.queue.readMany(file, indexes.map((i) => rowKeyOf(rows[i]!))).then((found) => {
          indexes.forEach((i, n) => (out[i] = found[n] ?? null));
        }),
      );
    }
    await Promise.all(pending);
    const found = out.map((json, i) => {
      if (json !== null) return json;
      const row = rows[i]!;
      throw new Error(`result_json of ${row.market}/${row.ticker} ${row.snapshotDate} ${row.screenedAt} not found in the lake`);
    });
    return this.texts.expandAll(found);
  }

  /** A fund's latest holdings, heaviest first, at most `limit`; undefined when the fund has none. */
  async fundHoldings(fundMarket: string, fundTicker: string, limit: number): Promise<FundHoldings | undefined> {
    if (!existsSync(fundHoldingsDir(this.options.dataDir, fundMarket))) return undefined;
    const rows = await this.pool.use(async (c) => (await c.runAndReadAll(fundHoldingsSql(this.options.dataDir, fundMarket), [fundTicker, limit])).getRowsJS());
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
  remember(snapshot: RefreshedSnapshot): VerdictRow {
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
      sidecarFiles: this.sidecars?.size ?? 0,
      resultQueries: this.queue.queriesRun,
      lastSyncAt: this.lastSyncAt,
    };
  }

  /** Stops the scan and the lake queries at once; the promise settles when a running sidecar build has finished. */
  close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.pool.close();
    return this.sidecars?.close() ?? Promise.resolve();
  }

  /** Parquet file holding the row's `result_json` (null when known only in memory). */
  private fileOf(row: VerdictRow): string | null {
    const id = this.store.atOrBefore(row.market, row.ticker, dayNumber(row.snapshotDate));
    return id === undefined ? null : this.store.fileOf(id);
  }

  private partitionGlob(row: VerdictRow): string | null {
    const dir = snapshotPartitionDir(this.options.dataDir, row.market, row.snapshotDate.slice(0, 4));
    return existsSync(dir) ? `${dir}/*.parquet` : null;
  }

  /** Each file holding current rows, with their tickers: what the point-read sidecars cover. */
  private currentRowsByFile(): Map<string, SidecarWant> {
    const wants = new Map<string, SidecarWant>();
    for (const market of this.store.markets()) {
      for (const ticker of this.store.tickers(market)) {
        const file = this.store.fileOf(this.store.latest(market, ticker)!);
        const signature = file === null ? undefined : this.snapshotFiles.get(file);
        if (file === null || signature === undefined) continue;
        let want = wants.get(file);
        if (!want) wants.set(file, (want = { signature, tickers: [] }));
        want.tickers.push(ticker);
      }
    }
    return wants;
  }

  private async syncOnce(): Promise<void> {
    const [snapshots, listings] = await Promise.all([
      scanTableFiles(this.options.dataDir, 'snapshots'),
      scanTableFiles(this.options.dataDir, 'listings'),
    ]);
    if (!sameFiles(listings, this.listingFiles)) {
      this.universe = new UniverseIndex(listings.size === 0 ? [] : await loadListings(this.pool, this.options.dataDir));
      this.listingFiles = listings;
    }
    const changed = [...this.snapshotFiles].some(([file, signature]) => snapshots.get(file) !== signature);
    if (changed) {
      // A file was replaced or removed (a retried chunk, compaction): rebuild, then swap.
      const store = new SnapshotStore();
      await loadSnapshots(this.pool, [...snapshots.keys()], store);
      this.store = store;
    } else {
      await loadSnapshots(this.pool, [...snapshots.keys()].filter((f) => !this.snapshotFiles.has(f)), this.store);
    }
    const filesChanged = !sameFiles(snapshots, this.snapshotFiles);
    this.snapshotFiles = snapshots;
    if (filesChanged) this.sidecars?.plan(this.currentRowsByFile());
    this.lastSyncAt = new Date().toISOString();
  }
}

/** The snapshot columns of an engine result, mapped as the pipelines write them (market-cap ratios on the 24-month average). */
function verdictRowOf(s: RefreshedSnapshot): VerdictRow {
  const { result } = s;
  const ratios = snapshotRatiosOf(result);
  const statuses = Object.fromEntries(SNAPSHOT_FRAMEWORKS.map((id) => [id, result.frameworks[id]?.status ?? 'insufficient_data'])) as VerdictRow['statuses'];
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

/** Opens the API's reads over `dataDir`, loads the lake once and starts watching it for new files. */
export async function openApiReads(options: ApiReadsOptions): Promise<ApiReads> {
  const reads = new ApiReads(await ConnectionPool.open(options.memoryLimitMiB === undefined ? {} : { memoryLimitMiB: options.memoryLimitMiB }), options);
  try {
    await reads.sync();
  } catch (error) {
    void reads.close();
    throw error;
  }
  reads.startPolling();
  return reads;
}
