import { listValue, type DuckDBListValue } from '@duckdb/node-api';
import { joinSql, rawSql, sql, sqlDate, type Sql } from '../../warehouse/sql.ts';
import { emptyRowsSql } from '../../warehouse/lake-sql.ts';
import { SPLITS_SCHEMA } from '../../warehouse/lake-schemas.ts';
import {
  EXPOSURE_RULES,
  FAITH_FUND_THEMES,
  FUND_THEMES,
  INDUSTRIES,
  LEGAL_SUFFIX,
  NAME_WORDS,
  NEAR_THRESHOLDS,
  SYLLABLES,
} from './sample-catalogs.ts';

/**
 * The sample universe as SQL. Every value is a pure function of (seed, market, ticker index,
 * period) through DuckDB's `hash`, so any chunk generates on its own, identically on every
 * run, and the rows never pass through JavaScript. This generator is SQL by nature, which is
 * why it lives beside its source rather than in `warehouse/`.
 */

export interface SamplePartParams {
  seed: number;
  marketKey: string;
  /** First and one-past-last ticker index of the part; stocks are [0, stocks), funds [stocks, stocks + funds). */
  lo: number;
  hi: number;
  stocks: number;
  funds: number;
  /** US stock count: foreign funds hold some US stocks. */
  usStocks: number;
  asOf: string;
  unitsPerUsd: number;
  currency: string;
  mics: readonly string[];
}

/** Macros the generator uses: uniform and normal draws, fictional tickers, listing dates. */
export const SAMPLE_MACROS: readonly string[] = [
  `CREATE OR REPLACE TEMP MACRO s_u(seed, mkt, idx, tag, k) AS ((hash(seed, mkt, idx, tag, k) >> 11)::DOUBLE / 9007199254740992.0)`,
  `CREATE OR REPLACE TEMP MACRO s_n(seed, mkt, idx, tag, k) AS
     (sqrt(-2 * ln(greatest(s_u(seed, mkt, idx, tag || '.a', k), 1e-12))) * cos(2 * pi() * s_u(seed, mkt, idx, tag || '.b', k)))`,
  // A bijection of the index onto 4-letter strings (7919 is coprime with 26^4): unique per market.
  `CREATE OR REPLACE TEMP MACRO s_code(seed, mkt, idx) AS ((idx::BIGINT * 7919 + (hash(seed, mkt, 'ticker') % 456976)::BIGINT) % 456976)`,
  `CREATE OR REPLACE TEMP MACRO s_ticker(seed, mkt, idx) AS (
     chr(65 + ((s_code(seed, mkt, idx) // 17576) % 26)::INT) || chr(65 + ((s_code(seed, mkt, idx) // 676) % 26)::INT) ||
     chr(65 + ((s_code(seed, mkt, idx) // 26) % 26)::INT) || chr(65 + (s_code(seed, mkt, idx) % 26)::INT))`,
  // 62% listed before the history starts, the rest spread over 2009-2025.
  `CREATE OR REPLACE TEMP MACRO s_listed(seed, mkt, idx) AS (CASE WHEN s_u(seed, mkt, idx, 'ipo', 0) < 0.62
     THEN DATE '1985-01-01' + floor(s_u(seed, mkt, idx, 'ipo', 0) / 0.62 * 8760)::INT
     ELSE DATE '2009-01-01' + floor((s_u(seed, mkt, idx, 'ipo', 0) - 0.62) / 0.38 * 6200)::INT END)`,
  `CREATE OR REPLACE TEMP MACRO s_quarter_end(q) AS (last_day(make_date(2009 + (3 * q + 2) // 12, ((3 * q + 2) % 12 + 1)::INT, 1)))`,
  `CREATE OR REPLACE TEMP MACRO s_month_end(m) AS (last_day(make_date(2009 + m // 12, (m % 12 + 1)::INT, 1)))`,
];

const list = (values: readonly string[]): DuckDBListValue => listValue([...values]);

/** 1,000 industry slots in proportion to the industries' weights, so one draw picks an industry. */
function industrySlots(): number[] {
  const total = INDUSTRIES.reduce((s, i) => s + i.weight, 0);
  const slots: number[] = [];
  INDUSTRIES.forEach((industry, k) => {
    const n = Math.round((industry.weight / total) * 1000);
    for (let j = 0; j < n; j += 1) slots.push(k + 1);
  });
  return slots;
}

