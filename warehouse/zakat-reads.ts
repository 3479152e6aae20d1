import { existsSync } from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ZakatFigureName } from '../engine/zakat/zakat-due.ts';
import { fundamentalsColumns } from './forensic-reads.ts';
import { lakeRoot, type LakeTable } from './lake-paths.ts';
import { readTableSql } from './lake-sql.ts';
import { rawSql, readSql, sql, sqlDate, sqlIdent, type Sql } from './sql.ts';

/**
 * The zakat endpoint's reads of the lake (docs/frameworks/zakat.md): the filing in force on a
 * date with the balance-sheet figures zakat needs and where each came from, the latest close
 * on or before the date on that date's share basis, and the splits since the filing.
 */

/** The figures read, by lake column. */
export const ZAKAT_FIGURES: readonly ZakatFigureName[] = [
  'cash_and_equivalents',
  'accounts_receivable',
  'inventory',
  'current_liabilities',
  'shares_outstanding',
];

/** A close older than this before the as-of date does not value a holding on it. */
export const MAX_PRICE_AGE_DAYS = 7;

export interface ZakatFiling {
  sourceRef: string;
  periodEnd: string;
  filedOn: string;
  currency: string;
  figures: Record<ZakatFigureName, number | null>;
  /** Lake column → concept(s) and accession, or why the figure is missing; empty when the source does not say. */
  figureSources: Record<string, string>;
  /** Product of the ratios of splits with an ex-date after the filing date, up to the as-of date. */
  splitsSinceFiling: number;
  dataSource: string;
  synthetic: boolean;
}

export interface ZakatPrice {
  date: string;
  /** The close on the as-of date's share basis (a later-adjusted close is put back on it). */
  close: number;
  dataSource: string;
  synthetic: boolean;
}

export interface ZakatReadsResult {
  filing: ZakatFiling | null;
  price: ZakatPrice | null;
}

const SOURCE_RANK = `CASE data_source WHEN 'feed' THEN 0 WHEN 'edgar' THEN 1 ELSE 2 END`;

function tableRead(dataDir: string, table: LakeTable, market: string): Sql | null {
  const root = lakeRoot(dataDir);
  return existsSync(path.join(root, table, `market=${market}`)) ? readTableSql(root, table, market) : null;
}

