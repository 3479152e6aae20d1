import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { listValue, structValue, type DuckDBConnection, type DuckDBInstance } from '@duckdb/node-api';
import { openDuckDB } from '../../warehouse/duckdb.ts';
import {
  Sql,
  inlineSql,
  joinSql,
  rawSql,
  readPrepared,
  readSql,
  runSql,
  sql,
  sqlDate,
  sqlValueList,
  streamPrepared,
} from '../../warehouse/sql.ts';
import { copyToParquetSql } from '../../warehouse/lake-sql.ts';
import { makeTempDir } from '../support/temp-dir.ts';

describe('sql tag', () => {
  it('turns each interpolated value into a placeholder and keeps the values in order', () => {
    const query = sql`SELECT * FROM t WHERE market = ${'US'} AND ticker = ${"O'Neil"}`;
    expect(query.text).toBe('SELECT * FROM t WHERE market = ? AND ticker = ?');
    expect(query.values).toEqual(['US', "O'Neil"]);
  });

  it('splices fragments in with their own values, in text order', () => {
    const where = sql`ticker IN ${sqlValueList(['A', 'B'])} AND d <= ${sqlDate('2024-01-31')}`;
    const query = sql`SELECT ${rawSql('"ticker"')} FROM t WHERE market = ${'US'} AND ${where} LIMIT ${5}`;
    expect(query.text).toBe('SELECT "ticker" FROM t WHERE market = ? AND ticker IN (?, ?) AND d <= CAST(? AS DATE) LIMIT 5');
    expect(query.values).toEqual(['US', 'A', 'B', '2024-01-31']);
  });

  it('joins fragments with a separator and keeps their values', () => {
    const joined = joinSql([sql`a = ${'w'}`, rawSql('b IS NULL'), sql`c = ${'x'}`], ' AND ');
    expect(joined.text).toBe('a = ? AND b IS NULL AND c = ?');
    expect(joined.values).toEqual(['w', 'x']);
    expect(joinSql([], ', ').text).toBe('');
  });

  it('writes a finite number in, so an integer keeps its SQL type, and refuses any other number', () => {
    expect(sql`SELECT hash(${7}, ${'us'}), ${-0.25}`.text).toBe('SELECT hash(7, ?), -0.25');
    expect(() => sql`LIMIT ${Number.POSITIVE_INFINITY}`).toThrow('not a finite number');
  });

  it('refuses an empty value list, which would be invalid SQL', () => {
    expect(() => sqlValueList([])).toThrow('sqlValueList needs at least one value');
  });

  it('writes values in as literals only through inlineSql, quoting what needs quoting', () => {
    const query = sql`SELECT ${"it's"}, ${3}, ${true}, ${null}, ${listValue(['a', 'b'])}, ${structValue({ k: 'V' })}`;
    expect(inlineSql(query)).toBe(`SELECT 'it''s', 3, true, NULL, ['a', 'b'], {'k': 'V'}`);
    expect(() => inlineSql(sql`SELECT ${12n}`)).not.toThrow();
    expect(() => inlineSql(new Sql(['SELECT ', ''], [Number.NaN]))).toThrow('cannot write');
  });
});

describe('bound values in DuckDB', () => {
  let instance: DuckDBInstance;
  let connection: DuckDBConnection;
  let temp: Awaited<ReturnType<typeof makeTempDir>>;

  beforeAll(async () => {
    temp = await makeTempDir();
    instance = await openDuckDB(':memory:');
    connection = await instance.connect();
  });

  afterAll(async () => {
    connection.closeSync();
    instance.closeSync();
    await temp.cleanup();
  });

  it('reads a value with quotes and SQL in it back unchanged', async () => {
    const nasty = `x'); DROP TABLE t; --`;
    const rows = (await readSql(connection, sql`SELECT ${nasty} AS v, ${sqlDate('2024-02-29')} AS d`)).getRowObjectsJson();
    expect(rows).toEqual([{ v: nasty, d: '2024-02-29' }]);
  });

  it('binds a file path in read_parquet and an IN list of values', async () => {
    const file = path.join(temp.dir, "a'b.parquet");
    await runSql(connection, copyToParquetSql(sql`SELECT * FROM (VALUES (${'A'}, 1), ('B', 2), ('C', 3)) v(t, n)`, file));
    const rows = await readSql(connection, sql`SELECT t, n FROM read_parquet(${file}) WHERE t IN ${sqlValueList(['A', 'C'])} ORDER BY t`);
    expect(rows.getRowObjectsJson()).toEqual([
      { t: 'A', n: 1 },
      { t: 'C', n: 3 },
    ]);
  });

  it('reuses a kept prepared statement with new values, re-reading the files each run, and recovers after a failed run', async () => {
    const one = path.join(temp.dir, 'one.parquet');
    const two = path.join(temp.dir, 'two.parquet');
    await runSql(connection, copyToParquetSql(sql`SELECT * FROM (VALUES ('A', 1), ('B', 2)) v(t, n)`, one));
    await runSql(connection, copyToParquetSql(sql`SELECT * FROM (VALUES ('A', 10), ('C', 30)) v(t, n)`, two));
    const sumOf = async (file: string, tickers: string[]): Promise<unknown> =>
      (
        await readPrepared(connection, sql`SELECT sum(n)::INT AS s FROM read_parquet(${file}) WHERE t IN ${sqlValueList(tickers)}`)
      ).getRowsJson();
    expect(await sumOf(one, ['A', 'B'])).toEqual([[3]]);
    expect(await sumOf(two, ['A', 'C'])).toEqual([[40]]);
    await runSql(connection, copyToParquetSql(sql`SELECT * FROM (VALUES ('A', 100), ('B', 200)) v(t, n)`, one));
    expect(await sumOf(one, ['A', 'B'])).toEqual([[300]]);
    await expect(sumOf(path.join(temp.dir, 'missing.parquet'), ['A', 'B'])).rejects.toThrow(/No files found/);
    expect(await sumOf(two, ['C', 'A'])).toEqual([[40]]);
  });

  it('streams through a kept prepared statement', async () => {
    const result = await streamPrepared(connection, sql`SELECT ${'x'} AS v FROM range(${3})`);
    const chunk = await result.fetchChunk();
    expect(chunk?.getRows()).toEqual([['x'], ['x'], ['x']]);
  });

  it('creates a view from inlined values, which DuckDB cannot prepare', async () => {
    const body = sql`SELECT ${"it's"} AS v`;
    await expect(runSql(connection, sql`CREATE VIEW bound AS ${body}`)).rejects.toThrow(/can't be prepared/);
    await connection.run(`CREATE VIEW inlined AS ${inlineSql(body)}`);
    expect((await connection.runAndReadAll('SELECT v FROM inlined')).getRowObjectsJson()).toEqual([{ v: "it's" }]);
  });
});