const INDUSTRY_ROWS = INDUSTRIES.map(
  (i, k) => sql`(${k + 1}, ${i.sic}, ${i.title}, ${i.group}, ${i.leverage}, ${list(NAME_WORDS[i.group])})`,
);
const INDUSTRY_TABLE = sql`(VALUES ${joinSql(INDUSTRY_ROWS, ', ')}) AS ind(k, sic, title, grp, leverage, words)`;
const SLOTS = industrySlots();

const NULL_BOOLEAN = rawSql('CAST(NULL AS BOOLEAN)');

/** The (seed, market, ticker index) arguments every per-company draw starts with. */
function seedArgs(p: SamplePartParams): Sql {
  return sql`${p.seed}, ${p.marketKey}, idx`;
}

function monthsThrough(asOf: string): number {
  const [y, m] = asOf.split('-').map(Number) as [number, number];
  return (y - 2009) * 12 + m;
}

/** Companies and funds of a part, one row each, with every per-company draw the tables need. */
function companiesCte(p: SamplePartParams): Sql {
  const s = seedArgs(p);
  return sql`co AS (
    SELECT idx, idx >= ${p.stocks} AS is_fund, s_ticker(${s}) AS ticker,
      s_listed(${s}) AS listed_on, ind.*,
      ln(10) * (8.3 + 1.1 * s_n(${s}, 'size', 0)) + CASE WHEN ind.grp = 'bank' THEN 1.5 ELSE 0 END + ln(${p.unitsPerUsd}) AS la0,
      least(0.06, greatest(-0.04, 0.012 + 0.02 * s_n(${s}, 'growth', 0))) AS growth,
      CASE WHEN s_u(${s}, 'levnear', 0) < 0.12 THEN 0.30 + 0.06 * s_u(${s}, 'levnear2', 0)
           ELSE least(0.95, ind.leverage * exp(0.6 * s_n(${s}, 'lev', 0))) END AS debt_ratio,
      0.01 + 0.25 * pow(s_u(${s}, 'cash', 0), 2) AS cash_ratio,
      CASE WHEN s_u(${s}, 'ibi', 0) < 0.4 THEN 0 ELSE 0.15 * pow(s_u(${s}, 'ibi2', 0), 2) END AS ibi_ratio,
      0.02 + 0.3 * pow(s_u(${s}, 'ar', 0), 1.5) AS ar_ratio,
      CASE WHEN s_u(${s}, 'zero_rev', 0) < 0.02 OR (ind.grp = 'biotech' AND s_u(${s}, 'zero_rev', 0) < 0.3) THEN 0
           WHEN ind.grp IN ('retail', 'grocery', 'restaurant') THEN 1.2 + 1.5 * s_u(${s}, 'turn', 0)
           WHEN ind.grp IN ('bank', 'insurer') THEN 0.05 + 0.06 * s_u(${s}, 'turn', 0)
           WHEN ind.grp = 'reit' THEN 0.08 + 0.06 * s_u(${s}, 'turn', 0)
           ELSE 0.2 + 1.1 * s_u(${s}, 'turn', 0) END AS turnover,
      0.07 + 0.08 * s_n(${s}, 'margin', 0) AS margin,
      CASE WHEN s_u(${s}, 'distress', 0) < 0.03 THEN 1.05 + 0.35 * s_u(${s}, 'distress2', 0) ELSE 0.15 + 0.3 * s_u(${s}, 'liab', 0) END AS liab_extra,
      exp(ln(25) + 0.8 * s_n(${s}, 'px', 0)) * ${p.unitsPerUsd} AS price0,
      0.5 + 2.5 * s_u(${s}, 'pb', 0) AS price_to_assets,
      0.04 + 0.08 * s_u(${s}, 'vol', 0) AS vol,
      s_u(${s}, 'div', 0) < 0.45 AS pays_dividend,
      CASE WHEN s_u(${s}, 'late', 0) < 0.1 THEN 0.25 ELSE 0.01 END AS late_rate,
      CASE WHEN s_u(${s}, 'gaps', 0) < 0.05 THEN 0.2 ELSE 0.005 END AS missing_rate,
      0.01 * s_n(${s}, 'dilution', 0) AS share_drift,
      -- forensic inputs: PP&E intensity by industry, depreciation rate, long-term share of debt, long-term securities
      CASE WHEN ind.grp IN ('utility', 'energy', 'telecom', 'hotel', 'reit') THEN 0.35 + 0.3 * s_u(${s}, 'ppe', 0)
           WHEN ind.grp IN ('bank', 'insurer') THEN 0.01 + 0.02 * s_u(${s}, 'ppe', 0)
           WHEN ind.grp IN ('tech', 'biotech', 'general') THEN 0.03 + 0.12 * s_u(${s}, 'ppe', 0)
           ELSE 0.12 + 0.3 * s_u(${s}, 'ppe', 0) END AS ppe_ratio,
      0.04 + 0.1 * s_u(${s}, 'dep', 0) AS dep_rate,
      0.55 + 0.4 * s_u(${s}, 'ltd', 0) AS lt_share,
      CASE WHEN s_u(${s}, 'lti', 0) < 0.5 THEN 0 ELSE 0.12 * s_u(${s}, 'lti2', 0) END AS lti_ratio
    FROM range(${p.lo}, ${p.hi}) t(idx)
    JOIN ${INDUSTRY_TABLE} ON ind.k = ${list(SLOTS.map(String))}[1 + floor(s_u(${s}, 'industry', 0) * ${SLOTS.length})::INT]::INT
    WHERE s_listed(${s}) <= ${sqlDate(p.asOf)}
  )`;
}

