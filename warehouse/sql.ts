/**
 * SQL building. Every SQL string of the project lives in `warehouse/`, except the sample generator's
 * (`sources/sample/sample-sql.ts`, SQL by nature). Values reach DuckDB as bound parameters: the `sql` tag turns
 * each interpolated value into a `?` placeholder and keeps the values beside the text, in order, so no value is
 * quoted into SQL. Only identifiers and the few statements DuckDB cannot prepare are quoted, each by one helper here.
 */
import { DuckDBListValue, DuckDBStructValue } from '@duckdb/node-api';
import type {
  DuckDBConnection,
  DuckDBMaterializedResult,
  DuckDBPreparedStatement,
  DuckDBResult,
  DuckDBResultReader,
  DuckDBValue,
} from '@duckdb/node-api';

/** SQL text and the values its `?` placeholders bind, in placeholder order. */
export class Sql {
  /** `pieces` are the text around the placeholders: one more piece than values. */
  constructor(
    readonly pieces: readonly string[],
    readonly values: readonly DuckDBValue[],
  ) {
    if (pieces.length !== values.length + 1) throw new Error('Sql needs one more text piece than values');
  }

  /** The text DuckDB prepares, a `?` for each value. */
  get text(): string {
    return this.pieces.join('?');
  }

  /** `${query}` in a plain template string would drop the values: fail there instead. */
  toString(): string {
    throw new Error('an Sql value was spliced into a plain string: build the statement with the sql tag');
  }
}

/**
 * Tag for SQL with bound values: sql`… WHERE ticker = ${ticker}` gives text `… WHERE ticker = ?` and values
 * `[ticker]`. An interpolated `Sql` is spliced in with its own values, so fragments compose. A finite
 * number is written in: it has nothing to quote, and a literal keeps its SQL type where a bound JS number
 * would be a DOUBLE (an integer in `hash(…)` or `range(…)` must stay an integer).
 */
export function sql(strings: TemplateStringsArray, ...parts: readonly (Sql | DuckDBValue)[]): Sql {
  const pieces = [strings[0]!];
  const values: DuckDBValue[] = [];
  const append = (text: string): void => {
    pieces[pieces.length - 1] += text;
  };
  parts.forEach((part, i) => {
    if (part instanceof Sql) {
      append(part.pieces[0]!);
      pieces.push(...part.pieces.slice(1));
      values.push(...part.values);
    } else if (typeof part === 'number') {
      if (!Number.isFinite(part)) throw new Error(`sql: ${part} is not a finite number`);
      append(String(part));
    } else {
      pieces.push('');
      values.push(part);
    }
    append(strings[i + 1]!);
  });
  return new Sql(pieces, values);
}

/** SQL text with nothing to bind: the code's own constants and quoted identifiers, never outside input. */
export function rawSql(text: string): Sql {
  return new Sql([text], []);
}

/** Joins fragments with a separator, keeping their values in order. */
export function joinSql(parts: readonly Sql[], separator: string): Sql {
  const pieces = [''];
  parts.forEach((part, i) => {
    pieces[pieces.length - 1] += (i === 0 ? '' : separator) + part.pieces[0]!;
    pieces.push(...part.pieces.slice(1));
  });
  return new Sql(
    pieces,
    parts.flatMap((p) => p.values),
  );
}

/**
 * A list of bound values, `(?, ?, ?)`, for `IN`. One placeholder per value rather than one list parameter:
 * DuckDB plans `IN (?, ?)` exactly as it plans literals, so the filter still reaches the Parquet scan.
 */
export function sqlValueList(values: readonly DuckDBValue[]): Sql {
  if (values.length === 0) throw new Error('sqlValueList needs at least one value');
  return new Sql(['(', ...values.slice(1).map(() => ', '), ')'], values);
}

/** `CAST(? AS DATE)` for a `YYYY-MM-DD` string. */
export function sqlDate(day: string): Sql {
  return sql`CAST(${day} AS DATE)`;
}

