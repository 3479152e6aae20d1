import { dayNumber } from '../engine/dates.ts';
import { CurrentStore, dayString, packStatuses } from './api-reads-store.ts';
import type { AsOfLookup, FundHoldings, Listing, VerdictRow } from './api-reads-types.ts';
import type { RefreshedScreen } from '../warehouse/snapshot-schema.ts';
import { UniverseIndex } from './api-reads-universe.ts';
import { UniverseBuilder } from './api-reads-universe-builder.ts';
import { syncServingFromLake, type ServingSyncResult } from '../warehouse/serving-sync.ts';
import { openServingStore, servingTargetOf } from '../serving/open-serving-store.ts';
import { LISTINGS_VERSION_KEY } from '../serving/serving-sql.ts';
import type {
  CurrentChanges,
  ServingRow,
  ServingStore,
  StoredReport,
  StoredReportStamp,
  StoredResultKey,
  TickerKey,
} from '../serving/serving-types.ts';
import { SNAPSHOT_FRAMEWORKS, SNAPSHOT_RATIOS } from '../warehouse/lake-schemas.ts';
import { MethodologyTexts } from '../warehouse/methodology-texts-lake.ts';
import { eraOf, snapshotRatiosOf } from '../warehouse/snapshot-schema.ts';

export interface ApiReadsOptions {
  dataDir: string;
  /**
   * How often the reads look for new verdicts and listings (ms): one indexed query of the serving
   * store's change feed and one point read of its listings version. 0 = only on `sync()`. Default 500.
   */
  followIntervalMs?: number;
  onError?: (error: unknown) => void;
  /**
   * The serving store verdicts are read from (docs/serving.md, "The serving store"); by default
   * the one the configuration places for `dataDir`, opened here and closed with the reads.
   */
  serving?: ServingStore;
  /** Hears how far the start's copy of lake files the store does not hold has got. */
  onServingProgress?: (done: number, total: number, rows: number) => void;
}

/** Figures of what the API has loaded. */
export interface ApiReadsStats {
  /** Tickers with a current snapshot in memory (copied from the serving store). */
  snapshots: number;
  listings: number;
  /** Copies of what the store lacks from the lake (`syncFromLake`): one at start. */
  lakeScans: number;
  /** Rebuilds of the universe index in a worker thread (listings republished while serving). */
  universeRebuilds: number;
  /** The serving store's change number the current verdicts in memory are up to. */
  servingSeq: number;
  /** Current rows read from the store's change feed since start (the start's full read included). */
  currentRowsRead: number;
  /** Full reads of the current rows after the store rebuilt them (files removed from the lake by hand). */
  currentRebuilds: number;
  /** Reads of older snapshots (as_of, a day's verdicts, a history) from the serving store. */
  historyReads: number;
  /** What the start's copy of lake files into the serving store did (null before the start). */
  servingSync: ServingSyncResult | null;
  lastSyncAt: string | null;
}

/**
 * The API's view of the verdicts (docs/serving.md, "Current verdicts"): each ticker's current
 * verdict held in memory, copied from the serving store and kept up to date from its change
 * feed; the listings in a search index, rebuilt when the store's listings change; older
 * snapshots, stored results, methodology texts and fund holdings read from the store with
 * keyed reads. The lake is read only to copy into the store what it lacks (at start, and on
 * `syncFromLake`). Create with `openApiReads`, then `close()`.
 */
export class ApiReads {
  private store = new CurrentStore();
  private universe = new UniverseIndex([]);
  /** The store's listings version the universe was built from (null before the first build). */
  private listingsVersion: string | null = null;
  /** Stored results of refreshes the API ran, by snapshot: served before the store's feed brings their row. */
  private readonly known = new Map<string, string>();
  private servingStore: ServingStore | null = null;
  private servingSync: ServingSyncResult | null = null;
  private servingSeq = -1;
  /** The store's current-rows epoch the verdicts in memory were read under (null before the first read). */
  private servingEpoch: string | null = null;
  private currentRowsRead = 0;
  private currentRebuilds = 0;
  private syncing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastSyncAt: string | null = null;
  private lakeScans = 0;
  private historyReads = 0;
  private universeRebuilds = 0;
  private readonly universeBuilder = new UniverseBuilder();
  /** The methodology texts stored results reference (docs/warehouse.md, "Methodology texts"), JSON-quoted. */
  private readonly texts = new MethodologyTexts(async () => {
    const quoted = new Map<string, string>();
    for (const [id, text] of await this.serving.texts()) quoted.set(id, JSON.stringify(text));
    return quoted;
  });

