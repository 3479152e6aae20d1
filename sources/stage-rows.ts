import { TABLE_SCHEMAS } from '../warehouse/lake-schemas.ts';
import { castColumnsSql } from '../warehouse/lake-sql.ts';
import { rawSql, runSql, sql, sqlIdent } from '../warehouse/sql.ts';
import type { SourceTable, StageTarget } from '../warehouse/source-contract.ts';

export type StagedValue = string | number | boolean | null | undefined;

/**
 * Stages rows built in JavaScript (EDGAR parsers) as a temp table in the lake's layout: the
 * partition column, then every stored column (missing fields become null). Dates are text
 * `YYYY-MM-DD` and are cast on the way in.
 */
export async function stageJsRows(
  target: StageTarget,
  table: SourceTable,
  partitionValue: string,
  rows: ReadonlyArray<Record<string, StagedValue>>,
): Promise<void> {
  const schema = TABLE_SCHEMAS[table];
  const key = schema.partitions[0]!.name;
  const staging = `${target.table}_raw`;
  const kind = (type: string): 'DOUBLE' | 'BOOLEAN' | 'VARCHAR' =>
    type === 'DOUBLE' ? 'DOUBLE' : type === 'BOOLEAN' ? 'BOOLEAN' : 'VARCHAR';
  const columns = schema.columns.map((c) => `${sqlIdent(c.name)} ${kind(c.type)}`).join(', ');
  await target.connection.run(`CREATE OR REPLACE TEMP TABLE ${sqlIdent(staging)} (${columns})`);
  const appender = await target.connection.createAppender(staging, 'main', 'temp');
  try {
    for (const row of rows) {
      for (const col of schema.columns) {
        const value = row[col.name];
        if (value === null || value === undefined) appender.appendNull();
        else if (kind(col.type) === 'DOUBLE') appender.appendDouble(Number(value));
        else if (kind(col.type) === 'BOOLEAN') appender.appendBoolean(Boolean(value));
        else appender.appendVarchar(String(value));
      }
      appender.endRow();
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
  await runSql(
    target.connection,
    sql`CREATE OR REPLACE TEMP TABLE ${rawSql(sqlIdent(target.table))}
      AS SELECT ${partitionValue} AS ${rawSql(sqlIdent(key))}, ${rawSql(castColumnsSql(schema))} FROM ${rawSql(sqlIdent(staging))}`,
  );
  await target.connection.run(`DROP TABLE ${sqlIdent(staging)}`);
}