/** Listings: fictional syllable names, real SIC titles, the market's real MICs. */
export function listingsSql(p: SamplePartParams): Sql {
  const s = seedArgs(p);
  const syl = (tag: string): Sql => sql`${list(SYLLABLES)}[1 + floor(s_u(${s}, ${tag}, 0) * ${SYLLABLES.length})::INT]`;
  const brand = sql`(upper(${syl('n1')}[1]) || ${syl('n1')}[2:] || ${syl('n2')} || CASE WHEN s_u(${s}, 'n3p', 0) < 0.4 THEN ${syl('n3')} ELSE '' END)`;
  const themes = sql`${list(FUND_THEMES)}[1 + CASE WHEN s_u(${s}, 'faith', 0) < ${p.marketKey === 'us' ? 0.25 : 0.35}
    THEN floor(s_u(${s}, 'theme', 0) * ${FAITH_FUND_THEMES})::INT
    ELSE ${FAITH_FUND_THEMES} + floor(s_u(${s}, 'theme', 0) * ${FUND_THEMES.length - FAITH_FUND_THEMES})::INT END]`;
  const israel = p.marketKey === 'il';
  const heterIska = sql`CASE WHEN is_fund THEN NULL WHEN grp IN ('bank', 'insurer') THEN s_u(${s}, 'iska', 0) < 0.9
    ELSE s_u(${s}, 'iska', 0) < 0.3 END`;
  const onShabbat = sql`CASE WHEN is_fund THEN NULL
    WHEN grp IN ('hotel', 'restaurant', 'media', 'retail', 'casino', 'telecom', 'utility') THEN true
    ELSE s_u(${s}, 'shabbat', 0) < 0.2 END`;
  return sql`WITH ${companiesCte(p)}
    SELECT ${p.marketKey} AS market, ticker,
      CASE WHEN is_fund THEN ${brand} || ' ' || ${themes}
           ELSE ${brand} || ' ' || words[1 + floor(s_u(${s}, 'word', 0) * len(words))::INT] || ' ' || ${LEGAL_SUFFIX[p.marketKey] ?? 'Ltd.'} END AS name,
      ${list(p.mics)}[1 + floor(s_u(${s}, 'mic', 0) * ${p.mics.length})::INT] AS exchange_mic,
      CASE WHEN is_fund THEN 'fund' ELSE 'stock' END AS kind,
      ${p.currency} AS currency,
      CASE WHEN is_fund THEN '6726' ELSE sic END AS sic,
      CASE WHEN is_fund THEN 'Unit Inv Trust, Closed-End Mgmt Inv Office' ELSE title END AS sic_description,
      ${israel ? heterIska : NULL_BOOLEAN} AS heter_iska,
      ${israel ? onShabbat : NULL_BOOLEAN} AS operates_on_shabbat,
      -- fictional companies are domiciled in their market (its key is the ISO country code)
      ${p.marketKey.toUpperCase()} AS domicile,
      listed_on,
      'sample:v1:' || ${p.marketKey} || ':' || ticker AS source_ref,
      'sample' AS data_source, true AS synthetic
    FROM co`;
}

