import type { DuckDBConnection } from '@duckdb/node-api';
import { rawSql, runSql, sql, sqlIdent, type Sql } from '../../warehouse/sql.ts';
import { MARKET_KEYS, getMarket } from '../../common/markets.ts';
import type { SourceAdapter, SourceChunk, StageTarget } from '../../warehouse/source-contract.ts';
import { SAMPLE_PART_SIZE, parseSamplePartId, sampleMarketPlan, samplePartId, type SampleOptions } from './sample-plan.ts';
import {
  SAMPLE_MACROS,
  noSplitsSql,
  exposuresSql,
  fundHoldingsSql,
  fundamentalsSql,
  listingsSql,
  pricesSql,
  type SamplePartParams,
} from './sample-sql.ts';

export const SAMPLE_DEFAULT_SEED = 20_090_101;

const prepared = new WeakSet<DuckDBConnection>();

async function ensureMacros(connection: DuckDBConnection): Promise<void> {
  if (prepared.has(connection)) return;
  for (const statement of SAMPLE_MACROS) await connection.run(statement);
  prepared.add(connection);
}

function partParams(options: SampleOptions, chunk: SourceChunk): SamplePartParams {
  const { marketKey, part } = parseSamplePartId(chunk.id);
  const plan = sampleMarketPlan(marketKey, options.scale);
  const market = getMarket(marketKey);
  const lo = part * SAMPLE_PART_SIZE;
  return {
    seed: options.seed,
    marketKey,
    lo,
    hi: Math.min(lo + SAMPLE_PART_SIZE, plan.stocks + plan.funds),
    stocks: plan.stocks,
    funds: plan.funds,
    usStocks: sampleMarketPlan('us', options.scale).stocks,
    asOf: options.asOf,
    unitsPerUsd: market.unitsPerUsd,
    currency: market.currency,
    mics: market.exchanges.map((e) => e.mic),
  };
}

/**
 * The deterministic, seeded generator of the synthetic universe (the embedded default source).
 * Chunks are (market, ticker-index part) pairs; each generates independently of the others.
 * Every row carries `synthetic = true` and a `sample:v1:…` source reference.
 */
export function createSampleSource(options: SampleOptions): SourceAdapter {
  const stage = (build: (p: SamplePartParams) => Sql) => async (chunk: SourceChunk, target: StageTarget) => {
    await ensureMacros(target.connection);
    const rows = build(partParams(options, chunk));
    await runSql(target.connection, sql`CREATE OR REPLACE TEMP TABLE ${rawSql(sqlIdent(target.table))} AS ${rows}`);
  };
  return {
    name: 'sample',
    synthetic: true,
    async chunks(_connection, markets) {
      const keys = markets ?? MARKET_KEYS;
      const chunks: SourceChunk[] = [];
      for (const key of keys) {
        const plan = sampleMarketPlan(key, options.scale);
        const total = plan.stocks + plan.funds;
        for (let part = 0; part * SAMPLE_PART_SIZE < total; part += 1) {
          chunks.push({
            id: samplePartId(key, part),
            markets: [key],
            tickers: Math.min(SAMPLE_PART_SIZE, total - part * SAMPLE_PART_SIZE),
          });
        }
      }
      return chunks;
    },
    listings: stage(listingsSql),
    fundamentals: stage(fundamentalsSql),
    prices: stage(pricesSql),
    exposures: stage(exposuresSql),
    fundHoldings: stage(fundHoldingsSql),
    // The sample's prices are as traded and its share counts never split.
    splits: stage(noSplitsSql),
  };
}
