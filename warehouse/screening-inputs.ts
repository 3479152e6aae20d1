import { randomBytes } from 'node:crypto';
import type { DuckDBConnection, DuckDBResultReader } from '@duckdb/node-api';
import {
  INVOLVEMENTS,
  NO_SCREENED_ACTIVITY,
  REVENUE_ACCOUNTED_ACTIVITY,
  type ActivityCode,
  type ActivityExposure,
  type ExposureEvidence,
  type Fundamentals,
  type Involvement,
  type ListingKind,
  type RevenueAccounting,
  type ScreeningInput,
} from '../engine/inputs.ts';
import { lakeRoot } from './lake-paths.ts';
import { marketCapAveragesOn, type MarketCapAverages, type MonthEndCap } from './market-cap-averages.ts';
import { readTableSql } from './lake-sql.ts';
import { joinSql, rawSql, runSql, sql, sqlDate, sqlIdent, sqlValueList, type Sql } from './sql.ts';

/** Which listings to load inputs for: one market's listings in ticker order, optionally a slice or named tickers. */
export interface InputSelection {
  /** Market key; every market when omitted (then listings are ordered by market, ticker). */
  market?: string;
  /** Only these tickers. */
  tickers?: readonly string[];
  /** Slice of the ordered listings (a pipeline chunk). */
  offset?: number;
  limit?: number;
  /** Only listings of this kind (both kinds when omitted). */
  kind?: ListingKind;
}

export interface InputQuery extends InputSelection {
  /** Screening date `YYYY-MM-DD`. */
  date: string;
}

