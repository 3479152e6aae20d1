import type { DuckDBConnection } from '@duckdb/node-api';
import { rawSql, runSql, sql } from '../../warehouse/sql.ts';

/**
 * Reads one CSV or Parquet file of a delivery into the temp table `raw` with every value as
 * text, so the contract, not the reader's guesses, decides what is valid, plus a `line` column:
 * CSV line = row position + 2 (the header is line 1); Parquet line = row number from 1.
 * Returns the file's column names.
 */
export async function loadRaw(connection: DuckDBConnection, file: string, raw: string): Promise<string[]> {
  const read = file.endsWith('.csv')
    ? sql`SELECT *, (row_number() OVER () + 1)::INTEGER AS line
        FROM read_csv(${file}, header = true, all_varchar = true, auto_detect = true, parallel = false)`
    : sql`SELECT COLUMNS(c -> c <> 'file_row_number')::VARCHAR, (file_row_number + 1)::INTEGER AS line
        FROM read_parquet(${file}, file_row_number = true)`;
  await runSql(connection, sql`CREATE OR REPLACE TEMP TABLE ${rawSql(raw)} AS ${read}`);
  const columns = (await connection.runAndReadAll(`SELECT column_name FROM (DESCRIBE ${raw})`)).getRowObjectsJS();
  return columns.map((c) => String(c.column_name)).filter((c) => c !== 'line');
}