  /** Hear which tickers' current rows each read of the change feed brought. */
  private readonly currentListeners: Array<(tickers: TickerKey[]) => void> = [];
  private readonly closeListeners: Array<() => void> = [];

  constructor(private readonly options: ApiReadsOptions) {}

  /**
   * Calls `listener` at once with every ticker that has a current row, then with the tickers whose
   * current verdict moved (a read of the store's change feed, a refresh this API ran); `onClose`
   * when the reads close.
   */
  onCurrentChanged(listener: (tickers: TickerKey[]) => void, onClose: () => void): void {
    this.currentListeners.push(listener);
    this.closeListeners.push(onClose);
    listener(this.store.markets().flatMap((market) => [...this.store.tickers(market)].map((ticker) => ({ market, ticker }))));
  }

  /**
   * The ticker's pre-rendered default report of exactly this snapshot (docs/serving.md,
   * "Pre-rendered reports"), or undefined: none, or one of another snapshot.
   */
  async prerenderedReport(row: VerdictRow): Promise<StoredReport | undefined> {
    return this.serving.report(row);
  }

  /** What each row's stored default report is (not the report), in one store read; undefined where none of its snapshot is stored. */
  async prerenderedStamps(rows: readonly VerdictRow[]): Promise<Array<StoredReportStamp | undefined>> {
    const stamps = await this.serving.reportStamps(rows);
    return stamps.map((stamp, i) => (stamp && ofSnapshot(stamp, rows[i]!) ? stamp : undefined));
  }

  /**
   * Where a render thread can read the row's stored result itself: the SQLite store's file and the
   * snapshot. Null when it must be read here: a PostgreSQL store (its reads do not stop the event
   * loop), or a result this API re-screened and holds in memory.
   */
  resultReadInThread(row: VerdictRow): StoredResultKey | null {
    const serving = this.serving;
    if (serving.engine !== 'sqlite' || this.known.has(knownKey(row))) return null;
    return { storePath: serving.location, market: row.market, ticker: row.ticker, snapshotDate: row.snapshotDate };
  }

  /** Keeps pre-rendered default reports in the store, for every replica. */
  storeReports(reports: readonly StoredReport[]): Promise<void> {
    return this.serving.writeReports(reports);
  }

  private get serving(): ServingStore {
    if (this.servingStore === null) throw new Error('the API reads are not started');
    return this.servingStore;
  }

  /** Reads the store's change feed and its listings version and applies both; concurrent calls share one read. */
  sync(): Promise<void> {
    this.syncing ??= this.follow().finally(() => {
      this.syncing = null;
    });
    return this.syncing;
  }

  /**
   * Copies into the store the lake files it does not hold (an upgrade, a store on a new engine,
   * files written by hand), then follows the store: what every start does.
   */
  syncFromLake(): Promise<void> {
    const run = async () => {
      if (this.syncing) await this.syncing.catch(() => undefined);
      await this.copyFromLake();
      await this.follow();
    };
    this.syncing = run().finally(() => {
      this.syncing = null;
    });
    return this.syncing;
  }

  /**
   * Opens the store, copies into it what the lake has and it lacks and reads every current row
   * once, while a worker thread builds the universe from the listings (docs/serving.md, "Current
   * verdicts"): the two take about as long, and the machine has a core for each.
   */
  async start(): Promise<void> {
    this.servingStore = this.options.serving ?? (await openServingStore(servingTargetOf(this.options.dataDir)));
    // The version is read before the listings: a publish between the two makes the follow below build again, never miss one.
    const version = (await this.serving.meta(LISTINGS_VERSION_KEY)) ?? '';
    const universe = this.buildUniverse();
    try {
      await this.copyFromLake();
      const changes = await this.serving.currentSince(this.servingSeq);
      await this.applyCurrentChanges(changes);
    } catch (error) {
      // Settled before a failed start ends (a thread left running would outlive its close), keeping the first error.
      await universe.catch(() => undefined);
      throw error;
    }
    this.universe = await universe;
    this.listingsVersion = version;
    await this.sync();
  }