export interface MultiDateInputQuery extends InputSelection {
  /** Screening dates `YYYY-MM-DD` (a backfill's cadence dates). */
  dates: readonly string[];
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A source's rank when two sources list the same ticker: a vendor feed beats EDGAR beats the sample. */
const SOURCE_RANK = `CASE data_source WHEN 'feed' THEN 0 WHEN 'edgar' THEN 1 ELSE 2 END`;

function selectionSql(root: string, s: InputSelection): Sql {
  const where: Sql[] = [];
  if (s.tickers) where.push(s.tickers.length === 0 ? rawSql('false') : sql`ticker IN ${sqlValueList(s.tickers)}`);
  if (s.kind) where.push(sql`kind = ${s.kind}`);
  const filter = where.length ? sql`WHERE ${joinSql(where, ' AND ')}` : rawSql('');
  const limit = s.limit !== undefined ? sql`LIMIT ${Math.trunc(s.limit)}` : rawSql('');
  const offset = s.offset ? sql`OFFSET ${Math.trunc(s.offset)}` : rawSql('');
  return sql`SELECT * FROM (
      SELECT * FROM ${readTableSql(root, 'listings', s.market)} ${filter}
      QUALIFY row_number() OVER (PARTITION BY market, ticker ORDER BY ${rawSql(SOURCE_RANK)}) = 1
    ) ORDER BY market, ticker ${limit} ${offset}`;
}

/** A lake table narrowed to the selected tickers, with a constant ticker range the Parquet scan can prune row groups with. */
function narrowedSql(
  root: string,
  table: 'fundamentals' | 'prices' | 'exposures' | 'splits',
  columns: string,
  market: string | undefined,
  range: [string, string],
  sel: string,
  where: Sql,
): Sql {
  return sql`SELECT t.market, t.ticker, ${rawSql(columns)} FROM ${readTableSql(root, table, market)} t
    SEMI JOIN ${rawSql(sel)} s ON s.market = t.market AND s.ticker = t.ticker
    WHERE t.ticker BETWEEN ${range[0]} AND ${range[1]} AND ${where}`;
}

const FUNDAMENTAL_COLUMNS = `period_end, filed_on, source_ref, currency, total_assets, total_debt, cash_and_equivalents, interest_bearing_investments,
  accounts_receivable, total_revenue, interest_income, shares_outstanding, dividends_per_share, figure_sources`;

const EXPOSURE_COLUMNS = 'as_of, activity, revenue_share, source_ref, evidence, involvement';

/** The selected listing's own columns, read once per listing. */
interface ListingRow {
  /** The listing's place in the selection (market, ticker order). */
  ord: number;
  market: string;
  ticker: string;
  name: string;
  exchange_mic: string | null;
  currency: string;
  sic: string | null;
  kind: string;
  heter_iska: boolean | null;
  operates_on_shabbat: boolean | null;
  jewish_controlled: boolean | null;
  domicile: string | null;
  data_source: string;
  synthetic: boolean;
}

/** A staged filing's columns, read once per filing: a filing holds for several dates. */
interface FilingRow {
  /** The filing's id in the staged filings. */
  fid: number;
  period_end: string | null;
  filed_on: string | null;
  source_ref: string | null;
  f_currency: string | null;
  total_assets: number | null;
  total_debt: number | null;
  cash_and_equivalents: number | null;
  interest_bearing_investments: number | null;
  accounts_receivable: number | null;
  total_revenue: number | null;
  interest_income: number | null;
  shares_outstanding: number | null;
  dividends_per_share: number | null;
  figure_sources: string | null;
}

/** What one (listing, date) adds: the filing in force and the price. */
interface DateRow {
  ord: number;
  date: string;
  /** The filing in force on the date; null before the first. */
  fid: number | null;
  price_date: string | null;
  close: number | null;
  split_factor: number;
}

/**
 * The factor that puts a share count on a price's split basis: the product of the ratios of the
 * splits after the shares were reported (the filing date) up to the date the price is adjusted
 * through (its own date when the price is as traded). 1 when no split falls between them.
 * See docs/data/real-companies.md, "One split basis".
 */
function splitFactorSql(t: (name: string) => string, market: string, ticker: string, sharesDate: string, priceBasisDate: string): string {
  return `coalesce((SELECT product(s.ratio ORDER BY s.ex_date) FROM ${t('spl')} s WHERE s.market = ${market} AND s.ticker = ${ticker}
      AND s.ex_date > ${sharesDate} AND s.ex_date <= ${priceBasisDate}), 1)`;
}

function mainSql(t: (name: string) => string): string {
  return `WITH
    spot AS (SELECT g.market, g.ticker, g.date, p.date AS price_date, p.close, p.split_adjusted_through
      FROM ${t('grid')} g ASOF LEFT JOIN ${t('px')} p ON p.market = g.market AND p.ticker = g.ticker AND p.date <= g.date),
    fin AS (SELECT g.market, g.ticker, g.date, f.* EXCLUDE (market, ticker)
      FROM ${t('grid')} g ASOF LEFT JOIN ${t('fund')} f ON f.market = g.market AND f.ticker = g.ticker AND f.filed_on <= g.date)
    SELECT l.ord, strftime(date, '%Y-%m-%d') AS date, fin.fid, strftime(spot.price_date, '%Y-%m-%d') AS price_date, spot.close,
      ${splitFactorSql(t, 'spot.market', 'spot.ticker', 'fin.filed_on', 'coalesce(spot.split_adjusted_through, spot.price_date)')} AS split_factor
    FROM ${t('grid')} g JOIN ${t('sel')} l USING (market, ticker)
    JOIN spot USING (market, ticker, date) JOIN fin USING (market, ticker, date)
`;
}

/** Each selected listing's month-end caps in month order, dates as numbers (no strings to decode). */
function capsSql(t: (name: string) => string): string {
  return `SELECT s.ord, (year(c.month) * 12 + month(c.month) - 1)::INTEGER AS month_index,
      (year(c.date) * 10000 + month(c.date) * 100 + day(c.date))::INTEGER AS day, c.cap
    FROM ${t('caps')} c JOIN ${t('sel')} s USING (market, ticker)
    ORDER BY s.ord, c.month`;
}

/** Month-end caps by the listing's `ord`. */
async function capsByListing(connection: DuckDBConnection, t: (name: string) => string): Promise<Map<number, MonthEndCap[]>> {
  const result = await connection.runAndReadAll(capsSql(t));
  const byListing = new Map<number, MonthEndCap[]>();
  // A result without rows has no columns either.
  if (result.currentRowCount === 0) return byListing;
  const [ords, months, days, caps] = result.getColumnsJS() as [number[], number[], number[], Array<number | null>];
  let list: MonthEndCap[] = [];
  for (let i = 0; i < ords.length; i += 1) {
    if (i === 0 || ords[i] !== ords[i - 1]) byListing.set(ords[i]!, (list = []));
    list.push({ monthIndex: months[i]!, day: days[i]!, cap: caps[i]! });
  }
  return byListing;
}

function listingsSql(t: (name: string) => string): string {
  return `SELECT ord, market, ticker, name, exchange_mic, currency, sic, kind, heter_iska, operates_on_shabbat, jewish_controlled, domicile, data_source,
      coalesce(synthetic, false) AS synthetic
    FROM ${t('sel')}`;
}

function filingsSql(t: (name: string) => string): string {
  return `SELECT fid, strftime(period_end, '%Y-%m-%d') AS period_end, strftime(filed_on, '%Y-%m-%d') AS filed_on, source_ref, currency AS f_currency,
      total_assets, total_debt, cash_and_equivalents, interest_bearing_investments, accounts_receivable, total_revenue, interest_income,
      shares_outstanding, dividends_per_share, figure_sources
    FROM ${t('fund')} WHERE fid IN (SELECT fid FROM ${t('rows')})`;
}

/** The exposure report in force per (listing, date, activity), by id: a report holds for several dates. */
function exposuresSql(t: (name: string) => string): string {
  return `WITH pairs AS (SELECT g.market, g.ticker, l.ord, g.date, a.activity
      FROM ${t('grid')} g JOIN ${t('sel')} l USING (market, ticker)
      JOIN (SELECT DISTINCT market, ticker, activity FROM ${t('exp')}) a USING (market, ticker))
    SELECT p.ord, strftime(p.date, '%Y-%m-%d') AS date, p.activity, e.eid
    FROM pairs p ASOF JOIN ${t('exp')} e ON e.market = p.market AND e.ticker = p.ticker AND e.activity = p.activity AND e.as_of <= p.date`;
}

function exposureReportsSql(t: (name: string) => string): string {
  return `SELECT eid, activity, revenue_share, strftime(as_of, '%Y-%m-%d') AS as_of, source_ref, evidence, involvement
    FROM ${t('exp')} WHERE eid IN (SELECT eid FROM ${t('held')})`;
}

/** `figure_sources` key of a proven lower bound of the (null) interest income (docs/data/sources.md, "edgar"). */
const INTEREST_INCOME_AT_LEAST = 'interest_income_at_least';

/** `figure_sources` keys ending so, with the value `true`, mark the column before it as an estimate (docs/data/sources.md, "edgar"). */
const ESTIMATED_SUFFIX = '_estimated';

/** The columns a `figure_sources` object marks as estimates. */
function estimatedColumns(parsed: Record<string, unknown>): string[] {
  return Object.keys(parsed)
    .filter((k) => k.endsWith(ESTIMATED_SUFFIX) && parsed[k] === true)
    .map((k) => k.slice(0, -ESTIMATED_SUFFIX.length));
}

/** The `figure_sources` JSON object (docs/warehouse.md), when present and well formed: its texts, a lower bound of interest income, the estimated figures. */
function figureSourcesOf(json: string | null): Pick<Fundamentals, 'figureSources' | 'interestIncomeAtLeast' | 'estimatedFigures'> {
  if (json === null) return {};
  try {
    const parsed: unknown = JSON.parse(json);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const floor = (parsed as Record<string, unknown>)[INTEREST_INCOME_AT_LEAST];
    const estimated = estimatedColumns(parsed as Record<string, unknown>);
    return {
      ...(estimated.length > 0 ? { estimatedFigures: estimated } : {}),
      figureSources: Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string')),
      ...(typeof floor === 'number' && Number.isFinite(floor) ? { interestIncomeAtLeast: floor } : {}),
    };
  } catch {
    return {};
  }
}

function fundamentalsOf(row: FilingRow, listingCurrency: string): Fundamentals | null {
  if (row.filed_on === null || row.period_end === null) return null;
  return {
    periodEnd: row.period_end,
    filedOn: row.filed_on,
    sourceRef: row.source_ref ?? '',
    currency: row.f_currency ?? listingCurrency,
    totalAssets: row.total_assets,
    totalDebt: row.total_debt,
    cashAndEquivalents: row.cash_and_equivalents,
    interestBearingInvestments: row.interest_bearing_investments,
    accountsReceivable: row.accounts_receivable,
    totalRevenue: row.total_revenue,
    interestIncome: row.interest_income,
    sharesOutstanding: row.shares_outstanding,
    dividendsPerShare: row.dividends_per_share,
    ...figureSourcesOf(row.figure_sources),
  };
}

const EVIDENCE: ReadonlySet<string> = new Set<ExposureEvidence>([
  'reported',
  'filing_concept',
  'retired_concept',
  'filing_dimension',
  'curated',
]);

/** The evidence of an exposure row: null (sources that predate the column) reads as reported. */
function exposureEvidence(value: unknown): ExposureEvidence | undefined {
  return typeof value === 'string' && EVIDENCE.has(value) && value !== 'reported' ? (value as ExposureEvidence) : undefined;
}

/** The involvement of an exposure row: null (not reported, or a source that predates the column) stays null. */
function exposureInvolvement(value: unknown): Involvement | null {
  return typeof value === 'string' && (INVOLVEMENTS as readonly string[]).includes(value) ? (value as Involvement) : null;
}

/** What every input of one listing shares: built once per listing, not once per date. */
interface ListingParts {
  listing: ScreeningInput['listing'];
  currency: string;
  synthetic: boolean;
  dataSource: string;
}

function listingPartsOf(row: ListingRow): ListingParts {
  return {
    listing: {
      market: row.market,
      ticker: row.ticker,
      name: row.name,
      exchangeMic: row.exchange_mic ?? '',
      currency: row.currency,
      sic: row.sic,
      kind: row.kind === 'fund' ? 'fund' : 'stock',
      heterIska: row.heter_iska,
      operatesOnShabbat: row.operates_on_shabbat,
      jewishControlled: row.jewish_controlled,
      domicile: row.domicile,
    },
    currency: row.currency,
    synthetic: row.synthetic,
    dataSource: row.synthetic ? `${row.data_source} (synthetic sample universe)` : row.data_source,
  };
}

/** A staged exposure report's columns. */
interface ExposureReportRow {
  eid: number;
  activity: string;
  revenue_share: unknown;
  as_of: string;
  source_ref: string | null;
  evidence: unknown;
  involvement: unknown;
}

/**
 * A revenue-accounting row: dated in the lake by the day the filing was filed, its share is of
 * the revenue of the period its source names last (`… 2024-01-01..2024-12-31`), which is the
 * date the accounting is as of.
 */
function accountingOf(e: ExposureReportRow): RevenueAccounting {
  const sourceRef = String(e.source_ref ?? '');
  const periodEnd = /\.\.(\d{4}-\d{2}-\d{2})$/.exec(sourceRef)?.[1];
  return { share: Number(e.revenue_share), asOf: periodEnd ?? String(e.as_of), sourceRef };
}

function exposureOf(e: ExposureReportRow): ActivityExposure {
  return {
    activity: String(e.activity) as ActivityCode,
    revenueShare: Number(e.revenue_share),
    asOf: String(e.as_of),
    sourceRef: String(e.source_ref ?? ''),
    evidence: exposureEvidence(e.evidence),
    involvement: exposureInvolvement(e.involvement),
  };
}

function inputOf(
  row: DateRow,
  parts: ListingParts,
  fundamentals: Fundamentals | null,
  averages: MarketCapAverages,
  exposures: ActivityExposure[],
  activitiesReviewedOn: string | null,
  revenueAccounted: RevenueAccounting | null,
): ScreeningInput {
  const shares = fundamentals?.sharesOutstanding ?? null;
  return {
    screeningDate: row.date,
    listing: parts.listing,
    fundamentals,
    marketCap: {
      spot: row.close !== null && shares !== null ? row.close * shares * row.split_factor : null,
      spotPriceDate: row.price_date,
      ...averages,
    },
    exposures,
    activitiesReviewedOn,
    revenueAccounted,
    synthetic: parts.synthetic,
    dataSource: parts.dataSource,
  };
}

/** Row objects built from the result's columns (measured faster than `getRowObjectsJS` on wide results). */
function rowObjects<T>(result: DuckDBResultReader): T[] {
  const names = result.columnNames();
  const columns = result.getColumnsJS();
  const rows: T[] = new Array<T>(result.currentRowCount);
  for (let i = 0; i < rows.length; i += 1) {
    const row: Record<string, unknown> = {};
    for (let c = 0; c < names.length; c += 1) row[names[c]!] = columns[c]![i];
    rows[i] = row as T;
  }
  return rows;
}

async function stageSelection(
  connection: DuckDBConnection,
  root: string,
  s: InputSelection,
  dates: readonly string[],
  t: (n: string) => string,
): Promise<boolean> {
  await runSql(
    connection,
    sql`CREATE TEMP TABLE ${rawSql(t('sel'))} AS SELECT *, (row_number() OVER (ORDER BY market, ticker))::INTEGER AS ord FROM (${selectionSql(root, s)})`,
  );
  const bounds = (await connection.runAndReadAll(`SELECT min(ticker) AS lo, max(ticker) AS hi FROM ${t('sel')}`)).getRowObjectsJS()[0];
  if (!bounds || bounds.lo === null) return false;
  const range: [string, string] = [String(bounds.lo), String(bounds.hi)];
  const dateList = sql`[${joinSql(dates.map(sqlDate), ', ')}]`;
  // A listing enters the grid from its first trading day: nothing is screened before it was listed.
  await runSql(
    connection,
    sql`CREATE TEMP TABLE ${rawSql(t('grid'))} AS SELECT market, ticker, date
      FROM (SELECT market, ticker, listed_on, unnest(${dateList}) AS date FROM ${rawSql(t('sel'))})
      WHERE listed_on IS NULL OR listed_on <= date`,
  );
  const first = sqlDate(dates.reduce((a, b) => (a < b ? a : b)));
  const last = sqlDate(dates.reduce((a, b) => (a > b ? a : b)));
  const narrow = (table: 'fundamentals' | 'prices' | 'exposures' | 'splits', columns: string, where: Sql): Sql =>
    narrowedSql(root, table, columns, s.market, range, t('sel'), where);
  const create = (name: string, body: Sql): Promise<unknown> => runSql(connection, sql`CREATE TEMP TABLE ${rawSql(t(name))} AS ${body}`);
  // Filings of the last 40 months before the first date (shares for month-end caps), plus the one before them.
  const cutoff = sql`${first} - INTERVAL 40 MONTH`;
  await create(
    'fund',
    sql`SELECT *, (row_number() OVER ())::INTEGER AS fid FROM (
      SELECT * FROM (${narrow('fundamentals', FUNDAMENTAL_COLUMNS, sql`filed_on <= ${last}`)})
      QUALIFY filed_on > ${cutoff} OR filed_on = max(filed_on) FILTER (WHERE filed_on <= ${cutoff}) OVER (PARTITION BY market, ticker))`,
  );
  // Prices from 37 months before the first date: enough for the 36-month average.
  await create('px', narrow('prices', 'date, close, split_adjusted_through', sql`date > ${first} - INTERVAL 37 MONTH AND date <= ${last}`));
  await create('spl', narrow('splits', 'ex_date, ratio', rawSql('ratio > 0')));
  await create(
    'exp',
    sql`SELECT *, (row_number() OVER ())::INTEGER AS eid FROM (${narrow('exposures', EXPOSURE_COLUMNS, sql`as_of <= ${last}`)})`,
  );
  // Month-end market caps: the last close of each month × shares of the latest filing known that day, on one split basis.
  await connection.run(`CREATE TEMP TABLE ${t('caps')} AS
    WITH j AS (
      SELECT p.market, p.ticker, p.month, p.date, p.close, p.split_adjusted_through, f.shares_outstanding, f.filed_on
      FROM (SELECT market, ticker, date_trunc('month', date)::DATE AS month, max(date) AS date, arg_max(close, date) AS close,
              arg_max(split_adjusted_through, date) AS split_adjusted_through FROM ${t('px')} GROUP BY ALL) p
      ASOF LEFT JOIN ${t('fund')} f ON f.market = p.market AND f.ticker = p.ticker AND f.filed_on <= p.date
    )
    SELECT j.market, j.ticker, j.month, j.date,
      j.close * j.shares_outstanding * ${splitFactorSql(t, 'j.market', 'j.ticker', 'j.filed_on', 'coalesce(j.split_adjusted_through, j.date)')} AS cap
    FROM j`);
  return true;
}

/**
 * Screening inputs of the selected listings on each date, point in time: the latest filing
 * filed on or before the date, the latest close on or before it × that filing's shares
 * (spot market cap), trailing 24/36-month averages of month-end market caps, and the latest
 * exposure per activity known on the date. Ordered by market, ticker, date; a (listing, date)
 * before the listing's first trading day is left out.
 */
export async function loadScreeningInputsForDates(
  connection: DuckDBConnection,
  dataDir: string,
  query: MultiDateInputQuery,
): Promise<ScreeningInput[]> {
  for (const date of query.dates) if (!DATE.test(date)) throw new Error(`screening date '${date}' is not YYYY-MM-DD`);
  if (query.dates.length === 0) return [];
  const suffix = randomBytes(4).toString('hex');
  const t = (name: string): string => sqlIdent(`si_${name}_${suffix}`);
  // DuckDB plans an ASOF join as a nested loop when it estimates a small side; for the month-end
  // caps it misjudges, and the loop is many times slower (docs/benchmarks/figures-behind-code.md).
  await connection.run('SET asof_loop_join_threshold = 0');
  try {
    if (!(await stageSelection(connection, lakeRoot(dataDir), query, query.dates, t))) return [];
    // Staged first, so that only the filings and exposure reports some date uses are read (one date reads one of each).
    await connection.run(`CREATE TEMP TABLE ${t('rows')} AS ${mainSql(t)}`);
    await connection.run(`CREATE TEMP TABLE ${t('held')} AS ${exposuresSql(t)}`);
    const rows = rowObjects<DateRow>(await connection.runAndReadAll(`SELECT * FROM ${t('rows')} ORDER BY ord, date`));
    const listings = new Map(rowObjects<ListingRow>(await connection.runAndReadAll(listingsSql(t))).map((l) => [l.ord, listingPartsOf(l)]));
    const filings = new Map(rowObjects<FilingRow>(await connection.runAndReadAll(filingsSql(t))).map((f) => [f.fid, f]));
    const caps = await capsByListing(connection, t);
    // Each report is read and built once; the dates it is in force share it (inputs are read, never changed).
    // A report of no screened activity only dates the review; a revenue-accounting row is the filing's accounting.
    const reports = new Map<number, string | ActivityExposure | { accounting: RevenueAccounting }>(
      rowObjects<ExposureReportRow>(await connection.runAndReadAll(exposureReportsSql(t))).map((e) => [
        e.eid,
        e.activity === NO_SCREENED_ACTIVITY
          ? String(e.as_of)
          : e.activity === REVENUE_ACCOUNTED_ACTIVITY
            ? { accounting: accountingOf(e) }
            : exposureOf(e),
      ]),
    );
    const byKey = new Map<string, ActivityExposure[]>();
    const reviewedOn = new Map<string, string>();
    const accountedOn = new Map<string, RevenueAccounting>();
    for (const e of rowObjects<{ ord: number; date: string; eid: number }>(
      await connection.runAndReadAll(`SELECT ord, date, eid FROM ${t('held')} ORDER BY ord, date, activity`),
    )) {
      const key = `${e.ord}|${e.date}`;
      const report = reports.get(e.eid)!;
      if (typeof report === 'string') {
        reviewedOn.set(key, report);
        continue;
      }
      if ('accounting' in report) {
        accountedOn.set(key, report.accounting);
        continue;
      }
      const list = byKey.get(key) ?? [];
      list.push(report);
      byKey.set(key, list);
    }
    // A filing's fundamentals are one object for every date it is in force (inputs are read, never changed).
    const fundamentalsById = new Map<number, Fundamentals | null>();
    return rows.map((row) => {
      const parts = listings.get(row.ord)!;
      let fundamentals: Fundamentals | null = null;
      if (row.fid !== null) {
        fundamentals = fundamentalsById.get(row.fid) ?? null;
        if (!fundamentalsById.has(row.fid))
          fundamentalsById.set(row.fid, (fundamentals = fundamentalsOf(filings.get(row.fid)!, parts.currency)));
      }
      const key = `${row.ord}|${row.date}`;
      const averages = marketCapAveragesOn(caps.get(row.ord) ?? [], row.date);
      return inputOf(row, parts, fundamentals, averages, byKey.get(key) ?? [], reviewedOn.get(key) ?? null, accountedOn.get(key) ?? null);
    });
  } finally {
    for (const name of ['sel', 'grid', 'fund', 'px', 'spl', 'exp', 'caps', 'rows', 'held'])
      await connection.run(`DROP TABLE IF EXISTS ${t(name)}`);
  }
}

/** Screening inputs of the selected listings on one date (see `loadScreeningInputsForDates`). */
export async function loadScreeningInputs(connection: DuckDBConnection, dataDir: string, query: InputQuery): Promise<ScreeningInput[]> {
  const { date, ...selection } = query;
  return loadScreeningInputsForDates(connection, dataDir, { ...selection, dates: [date] });
}