/** Quarterly fundamentals from 2009 (or the listing quarter) to the last filing made by `asOf`. */
export function fundamentalsSql(p: SamplePartParams): Sql {
  const quarters = Math.floor(monthsThrough(p.asOf) / 3) + 1;
  const s = seedArgs(p);
  const miss = (tag: string, value: string): Sql => sql`CASE WHEN s_u(${s}, ${tag}, q) < missing_rate THEN NULL ELSE ${rawSql(value)} END`;
  return sql`WITH ${companiesCte(p)},
    qs AS (SELECT q, s_quarter_end(q) AS period_end FROM range(0, ${quarters}) t(q)),
    rows AS (
      SELECT co.*, qs.q, qs.period_end,
        qs.period_end + CASE WHEN q % 4 = 3 THEN 60 + floor(30 * s_u(${s}, 'lag', q))::INT ELSE 30 + floor(15 * s_u(${s}, 'lag', q))::INT END
          + CASE WHEN s_u(${s}, 'late', q) < late_rate THEN 90 + floor(150 * s_u(${s}, 'late2', q))::INT ELSE 0 END AS filed_on,
        exp(la0 + growth * q + 0.08 * sin(q * 0.5 + 6.28 * s_u(${s}, 'phase', 0)) + 0.03 * s_n(${s}, 'assets', q)) AS assets,
        CASE WHEN q < 16 THEN 0.006 WHEN q < 52 THEN 0.004 ELSE 0.035 END AS rate
      FROM co JOIN qs ON qs.period_end >= date_trunc('quarter', co.listed_on) WHERE NOT co.is_fund
    ),
    figures AS (
      SELECT *,
        assets * greatest(0, debt_ratio + 0.04 * sin(q * 0.3 + 6.28 * s_u(${s}, 'phase2', 0)) + 0.02 * s_n(${s}, 'debt', q)) AS debt,
        assets * greatest(0.001, cash_ratio * exp(0.25 * s_n(${s}, 'cashq', q))) AS cash,
        assets * ibi_ratio * exp(0.2 * s_n(${s}, 'ibiq', q)) AS ibi,
        assets * ar_ratio * exp(0.15 * s_n(${s}, 'arq', q)) AS ar,
        assets * turnover * (1 + 0.06 * s_n(${s}, 'rev', q)) AS revenue,
        margin + 0.04 * s_n(${s}, 'marginq', q) AS margin_q,
        exp(la0 - ln(price0) + ln(price_to_assets)) * exp(share_drift * q) AS shares
      FROM rows WHERE filed_on <= ${sqlDate(p.asOf)}
    ),
    -- Long-term securities and PP&E fit in the room current assets leave: never past total assets.
    roomy AS (SELECT *, greatest(0, 0.87 - (cash + ibi + ar) / assets) AS room FROM figures),
    fixed AS (
      SELECT *, assets * least(lti_ratio, room) AS lti,
        assets * least(ppe_ratio * (0.95 + 0.1 * s_u(${s}, 'ppeq', q)), room - least(lti_ratio, room)) AS ppe,
        revenue * (0.24 + 0.3 * s_u(${s}, 'gm', 0) + 0.02 * s_u(${s}, 'gmq', q)) AS gross
      FROM roomy
    )
    SELECT ${p.marketKey} AS market, ticker, period_end, filed_on,
      'sample:v1:' || ${p.marketKey} || ':' || ticker || ':' || strftime(period_end, '%Y-%m-%d') AS source_ref,
      ${p.currency} AS currency,
      round(assets) AS total_assets,
      ${miss('m_debt', 'round(debt)')} AS total_debt,
      round(cash) AS cash_and_equivalents,
      ${miss('m_ibi', 'round(ibi)')} AS interest_bearing_investments,
      ${miss('m_ar', 'round(ar)')} AS accounts_receivable,
      round(revenue) AS total_revenue,
      ${miss('m_int', `round(CASE WHEN grp = 'bank' THEN revenue * 0.6 ELSE (cash + ibi) * rate END)`)} AS interest_income,
      ${miss('m_shares', 'round(shares)')} AS shares_outstanding,
      CASE WHEN pays_dividend AND margin_q > 0 THEN round(revenue * margin_q * 0.4 / shares, 4) ELSE 0 END AS dividends_per_share,
      round(assets * (debt_ratio + liab_extra)) AS total_liabilities,
      round(assets * (1 - debt_ratio - liab_extra)) AS total_equity,
      round(cash + ibi + ar + assets * 0.1) AS current_assets,
      round(assets * (debt_ratio + liab_extra) * 0.4) AS current_liabilities,
      round(assets * 0.06) AS inventory,
      round(assets * (1 - debt_ratio - liab_extra) * 0.6) AS retained_earnings,
      round(revenue * margin_q) AS net_income,
      round(revenue * margin_q / 0.75) AS ebit,
      round(revenue * margin_q * (1.1 + 0.2 * s_n(${s}, 'ocf', q))) AS operating_cash_flow,
      round(gross) AS gross_profit,
      round(ppe) AS ppe_net,
      round(lti) AS long_term_investments,
      ${miss('m_debt', 'round(debt * lt_share)')} AS long_term_debt,
      round(ppe * dep_rate) AS depreciation,
      -- SG&A is what gross profit leaves after operating income and depreciation (at least 2% of revenue).
      ${miss('m_sga', 'round(greatest(revenue * 0.02, gross - revenue * margin_q / 0.75 - ppe * dep_rate))')} AS sga_expense,
      'sample' AS data_source, true AS synthetic
    FROM fixed`;
}

