import { existsSync } from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { FIGURE_NAMES, type Period } from '../forensic/types.ts';
import { ConnectionPool } from './connection-pool.ts';
import { lakeRoot, type LakeTable } from './lake-paths.ts';
import { readTableSql } from './lake-sql.ts';
import { rawSql, readSql, sql, sqlDate, sqlIdent, sqlValueList } from './sql.ts';

/**
 * The forensic endpoints' reads of the lake: a company's multi-year filings (one per period
 * end, point in time), its listing profile, and same-industry peer candidates. Lakes written
 * before a figure column existed read it as null. Dates are `YYYY-MM-DD`; amounts are in the
 * listing's currency.
 */

/** A company's filings known on `asOf`, one per period end, newest first, with their provenance. */
export interface CompanyFilings {
  periods: Period[];
  synthetic: boolean;
  dataSources: string[];
}

/** What the listings table says about a company beyond the in-memory universe. */
export interface ListingProfile {
  market: string;
  ticker: string;
  name: string;
  kind: string;
  currency: string;
  sic: string | null;
  sicDescription: string | null;
  synthetic: boolean;
  dataSource: string;
}

/** A same-industry listing with its latest total assets filed by `asOf`. */
export interface PeerCandidate {
  ticker: string;
  name: string;
  sic: string;
  sicDescription: string | null;
  totalAssets: number;
  periodEnd: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A close older than this before the period end is too stale to value equity at that date. */
const CLOSE_WINDOW_DAYS = 31;
/** A vendor feed beats EDGAR beats the sample, as in the screening-input loader. */
const SOURCE_RANK = `CASE data_source WHEN 'feed' THEN 0 WHEN 'edgar' THEN 1 ELSE 2 END`;

function partitionExists(root: string, table: LakeTable, key: string, market: string): boolean {
  return existsSync(path.join(root, table, `${key}=${market}`));
}

/** Columns the market's fundamentals files carry (any of them): a figure missing from all reads as null. */
export async function fundamentalsColumns(connection: DuckDBConnection, root: string, market: string): Promise<Set<string>> {
  const rows = (
    await readSql(connection, sql`SELECT column_name FROM (DESCRIBE SELECT * FROM ${readTableSql(root, 'fundamentals', market)})`)
  ).getRowObjectsJS();
  return new Set(rows.map((r) => String(r.column_name)));
}

function num(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

/**
 * Filings of `tickers` in `market` filed on or before `asOf`: for each period end the best
 * source, then the latest filing (an amendment supersedes); each with the latest close in the
 * 31 days up to its period end.
 */
export async function loadCompanyFilings(
  connection: DuckDBConnection,
  dataDir: string,
  market: string,
  tickers: readonly string[],
  asOf: string,
  knownColumns?: ReadonlySet<string>,
): Promise<Map<string, CompanyFilings>> {
  if (!DATE.test(asOf)) throw new Error(`as_of '${asOf}' is not YYYY-MM-DD`);
  const found = new Map<string, CompanyFilings>();
  const root = lakeRoot(dataDir);
  if (tickers.length === 0 || !partitionExists(root, 'fundamentals', 'market', market)) return found;
  const present = knownColumns ?? (await fundamentalsColumns(connection, root, market));
  const figures = FIGURE_NAMES.map(
    (name) => (present.has(name) ? `CAST(f.${sqlIdent(name)} AS DOUBLE)` : 'CAST(NULL AS DOUBLE)') + ` AS ${sqlIdent(name)}`,
  );
  const withPrices = partitionExists(root, 'prices', 'market', market);
  const prices = withPrices
    ? sql`SELECT ticker, date, close FROM ${readTableSql(root, 'prices', market)}
        WHERE ticker IN ${sqlValueList(tickers)} AND date <= ${sqlDate(asOf)}`
    : rawSql('SELECT CAST(NULL AS VARCHAR) AS ticker, CAST(NULL AS DATE) AS date, CAST(NULL AS DOUBLE) AS close WHERE false');
  const fresh = rawSql(`p.date > f.period_end - INTERVAL ${CLOSE_WINDOW_DAYS} DAY`);
  const query = sql`
    WITH f AS (
      SELECT * FROM ${readTableSql(root, 'fundamentals', market)}
      WHERE ticker IN ${sqlValueList(tickers)} AND filed_on <= ${sqlDate(asOf)}
      QUALIFY row_number() OVER (PARTITION BY ticker, period_end ORDER BY ${rawSql(SOURCE_RANK)}, filed_on DESC, source_ref DESC) = 1
    ), p AS (${prices})
    SELECT f.ticker, strftime(f.period_end, '%Y-%m-%d') AS period_end, strftime(f.filed_on, '%Y-%m-%d') AS filed_on,
      coalesce(f.source_ref, '') AS source_ref, coalesce(f.currency, '') AS currency, coalesce(f.data_source, 'unknown') AS data_source,
      coalesce(f.synthetic, false) AS synthetic, ${rawSql(figures.join(', '))},
      CASE WHEN ${fresh} THEN p.close END AS close, CASE WHEN ${fresh} THEN strftime(p.date, '%Y-%m-%d') END AS close_date
    FROM f ASOF LEFT JOIN p ON p.ticker = f.ticker AND p.date <= f.period_end
    ORDER BY f.ticker, f.period_end DESC`;
  for (const row of (await readSql(connection, query)).getRowObjectsJS()) {
    const ticker = String(row.ticker);
    let filings = found.get(ticker);
    if (!filings) found.set(ticker, (filings = { periods: [], synthetic: false, dataSources: [] }));
    filings.periods.push({
      periodEnd: String(row.period_end),
      filedOn: String(row.filed_on),
      sourceRef: String(row.source_ref),
      currency: String(row.currency),
      figures: Object.fromEntries(FIGURE_NAMES.map((name) => [name, num(row[name])])),
      close: num(row.close),
      closeDate: row.close_date === null ? null : String(row.close_date),
    });
    filings.synthetic ||= row.synthetic === true;
    if (!filings.dataSources.includes(String(row.data_source))) filings.dataSources.push(String(row.data_source));
  }
  return found;
}

/** The listing's profile (SIC, kind, provenance), or undefined when the market does not list it. */
export async function loadListingProfile(
  connection: DuckDBConnection,
  dataDir: string,
  market: string,
  ticker: string,
): Promise<ListingProfile | undefined> {
  const root = lakeRoot(dataDir);
  if (!partitionExists(root, 'listings', 'market', market)) return undefined;
  const rows = (
    await readSql(
      connection,
      sql`SELECT name, kind, currency, sic, sic_description, coalesce(synthetic, false) AS synthetic,
         coalesce(data_source, 'unknown') AS data_source
       FROM ${readTableSql(root, 'listings', market)} WHERE ticker = ${ticker} ORDER BY ${rawSql(SOURCE_RANK)} LIMIT 1`,
    )
  ).getRowObjectsJS();
  const row = rows[0];
  if (!row) return undefined;
  return {
    market,
    ticker,
    name: String(row.name ?? ticker),
    kind: String(row.kind ?? 'stock'),
    currency: String(row.currency ?? ''),
    sic: row.sic === null ? null : String(row.sic),
    sicDescription: row.sic_description === null ? null : String(row.sic_description),
    synthetic: row.synthetic === true,
    dataSource: String(row.data_source),
  };
}

/**
 * Stocks of `market` in the company's 2-digit SIC major group (itself excluded) with the total
 * assets of their latest filing filed by `asOf`; the caller ranks them.
 */
export async function loadPeerCandidates(
  connection: DuckDBConnection,
  dataDir: string,
  query: { market: string; ticker: string; sic: string; asOf: string },
): Promise<PeerCandidate[]> {
  const root = lakeRoot(dataDir);
  if (!/^\d{4}$/.test(query.sic) || !partitionExists(root, 'fundamentals', 'market', query.market)) return [];
  const peers = sql`
    WITH l AS (
      SELECT ticker, name, sic, sic_description FROM ${readTableSql(root, 'listings', query.market)}
      WHERE kind = 'stock' AND sic LIKE ${`${query.sic.slice(0, 2)}%`} AND ticker <> ${query.ticker}
      QUALIFY row_number() OVER (PARTITION BY ticker ORDER BY ${rawSql(SOURCE_RANK)}) = 1
    ), f AS (
      SELECT ticker, arg_max(total_assets, period_end) AS total_assets, max(period_end) AS period_end
      FROM ${readTableSql(root, 'fundamentals', query.market)}
      WHERE filed_on <= ${sqlDate(query.asOf)} AND total_assets IS NOT NULL AND ticker IN (SELECT ticker FROM l)
      GROUP BY ticker
    )
    SELECT l.ticker, l.name, l.sic, l.sic_description, f.total_assets, strftime(f.period_end, '%Y-%m-%d') AS period_end
    FROM l JOIN f USING (ticker) ORDER BY l.ticker`;
  const rows = (await readSql(connection, peers)).getRowObjectsJS();
  return rows.map((r) => ({
    ticker: String(r.ticker),
    name: String(r.name ?? r.ticker),
    sic: String(r.sic),
    sicDescription: r.sic_description === null ? null : String(r.sic_description),
    totalAssets: Number(r.total_assets),
    periodEnd: String(r.period_end),
  }));
}

/** The forensic reads on their own small pool of DuckDB connections, opened on first use. */
export class ForensicReads {
  private pool: Promise<ConnectionPool> | null = null;
  /** Each market's fundamentals columns, re-read after a while (a new delivery may add columns). */
  private readonly columns = new Map<string, { set: ReadonlySet<string>; at: number }>();

  constructor(
    readonly dataDir: string,
    private readonly columnsTtlMs = 30_000,
  ) {}

  filings(market: string, tickers: readonly string[], asOf: string): Promise<Map<string, CompanyFilings>> {
    return this.use(async (c) => {
      const root = lakeRoot(this.dataDir);
      let known = this.columns.get(market);
      if ((!known || Date.now() - known.at > this.columnsTtlMs) && partitionExists(root, 'fundamentals', 'market', market)) {
        known = { set: await fundamentalsColumns(c, root, market), at: Date.now() };
        this.columns.set(market, known);
      }
      return loadCompanyFilings(c, this.dataDir, market, tickers, asOf, known?.set);
    });
  }

  profile(market: string, ticker: string): Promise<ListingProfile | undefined> {
    return this.use((c) => loadListingProfile(c, this.dataDir, market, ticker));
  }

  peerCandidates(query: { market: string; ticker: string; sic: string; asOf: string }): Promise<PeerCandidate[]> {
    return this.use((c) => loadPeerCandidates(c, this.dataDir, query));
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    if (pool) (await pool).close();
  }

  private async use<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    // Its own small instance beside the API's reads: a per-request scan never competes with their indexes for memory.
    this.pool ??= ConnectionPool.open()
      .then(async (pool) => {
        await pool.use((c) => c.run(`SET memory_limit = '256MB'`));
        return pool;
      })
      .catch((error: unknown) => {
        this.pool = null; // the next request tries again
        throw error;
      });
    return (await this.pool).use(work);
  }
}