  /** Starts following the store (unref'd: it never keeps the process alive). */
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
    return row ? { found: true, row: servedRow(row) } : { found: false, firstSnapshotDate: first };
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
    return row ? servedRow(row) : undefined;
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
    const rows = (await this.serving.history(market, ticker)).map(servedRow);
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
    const byTicker = new Map(stored.map((row) => [row.ticker, servedRow(row)]));
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

  /** As `storedResults`, decoded to JSON text. */
  async resultJsons(rows: readonly VerdictRow[]): Promise<string[]> {
    return (await this.storedResults(rows)).map((bytes) => bytes.toString('utf8'));
  }

  /**
   * The stored results of many snapshots (UTF-8 JSON), in order: a refresh's from memory, the
   * rest with keyed reads of the serving store, methodology texts expanded.
   */
  async storedResults(rows: readonly VerdictRow[]): Promise<Buffer[]> {
    const out = new Array<Buffer | null>(rows.length).fill(null);
    const wanted: number[] = [];
    rows.forEach((row, i) => {
      const remembered = this.known.get(knownKey(row));
      if (remembered === undefined) wanted.push(i);
      else out[i] = Buffer.from(remembered);
    });
    if (wanted.length > 0) {
      const found = await this.serving.results(wanted.map((i) => rows[i]!));
      const expanded = await this.texts.expandAll(found.map((json) => json?.toString('utf8') ?? ''));
      wanted.forEach((i, n) => (out[i] = found[n] === null ? null : Buffer.from(expanded[n]!)));
    }
    return out.map((json, i) => {
      if (json !== null) return json;
      const row = rows[i]!;
      throw new Error(`the stored result of ${row.market}/${row.ticker} ${row.snapshotDate} is not in the serving store`);
    });
  }

  /** A fund's latest holdings, heaviest first, at most `limit`; undefined when the fund has none. */
  fundHoldings(fundMarket: string, fundTicker: string, limit: number): Promise<FundHoldings | undefined> {
    return this.serving.fundHoldings(fundMarket, fundTicker, limit);
  }

  /** Records a snapshot the API just published through a refresh, so reads see it before the store's feed brings it. */
  remember(snapshot: RefreshedScreen): VerdictRow {
    const row = verdictRowOf(snapshot);
    if (this.known.size >= 1_000) this.known.delete(this.known.keys().next().value!);
    this.known.set(knownKey(row), JSON.stringify(snapshot.result));
    // The feed brings this row later as no move: listeners hear of it now.
    if (offer(this.store, row, row.snapshotDate))
      for (const listener of this.currentListeners) listener([{ market: row.market, ticker: row.ticker }]);
    return row;
  }

  stats(): ApiReadsStats {
    return {
      snapshots: this.store.size,
      listings: this.universe.size,
      lakeScans: this.lakeScans,
      universeRebuilds: this.universeRebuilds,
      servingSeq: this.servingSeq,
      currentRowsRead: this.currentRowsRead,
      currentRebuilds: this.currentRebuilds,
      historyReads: this.historyReads,
      servingSync: this.servingSync,
      lastSyncAt: this.lastSyncAt,
    };
  }

  /** Stops following; the promise settles when the store (when opened here) and the universe builder are closed. */
  async close(): Promise<void> {
    for (const listener of this.closeListeners.splice(0)) listener();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.syncing?.catch(() => undefined);
    await Promise.all([this.options.serving ? undefined : this.servingStore?.close(), this.universeBuilder.close()]);
  }

