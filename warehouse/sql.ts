/**
 * SQL literal helpers. Every SQL string of the project lives in `warehouse/`, except the sample
 * generator's (`sources/sample/sample-sql.ts`, SQL by nature); these keep values safe in both.
 */

/** Quotes a string as a SQL literal: `it's` → `'it''s'`. */
export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** Quotes an identifier: `my col` → `"my col"`. */
export function sqlIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A SQL list of string literals: `('a', 'b')`. */
export function sqlStringList(values: readonly string[]): string {
  if (values.length === 0) throw new Error('sqlStringList needs at least one value');
  return `(${values.map(sqlString).join(', ')})`;
}
