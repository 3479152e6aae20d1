import { existsSync } from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ShariahFrameworkId } from '../engine/frameworks.ts';
import type { PurificationPoint, ShareSplit } from '../engine/shariah/holding-purification.ts';
import type { PurificationMethod, VerdictStatus } from '../engine/result-types.ts';
import { ConnectionPool } from './connection-pool.ts';
import { isRemovedFileError } from './lake-files.ts';
import { lakeRoot, type LakeTable } from './lake-paths.ts';
import { readTableSql } from './lake-sql.ts';
import { statusColumn } from './snapshot-schema.ts';
import { loadZakatInputs, type ZakatLake, type ZakatReadsResult } from './zakat-reads.ts';
import { rawSql, readSql, sql, sqlDate, sqlIdent, type Sql } from './sql.ts';

/**
 * The purification endpoint's reads of the lake (docs/api.md, "Purification"): one ticker's
 * snapshots, each with one framework's status and purification ratio and the figures of the
 * filing behind it, and the ticker's splits. Values are bound as parameters.
 */

/** What the lake holds for one ticker up to a date. */
export interface HoldingHistory {
  /** One per snapshot day (a same-day re-screen supersedes the earlier one), oldest first. */
  points: PurificationPoint[];
  splits: ShareSplit[];
  /** Where the snapshots came from (`sample`, `edgar`, `feed`, …), and whether any is synthetic. */
  dataSources: string[];
  synthetic: boolean;
}

const METHODS: ReadonlySet<string> = new Set<PurificationMethod>(['dividend_ratio', 'impermissible_income_per_share']);
const STATUSES: ReadonlySet<string> = new Set<VerdictStatus>(['compliant', 'non_compliant', 'questionable', 'insufficient_data']);

function tableRead(dataDir: string, table: LakeTable, market: string): Sql | null {
  const root = lakeRoot(dataDir);
  return existsSync(path.join(root, table, `market=${market}`)) ? readTableSql(root, table, market) : null;
}

