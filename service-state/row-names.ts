/** A column name as the stores' records name it, as a type: `created_at` → `createdAt`. */
type RecordName<Column extends string> = Column extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<RecordName<Tail>>}` : Column;

/** A row with each column under its record name. */
export type RecordOf<Row> = { [Column in keyof Row & string as RecordName<Column>]: Row[Column] };

/**
 * A service-state row under its record's names (`created_at` → `createdAt`, values as they are):
 * where a store's record is its row field for field, the store states only what it converts.
 */
export function recordOf<Row extends object>(row: Row): RecordOf<Row> {
  const record: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row))
    record[column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase())] = value;
  return record as RecordOf<Row>;
}