/** Month-end closes (plus the close on `asOf`) as a random walk from the listing month; funds too. */
export function pricesSql(p: SamplePartParams): Sql {
  const months = monthsThrough(p.asOf);
  const s = seedArgs(p);
  return sql`WITH ${companiesCte(p)},
    ms AS (
      SELECT m, least(s_month_end(m), ${sqlDate(p.asOf)}) AS date FROM range(0, ${months}) t(m)
      WHERE s_month_end(m) <= ${sqlDate(p.asOf)} OR m = ${months - 1}
    ),
    mkt AS (
      SELECT m, sum(0.045 * s_n(${p.seed}, ${p.marketKey}, -1, 'market', m)) OVER (ORDER BY m) AS factor FROM range(0, ${months}) t(m)
    ),
    steps AS (
      SELECT co.idx, co.ticker, ms.m, ms.date, co.price0,
        CASE WHEN co.is_fund THEN 0.004 ELSE co.growth / 3 - co.vol * co.vol / 2 END + co.vol * s_n(${s}, 'ret', ms.m) AS step,
        mkt.factor
      FROM co JOIN ms ON ms.date >= co.listed_on JOIN mkt ON mkt.m = ms.m
    )
    SELECT ${p.marketKey} AS market, ticker, date,
      round(price0 * exp(sum(step) OVER (PARTITION BY idx ORDER BY m ROWS UNBOUNDED PRECEDING) + factor), 4) AS close,
      ${p.currency} AS currency, 'sample' AS data_source, true AS synthetic
    FROM steps`;
}