/** Runs a statement, binding its values (a statement without values runs unprepared, as DuckDB allows several). */
export function runSql(connection: DuckDBConnection, query: Sql): Promise<DuckDBMaterializedResult> {
  return connection.run(query.text, query.values.length > 0 ? [...query.values] : undefined);
}

/** Runs a query, binding its values, for reading chunk by chunk. */
export function streamSql(connection: DuckDBConnection, query: Sql): Promise<DuckDBResult> {
  return connection.stream(query.text, query.values.length > 0 ? [...query.values] : undefined);
}

/** Runs a query, binding its values, and reads every row. */
export function readSql(connection: DuckDBConnection, query: Sql): Promise<DuckDBResultReader> {
  return connection.runAndReadAll(query.text, query.values.length > 0 ? [...query.values] : undefined);
}

/** Statements a connection keeps prepared, by text; the oldest is dropped past this many. */
const KEPT_PREPARED = 32;
const preparedByConnection = new WeakMap<DuckDBConnection, Map<string, DuckDBPreparedStatement>>();

/**
 * Runs `use` on the connection's prepared statement for the query's text, bound to its values, preparing
 * it on first use. For hot reads: a kept statement skips parsing and planning from text; DuckDB still
 * binds every run anew, so files and globs are looked up again.
 * The connection must serve one caller at a time, as the API's pool lends them. A failed run drops it.
 */
async function withPrepared<T>(
  connection: DuckDBConnection,
  query: Sql,
  use: (statement: DuckDBPreparedStatement) => Promise<T>,
): Promise<T> {
  let kept = preparedByConnection.get(connection);
  if (!kept) preparedByConnection.set(connection, (kept = new Map()));
  let statement = kept.get(query.text);
  if (!statement) {
    statement = await connection.prepare(query.text);
    if (kept.size >= KEPT_PREPARED) {
      const [oldestText, oldest] = kept.entries().next().value!;
      kept.delete(oldestText);
      oldest.destroySync();
    }
    kept.set(query.text, statement);
  }
  try {
    statement.bind([...query.values]);
    return await use(statement);
  } catch (error) {
    kept.delete(query.text);
    statement.destroySync();
    throw error;
  }
}

/** `readSql` through a kept prepared statement (see `withPrepared`). */
export function readPrepared(connection: DuckDBConnection, query: Sql): Promise<DuckDBResultReader> {
  return withPrepared(connection, query, (statement) => statement.runAndReadAll());
}

/** `streamSql` through a kept prepared statement (see `withPrepared`); read the result before the next query. */
export function streamPrepared(connection: DuckDBConnection, query: Sql): Promise<DuckDBResult> {
  return withPrepared(connection, query, (statement) => statement.stream());
}

/** Quotes an identifier: `my col` → `"my col"`. Identifiers cannot be parameters. */
export function sqlIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * The statement with its values written in as literals, for the statements DuckDB refuses to prepare
 * (`CREATE VIEW` bodies and other DDL): the one place a value is quoted into SQL.
 */
export function inlineSql(query: Sql): string {
  return query.pieces.reduce((text, piece, i) => text + sqlLiteral(query.values[i - 1]!) + piece);
}

function sqlLiteral(value: DuckDBValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'string') return sqlString(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof DuckDBListValue) return `[${value.items.map(sqlLiteral).join(', ')}]`;
  if (value instanceof DuckDBStructValue) {
    return `{${Object.entries(value.entries)
      .map(([k, v]) => `${sqlString(k)}: ${sqlLiteral(v)}`)
      .join(', ')}}`;
  }
  throw new Error(`inlineSql cannot write a ${typeof value} value as a literal`);
}

/**
 * Quotes a string as a SQL literal: `it's` → `'it''s'`. Only where DuckDB cannot bind a value: the DDL
 * `inlineSql` writes, a `COPY … TO` target (see `copyToParquetSql` in `lake-sql.ts`), and column names
 * given as a struct literal in file order (`sources/feed/feed-ticker-files.ts`).
 */
export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}