function num(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

function str(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

/** Which snapshots a holding needs: dated from `from` (inclusive) to `before` (exclusive). */
export interface HistoryQuery {
  market: string;
  ticker: string;
  framework: ShariahFrameworkId;
  from: string;
  before: string;
}

/**
 * Snapshots of the ticker dated in [`from`, `before`), newest screen of each day, with the framework's
 * status, stored purification method and non-permissible income ratio, and the filing named by
 * the snapshot's `filing_ref` (best source, latest filed by the snapshot's date).
 */
function pointsSql(snapshots: Sql, fundamentals: Sql | null, query: HistoryQuery): Sql {
  const base = `$.frameworks.${query.framework}.purification`;
  const filing = fundamentals
    ? sql`LEFT JOIN (SELECT source_ref, period_end, filed_on, currency, dividends_per_share, total_revenue, shares_outstanding,
          CASE data_source WHEN 'feed' THEN 0 WHEN 'edgar' THEN 1 ELSE 2 END AS source_rank
        FROM ${fundamentals} WHERE ticker = ${query.ticker}) f
        ON f.source_ref = s.filing_ref AND f.period_end = s.period_end AND f.filed_on <= s.snapshot_date`
    : rawSql('');
  const filingColumns = rawSql(
    fundamentals
      ? `strftime(f.filed_on, '%Y-%m-%d') AS filed_on, f.currency, f.dividends_per_share, f.total_revenue, f.shares_outstanding`
      : 'NULL AS filed_on, NULL AS currency, NULL AS dividends_per_share, NULL AS total_revenue, NULL AS shares_outstanding',
  );
  const order = rawSql(fundamentals ? 'f.source_rank, f.filed_on DESC' : '1');
  // The year partitions bound the scan: DuckDB skips the other folders.
  const fromYear = Number(query.from.slice(0, 4));
  const beforeYear = Number(query.before.slice(0, 4));
  return sql`
    WITH raw AS (
      -- The two figures are taken out of result_json here, so the day's de-duplication below sorts small rows.
      SELECT snapshot_date, screened_at, filing_ref, period_end, ${rawSql(sqlIdent(statusColumn(query.framework)))} AS status,
        json_extract_string(result_json, ${`${base}.method`}) AS method,
        TRY_CAST(json_extract(result_json, ${`${base}.non_permissible_income_ratio`}) AS DOUBLE) AS ratio,
        json_extract_string(result_json, ${`${base}.proxy`}) AS proxy,
        coalesce(data_source, 'unknown') AS data_source, coalesce(synthetic, false) AS synthetic
      FROM ${snapshots}
      WHERE ticker = ${query.ticker} AND year BETWEEN ${fromYear} AND ${beforeYear}
        AND snapshot_date >= ${sqlDate(query.from)} AND snapshot_date < ${sqlDate(query.before)}
    ),
    s AS (SELECT * FROM raw QUALIFY row_number() OVER (PARTITION BY snapshot_date ORDER BY screened_at DESC) = 1)
    SELECT strftime(s.snapshot_date, '%Y-%m-%d') AS snapshot_date, s.status, s.method, s.ratio, s.proxy, s.filing_ref,
      strftime(s.period_end, '%Y-%m-%d') AS period_end, s.data_source, s.synthetic, ${filingColumns}
    FROM s ${filing}
    QUALIFY row_number() OVER (PARTITION BY s.snapshot_date ORDER BY ${order}) = 1
    ORDER BY s.snapshot_date`;
}

function pointOf(row: Record<string, unknown>): PurificationPoint {
  const filingRef = str(row.filing_ref);
  const periodEnd = str(row.period_end);
  const filedOn = str(row.filed_on);
  const method = str(row.method);
  const status = String(row.status);
  return {
    snapshotDate: String(row.snapshot_date),
    status: (STATUSES.has(status) ? status : 'insufficient_data') as VerdictStatus,
    method: method !== null && METHODS.has(method) ? (method as PurificationMethod) : null,
    nonPermissibleIncomeRatio: num(row.ratio),
    proxy: str(row.proxy),
    // A filing the lake no longer holds still names itself; its figures then read as missing.
    filing: filingRef === null || periodEnd === null ? null : { sourceRef: filingRef, periodEnd, filedOn: filedOn ?? '' },
    currency: str(row.currency),
    dividendsPerShare: num(row.dividends_per_share),
    totalRevenue: num(row.total_revenue),
    sharesOutstanding: num(row.shares_outstanding),
  };
}

/** Reads one ticker's purification history on `connection`. */
export async function loadHoldingHistory(connection: DuckDBConnection, dataDir: string, query: HistoryQuery): Promise<HoldingHistory> {
  const snapshots = tableRead(dataDir, 'snapshots', query.market);
  if (snapshots === null) return { points: [], splits: [], dataSources: [], synthetic: false };
  const rows = (await readSql(connection, pointsSql(snapshots, tableRead(dataDir, 'fundamentals', query.market), query))).getRowObjectsJS();
  const splitsRead = tableRead(dataDir, 'splits', query.market);
  const splitRows = splitsRead
    ? (
        await readSql(
          connection,
          sql`SELECT DISTINCT strftime(ex_date, '%Y-%m-%d') AS ex_date, ratio FROM ${splitsRead}
              WHERE ticker = ${query.ticker} AND ratio > 0 ORDER BY ex_date`,
        )
      ).getRowObjectsJS()
    : [];
  return {
    points: rows.map(pointOf),
    splits: splitRows.map((r) => ({ exDate: String(r.ex_date), ratio: Number(r.ratio) })),
    dataSources: [...new Set(rows.map((r) => String(r.data_source)))].sort(),
    synthetic: rows.some((r) => r.synthetic === true),
  };
}

/** The purification reads on their own small pool of DuckDB connections, opened on first use. */
export class PurificationReads implements ZakatLake {
  private pool: Promise<ConnectionPool> | null = null;

  constructor(readonly dataDir: string) {}

  /** The ticker's history in the query's window. */
  history(query: HistoryQuery): Promise<HoldingHistory> {
    return this.read((c) => loadHoldingHistory(c, this.dataDir, query));
  }

  /** The filing in force and the close of one ticker on `asOf`, for the zakat answer (warehouse/zakat-reads.ts). */
  zakatInputs(market: string, ticker: string, asOf: string): Promise<ZakatReadsResult> {
    return this.read((c) => loadZakatInputs(c, this.dataDir, market, ticker, asOf));
  }

  /** The dates of the ticker's first and latest snapshots, or null when it has none: for telling a client what history there is. */
  snapshotSpan(market: string, ticker: string): Promise<{ first: string; last: string } | null> {
    return this.read(async (c) => {
      const snapshots = tableRead(this.dataDir, 'snapshots', market);
      if (snapshots === null) return null;
      const span = sql`SELECT strftime(min(snapshot_date), '%Y-%m-%d') AS first, strftime(max(snapshot_date), '%Y-%m-%d') AS last
        FROM ${snapshots} WHERE ticker = ${ticker}`;
      const row = (await readSql(c, span)).getRowObjectsJS()[0];
      const first = str(row?.first);
      const last = str(row?.last);
      return first === null || last === null ? null : { first, last };
    });
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    if (pool) (await pool).close();
  }

  /** Runs a read, once more when compaction removed a file it listed. */
  private async read<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.use(work);
      } catch (error) {
        if (attempt >= 2 || !isRemovedFileError(error)) throw error;
      }
    }
  }

  private async use<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    // Its own small instance beside the API's reads, as the forensic reads have: a per-request scan never competes with their indexes.
    // Footers stay cached: every request opens the same year partitions again.
    this.pool ??= ConnectionPool.open({ maxActive: 1, memoryLimitMiB: 256 }).catch((error: unknown) => {
      this.pool = null; // the next request tries again
      throw error;
    });
    return (await this.pool).use(work);
  }
}