function num(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

/** Product of split ratios for ex-dates in (`after`, `through`] (SQL expressions), 1 when none. */
function splitProductSql(splits: Sql | null, ticker: string, after: Sql, through: Sql): Sql {
  if (splits === null) return rawSql('1.0');
  return sql`coalesce((SELECT product(s.ratio) FROM ${splits} s WHERE s.ticker = ${ticker} AND s.ratio > 0
    AND s.ex_date > ${after} AND s.ex_date <= ${through}), 1.0)`;
}

function parseSources(text: unknown): Record<string, string> {
  if (typeof text !== 'string' || text === '') return {};
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}

/** The filing in force on `asOf` (best source, then the latest filed) with the zakat figures, or null. */
async function filingInForce(
  c: DuckDBConnection,
  dataDir: string,
  market: string,
  ticker: string,
  asOf: string,
): Promise<ZakatFiling | null> {
  const fundamentals = tableRead(dataDir, 'fundamentals', market);
  if (fundamentals === null) return null;
  const present = await fundamentalsColumns(c, lakeRoot(dataDir), market);
  const figures = ZAKAT_FIGURES.map(
    (name) => (present.has(name) ? `CAST(f.${sqlIdent(name)} AS DOUBLE)` : 'CAST(NULL AS DOUBLE)') + ` AS ${sqlIdent(name)}`,
  );
  const sources = present.has('figure_sources') ? 'f.figure_sources' : 'CAST(NULL AS VARCHAR)';
  const splits = tableRead(dataDir, 'splits', market);
  const query = sql`
    WITH f AS (
      SELECT * FROM ${fundamentals} WHERE ticker = ${ticker} AND filed_on <= ${sqlDate(asOf)}
      QUALIFY row_number() OVER (ORDER BY filed_on DESC, ${rawSql(SOURCE_RANK)}, period_end DESC, source_ref DESC) = 1
    )
    SELECT coalesce(f.source_ref, '') AS source_ref, strftime(f.period_end, '%Y-%m-%d') AS period_end,
      strftime(f.filed_on, '%Y-%m-%d') AS filed_on, coalesce(f.currency, '') AS currency,
      coalesce(f.data_source, 'unknown') AS data_source, coalesce(f.synthetic, false) AS synthetic,
      ${rawSql(sources)} AS figure_sources, ${rawSql(figures.join(', '))},
      ${splitProductSql(splits, ticker, rawSql('f.filed_on'), sqlDate(asOf))} AS splits_since_filing
    FROM f`;
  const row = (await readSql(c, query)).getRowObjectsJS()[0];
  if (row === undefined) return null;
  return {
    sourceRef: String(row.source_ref),
    periodEnd: String(row.period_end),
    filedOn: String(row.filed_on),
    currency: String(row.currency),
    figures: Object.fromEntries(ZAKAT_FIGURES.map((name) => [name, num(row[name])])) as Record<ZakatFigureName, number | null>,
    figureSources: parseSources(row.figure_sources),
    splitsSinceFiling: Number(row.splits_since_filing),
    dataSource: String(row.data_source),
    synthetic: row.synthetic === true,
  };
}

/** The latest close on or before `asOf` (at most MAX_PRICE_AGE_DAYS old) on `asOf`'s share basis, or null. */
async function closeOn(c: DuckDBConnection, dataDir: string, market: string, ticker: string, asOf: string): Promise<ZakatPrice | null> {
  const prices = tableRead(dataDir, 'prices', market);
  if (prices === null) return null;
  const splits = tableRead(dataDir, 'splits', market);
  const query = sql`
    WITH p AS (
      SELECT date, close, coalesce(split_adjusted_through, date) AS basis,
        coalesce(data_source, 'unknown') AS data_source, coalesce(synthetic, false) AS synthetic
      FROM ${prices}
      WHERE ticker = ${ticker} AND date <= ${sqlDate(asOf)} AND date > ${sqlDate(asOf)} - INTERVAL ${rawSql(String(MAX_PRICE_AGE_DAYS))} DAY
        AND close > 0
      QUALIFY row_number() OVER (ORDER BY date DESC, ${rawSql(SOURCE_RANK)}) = 1
    )
    SELECT strftime(date, '%Y-%m-%d') AS date, close, data_source, synthetic,
      ${splitProductSql(splits, ticker, sqlDate(asOf), rawSql('p.basis'))} AS later_splits,
      ${splitProductSql(splits, ticker, rawSql('p.basis'), sqlDate(asOf))} AS earlier_splits
    FROM p`;
  const row = (await readSql(c, query)).getRowObjectsJS()[0];
  if (row === undefined) return null;
  // A close adjusted through a later split is that many times smaller than it traded; one before a split since is larger.
  const close = (Number(row.close) * Number(row.later_splits)) / Number(row.earlier_splits);
  return { date: String(row.date), close, dataSource: String(row.data_source), synthetic: row.synthetic === true };
}

/** Reads the filing in force and the close for one ticker on `asOf` (`YYYY-MM-DD`). */
export async function loadZakatInputs(
  connection: DuckDBConnection,
  dataDir: string,
  market: string,
  ticker: string,
  asOf: string,
): Promise<ZakatReadsResult> {
  return {
    filing: await filingInForce(connection, dataDir, market, ticker, asOf),
    price: await closeOn(connection, dataDir, market, ticker, asOf),
  };
}

/** What the zakat answer reads: the purification reads provide it on their pool (one DuckDB instance for both). */
export interface ZakatLake {
  zakatInputs(market: string, ticker: string, asOf: string): Promise<ZakatReadsResult>;
}
