import { withDuckDB } from '../../warehouse/duckdb.ts';
import { lakeRoot } from '../../warehouse/lake-paths.ts';
import { readSql, sql } from '../../warehouse/sql.ts';

/** A stock listing of the lake with the total assets of its latest filing filed by a date. */
export interface LakeStock {
  ticker: string;
  name: string;
  sic: string;
  sicDescription: string | null;
  /** Total assets in the listing currency; the filing is the latest period end filed by the date. */
  totalAssets: number;
  /** `YYYY-MM-DD`. */
  periodEnd: string;
}

/**
 * Every stock of `market` with a SIC code and at least one filing (total assets reported) filed by
 * `asOf`, read straight from the lake's Parquet files and picked in plain code, so a test can check
 * the forensic reads against something that does not share their SQL. The lake must hold one data
 * source per ticker (a sample lake does).
 */
export async function readLakeStocks(dataDir: string, market: string, asOf: string): Promise<LakeStock[]> {
  const root = lakeRoot(dataDir);
  const [listings, filings] = await withDuckDB(':memory:', {}, async (c) => [
    (
      await readSql(
        c,
        sql`SELECT ticker, name, sic, sic_description FROM read_parquet(${`${root}/listings/market=${market}/**/*.parquet`})
          WHERE kind = 'stock' AND sic IS NOT NULL`,
      )
    ).getRowObjectsJS(),
    (
      await readSql(
        c,
        sql`SELECT ticker, strftime(period_end, '%Y-%m-%d') AS period_end, strftime(filed_on, '%Y-%m-%d') AS filed_on, total_assets
          FROM read_parquet(${`${root}/fundamentals/market=${market}/**/*.parquet`}) WHERE total_assets IS NOT NULL`,
      )
    ).getRowObjectsJS(),
  ]);
  const latest = new Map<string, { periodEnd: string; totalAssets: number }>();
  for (const f of filings) {
    if (String(f.filed_on) > asOf) continue;
    const seen = latest.get(String(f.ticker));
    if (!seen || String(f.period_end) > seen.periodEnd)
      latest.set(String(f.ticker), { periodEnd: String(f.period_end), totalAssets: Number(f.total_assets) });
  }
  return listings
    .filter((l) => latest.has(String(l.ticker)))
    .map((l) => ({
      ticker: String(l.ticker),
      name: String(l.name),
      sic: String(l.sic),
      sicDescription: l.sic_description === null ? null : String(l.sic_description),
      ...latest.get(String(l.ticker))!,
    }))
    .sort((a, b) => a.ticker.localeCompare(b.ticker));
}