/** Yearly activity exposures by industry; some placed near the usual 5% / 10% / 33% thresholds. */
export function exposuresSql(p: SamplePartParams): Sql {
  const s = seedArgs(p);
  const rows = EXPOSURE_RULES.map(
    (r) => sql`(${r.group}, ${r.activity}, ${r.probability}, ${r.low}, ${r.high}, CAST(${r.involvement} AS VARCHAR))`,
  );
  const rules = sql`(VALUES ${joinSql(rows, ', ')}) AS r(grp, activity, probability, low, high, involvement)`;
  const lastYear = Number(p.asOf.slice(0, 4));
  return sql`WITH ${companiesCte(p)},
    exposed AS (
      SELECT co.idx, co.ticker, co.listed_on, r.activity, r.involvement,
        s_u(${s}, 'near_' || r.activity, 0) < 0.12 AS near,
        CASE WHEN s_u(${s}, 'near_' || r.activity, 0) < 0.12
             THEN ${list(NEAR_THRESHOLDS.map(String))}[1 + floor(s_u(${s}, 'thr_' || r.activity, 0) * ${NEAR_THRESHOLDS.length})::INT]::DOUBLE
               + 0.02 * (s_u(${s}, 'off_' || r.activity, 0) - 0.5)
             ELSE r.low + (r.high - r.low) * s_u(${s}, 'share_' || r.activity, 0) END AS base
      FROM co JOIN ${rules} ON r.grp = co.grp OR r.grp = 'any'
      WHERE NOT co.is_fund AND s_u(${s}, 'has_' || r.activity, 0) < r.probability
    ),
    years AS (SELECT y, make_date(y::INT, 3, 31) AS as_of FROM range(2009, ${lastYear + 1}) t(y))
    SELECT ${p.marketKey} AS market, ticker, as_of, activity,
      round(least(1, greatest(0, base * exp(CASE WHEN near THEN 0.05 ELSE 0.15 END * s_n(${s}, 'yr_' || activity, y)))), 5) AS revenue_share,
      'sample:v1:' || ${p.marketKey} || ':' || ticker || ':' || strftime(as_of, '%Y-%m-%d') AS source_ref,
      involvement, 'sample' AS data_source, true AS synthetic
    FROM exposed JOIN years ON years.as_of >= exposed.listed_on AND years.as_of <= ${sqlDate(p.asOf)}`;
}

/** Holdings of the part's funds at each year end and the latest quarter end, weights summing to at most 1. */
export function fundHoldingsSql(p: SamplePartParams): Sql {
  const s = seedArgs(p);
  const lastQ = Math.floor(monthsThrough(p.asOf) / 3) - 1;
  const foreignShare = p.marketKey === 'us' ? 0 : 0.25;
  return sql`WITH ${companiesCte(p)},
    dates AS (
      SELECT DISTINCT as_of FROM (
        SELECT s_quarter_end(q) AS as_of FROM range(3, ${lastQ + 1}, 4) t(q)
        UNION ALL SELECT s_quarter_end(${lastQ})
      ) WHERE as_of <= ${sqlDate(p.asOf)}
    ),
    picks AS (
      SELECT co.ticker AS fund_ticker, d.as_of, t.h AS k,
        CASE WHEN s_u(${s}, 'abroad', t.h) < ${foreignShare} THEN 'us' ELSE ${p.marketKey} END AS target,
        s_u(${s}, 'w', t.h) AS draw, 0.005 + 0.03 * s_u(${s}, 'cash_w', 0) AS cash,
        (year(d.as_of) + floor(4 * s_u(${s}, 'turnover', t.h))::INT) // 4 AS epoch
      FROM co JOIN dates d ON d.as_of >= co.listed_on
      CROSS JOIN range(0, 100) t(h)
      WHERE co.is_fund AND t.h < 20 + floor(80 * s_u(${s}, 'size', 0))
    ),
    held AS (
      SELECT *, floor(s_u(${p.seed}, ${p.marketKey}, k, concat(fund_ticker, '-', epoch), 0)
        * CASE WHEN target = 'us' THEN ${p.usStocks} ELSE ${p.stocks} END)::BIGINT AS held_idx
      FROM picks
    ),
    listed AS (
      SELECT fund_ticker, as_of, target AS market, s_ticker(${p.seed}, target, held_idx) AS ticker,
        0.05 + pow(draw, 3) AS raw, cash
      FROM held WHERE s_listed(${p.seed}, target, held_idx) <= as_of
    )
    SELECT ${p.marketKey} AS fund_market, fund_ticker, as_of, market, ticker,
      round(sum(raw / total * (1 - cash)), 6) AS weight, 'sample' AS data_source, true AS synthetic
    FROM (SELECT *, sum(raw) OVER (PARTITION BY fund_ticker, as_of) AS total FROM listed)
    GROUP BY fund_ticker, as_of, market, ticker`;
}

/** No splits: the sample's prices are as traded and its share counts never split. */
export function noSplitsSql(p: SamplePartParams): Sql {
  return sql`SELECT ${p.marketKey} AS market, * FROM (${rawSql(emptyRowsSql(SPLITS_SCHEMA))})`;
}