  /**
   * Applies the current rows the store changed since the last read (every row the first time).
   * When the store rebuilt its current rows (files removed from the lake by hand), every row is
   * read again into a fresh copy, swapped in one step: a ticker whose rows went is gone too.
   */
  private async applyCurrentChanges(read: CurrentChanges): Promise<void> {
    let changes = read;
    // Tickers whose current verdict moved: the store numbers a row only when it moves, and an
    // earlier first day moves it without moving the verdict, so listeners hear only of verdicts.
    const moved: TickerKey[] = [];
    if (this.servingEpoch !== null && changes.epoch !== this.servingEpoch) {
      changes = await this.serving.currentSince(-1);
      const fresh = new CurrentStore();
      for (const row of changes.rows) offer(fresh, row, row.firstSnapshotDate);
      this.store = fresh;
      this.currentRebuilds += 1;
      for (const { market, ticker } of changes.rows) moved.push({ market, ticker });
    } else {
      for (const row of changes.rows)
        if (offer(this.store, row, row.firstSnapshotDate)) moved.push({ market: row.market, ticker: row.ticker });
    }
    this.servingEpoch = changes.epoch;
    if (moved.length > 0) for (const listener of this.currentListeners) listener(moved);
    this.currentRowsRead += changes.rows.length;
    this.servingSeq = changes.seq;
    this.lastSyncAt = new Date().toISOString();
  }

  /** Copies what the lake has and the store lacks. */
  private async copyFromLake(): Promise<void> {
    this.servingSync = await syncServingFromLake(this.options.dataDir, this.serving, {
      ...(this.options.onServingProgress ? { onProgress: this.options.onServingProgress } : {}),
      // The embedded store lives in this DATA_DIR: its lake is the only one.
      releaseVanished: this.serving.engine === 'sqlite',
    });
    this.lakeScans += 1;
  }

  /** Applies the store's changes, read in one statement: current rows, and the listings when their version moved. */
  private async follow(): Promise<void> {
    const changes = await this.serving.currentSince(this.servingSeq);
    const version = changes.listingsVersion;
    await Promise.all([version === this.listingsVersion ? null : this.reloadUniverse(version), this.applyCurrentChanges(changes)]);
  }

  /** Rebuilds the universe and swaps it in one step. */
  private async reloadUniverse(version: string): Promise<void> {
    this.universe = await this.buildUniverse();
    this.universeRebuilds += 1;
    this.listingsVersion = version;
  }

  /**
   * The universe from the store's listings: in a worker thread on a connection of its own to the
   * store the configuration places; on the event loop from a store handed in (`serving`), which
   * the thread could not open.
   */
  private async buildUniverse(): Promise<UniverseIndex> {
    if (this.options.serving) return new UniverseIndex(await this.options.serving.listings());
    return this.universeBuilder.build(servingTargetOf(this.options.dataDir));
  }
}

/** Whether a stored report is of this row's snapshot (its day and its screen). */
function ofSnapshot(stamp: StoredReportStamp, row: VerdictRow): boolean {
  return stamp.snapshotDate === row.snapshotDate && stamp.screenedAt === row.screenedAt;
}

/** Offers a row to current verdicts in memory: it replaces the ticker's when newer (then true). */
function offer(store: CurrentStore, row: ServingRow, firstSnapshotDate: string): boolean {
  return store.add({
    market: row.market,
    ticker: row.ticker,
    day: dayNumber(row.snapshotDate),
    screenedAtMs: Date.parse(`${row.screenedAt}Z`),
    statusBits: packStatuses(row.statuses),
    ratios: SNAPSHOT_RATIOS.map((r) => row.ratios[r]),
    source: row.source,
    dataSource: row.dataSource,
    synthetic: row.synthetic,
    firstDay: dayNumber(firstSnapshotDate),
  });
}

/** A row of the serving store as the reads return it. */
function servedRow(row: ServingRow): VerdictRow {
  return { ...row, era: eraOf(row.snapshotDate) };
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

function knownKey(row: VerdictRow): string {
  return `${row.market}/${row.ticker}|${row.snapshotDate}|${row.screenedAt}`;
}

/** Opens the API's reads over `dataDir`, reads the current verdicts once and starts following the store. */
export async function openApiReads(options: ApiReadsOptions): Promise<ApiReads> {
  const reads = new ApiReads(options);
  try {
    await reads.start();
  } catch (error) {
    void reads.close();
    throw error;
  }
  reads.startPolling();
  return reads;
}
