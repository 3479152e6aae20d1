import { withDuckDB } from '../../warehouse/duckdb.ts';
import { publishLakeFile } from '../../warehouse/lake-writer.ts';
import { rawSql, sql } from '../../warehouse/sql.ts';

/** Syllables of generated company names (accented ones included, so folding is exercised). */
const SYLLABLES = ['ka', 'lo', 'mé', 'ri', 'tu', 'xa', 'bo', 'ne', 'sy', 'qu', 'ød', 'ir', 'an', 'vel', 'dor', 'is'];

/**
 * Publishes `count` SYNTHETIC listings of one market as one lake file through the lake writer (so
 * the change journal announces it): tickers `<prefix>00000`…, names of generated syllables,
 * labelled synthetic. The same `seed` gives the same names.
 */
export async function publishSyntheticListings(
  dataDir: string,
  options: { market: string; count: number; prefix?: string; seed?: number; fileName?: string },
): Promise<void> {
  const prefix = options.prefix ?? 'L';
  const seed = options.seed ?? 1;
  const syllables = `[${SYLLABLES.map((s) => `'${s}'`).join(', ')}]`;
  // Two or three generated words and a suffix, picked by hashes of the row number: deterministic, no JavaScript per row.
  const pick = (salt: number) => `${syllables}[(1 + hash(i, k, ${seed}, ${salt}) % ${SYLLABLES.length})::BIGINT]`;
  const word = (salt: number) =>
    `array_to_string(list_transform(range((2 + hash(i, ${seed}, ${salt}) % 2)::BIGINT), k -> ${pick(salt)}), '')`;
  await withDuckDB(':memory:', {}, async (connection) => {
    await publishLakeFile(
      connection,
      dataDir,
      { table: 'listings', partitionValues: [options.market], fileName: options.fileName ?? `synthetic-listings-${seed}.parquet` },
      sql`SELECT ${prefix} || lpad(i::VARCHAR, 5, '0') AS ticker,
                 ${rawSql(word(1))} || ' ' || ${rawSql(word(2))} || ' Corp' AS name,
                 'XTST' AS exchange_mic, 'stock' AS kind, 'USD' AS currency, NULL AS sic, NULL AS sic_description,
                 NULL AS heter_iska, NULL AS operates_on_shabbat, NULL AS jewish_controlled, NULL AS domicile, NULL AS listed_on,
                 'synthetic' AS source_ref, 'sample' AS data_source, true AS synthetic
          FROM range(${options.count}) t(i)`,
      'ticker',
    );
  });
}
