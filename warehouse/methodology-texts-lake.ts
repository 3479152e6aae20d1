import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { lakeRoot } from './lake-paths.ts';
import { tableGlobUnder } from './lake-sql.ts';
import { METHODOLOGY_TEXTS_SCHEMA } from './lake-schemas.ts';
import { publishLakeFile } from './lake-writer.ts';
import { expandResultJson, threadTextBook, UnknownTextError, type MethodologyTextRow, type TextBook } from './methodology-texts.ts';
import { rawSql, readSql, sql, sqlIdent } from './sql.ts';

/** Reads and writes of the lake's `methodology_texts` table (docs/warehouse.md, "Methodology texts"). */

const rowKey = (r: Pick<MethodologyTextRow, 'engine_version' | 'methodology_version' | 'code' | 'field' | 'text_id'>): string =>
  `${r.engine_version}\n${r.methodology_version}\n${r.code}\n${r.field}\n${r.text_id}`;

/** What one data directory's lake is known to hold, per thread: row keys and the files they were read from or written to. */
interface Published {
  keys: Set<string>;
  rows: WeakSet<MethodologyTextRow>;
  files: string[];
}

const publishedByLake = new Map<string, Published>();

function tableDir(dataDir: string): string {
  return path.join(lakeRoot(dataDir), 'methodology_texts');
}

async function readPublished(connection: DuckDBConnection, dataDir: string): Promise<Published> {
  const published: Published = { keys: new Set(), rows: new WeakSet(), files: [] };
  if (!existsSync(tableDir(dataDir))) return published;
  const rows = (
    await readSql(
      connection,
      sql`SELECT DISTINCT CAST(engine_version AS VARCHAR) AS engine_version, methodology_version, code, field, text_id, filename AS file
       FROM read_parquet(${tableGlobUnder(lakeRoot(dataDir), 'methodology_texts')}, hive_partitioning = true, filename = true)`,
    )
  ).getRowObjectsJS();
  for (const r of rows) {
    published.keys.add(rowKey(r as unknown as MethodologyTextRow));
    published.files.push(String(r.file));
  }
  published.files = [...new Set(published.files)];
  return published;
}

/**
 * Publishes the book's texts that `dataDir`'s lake does not hold yet, one file per engine
 * version named by its content (`texts-<digest>.parquet`: a retry writes the same file, and
 * no file is ever replaced by one with other texts). Call before publishing snapshots that
 * reference them. What the lake holds is remembered per thread and re-read when a file it
 * came from disappears.
 */
export async function publishMethodologyTexts(
  connection: DuckDBConnection,
  dataDir: string,
  book: TextBook = threadTextBook,
): Promise<string[]> {
  const lake = path.resolve(dataDir);
  let published = publishedByLake.get(lake);
  if (!published || published.files.some((f) => !existsSync(f))) {
    published = await readPublished(connection, dataDir);
    publishedByLake.set(lake, published);
  }
  const known = published;
  const pending = book.rows.filter((r) => !known.rows.has(r) && !known.keys.has(rowKey(r)));
  if (pending.length === 0) return [];
  const byEngine = new Map<string, MethodologyTextRow[]>();
  for (const row of pending) byEngine.set(row.engine_version, [...(byEngine.get(row.engine_version) ?? []), row]);
  const files: string[] = [];
  for (const [engine, rows] of byEngine) {
    const digest = createHash('sha256').update(rows.map(rowKey).sort().join('\n')).digest('hex').slice(0, 16);
    const table = `texts_stage_${randomBytes(4).toString('hex')}`;
    await connection.run(
      `CREATE OR REPLACE TEMP TABLE ${sqlIdent(table)} (${METHODOLOGY_TEXTS_SCHEMA.columns.map((c) => `${sqlIdent(c.name)} VARCHAR`).join(', ')})`,
    );
    try {
      const appender = await connection.createAppender(table, 'main', 'temp');
      try {
        for (const row of rows) {
          for (const column of METHODOLOGY_TEXTS_SCHEMA.columns) appender.appendVarchar(row[column.name as keyof MethodologyTextRow]);
          appender.endRow();
        }
        appender.flushSync();
      } finally {
        appender.closeSync();
      }
      const file = await publishLakeFile(
        connection,
        dataDir,
        { table: 'methodology_texts', partitionValues: [engine], fileName: `texts-${digest}.parquet` },
        rawSql(`SELECT * FROM ${sqlIdent(table)}`),
        'code, field, methodology_version, text_id',
      );
      files.push(file);
      known.files.push(path.join(dataDir, file));
    } finally {
      await connection.run(`DROP TABLE IF EXISTS ${sqlIdent(table)}`);
    }
    for (const row of rows) {
      known.keys.add(rowKey(row));
      known.rows.add(row);
    }
  }
  return files;
}

/** Every text of the lake, by id, JSON-quoted (what expansion puts in place of a reference). */
export async function loadQuotedTexts(connection: DuckDBConnection, dataDir: string): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  if (!existsSync(tableDir(dataDir))) return texts;
  const glob = tableGlobUnder(lakeRoot(dataDir), 'methodology_texts');
  const rows = (
    await readSql(connection, sql`SELECT DISTINCT text_id, text FROM read_parquet(${glob}) WHERE text_id IS NOT NULL`)
  ).getRowsJS();
  for (const [id, text] of rows) texts.set(String(id), JSON.stringify(String(text)));
  return texts;
}

/**
 * A reader's copy of the texts: expands stored results, and on a reference it has not loaded
 * loads them again once (texts are published before the snapshots that use them, so a new
 * snapshot's texts are there by the time it is read). `load` gives every text by id,
 * JSON-quoted: `loadQuotedTexts` over the lake, or the serving store's.
 */
export class MethodologyTexts {
  private texts = new Map<string, string>();
  private loading: Promise<void> | null = null;

  constructor(private readonly load: () => Promise<Map<string, string>>) {}

  /** Texts loaded. */
  get size(): number {
    return this.texts.size;
  }

  /** Each stored result expanded, in order; re-reads the table once if one references a text not loaded. */
  async expandAll(jsons: readonly string[]): Promise<string[]> {
    try {
      return jsons.map((json) => expandResultJson(json, (id) => this.texts.get(id)));
    } catch (error) {
      if (!(error instanceof UnknownTextError)) throw error;
      await this.reload();
      return jsons.map((json) => expandResultJson(json, (id) => this.texts.get(id)));
    }
  }

  /** Loads every text again (concurrent calls share one read). */
  reload(): Promise<void> {
    this.loading ??= this.load()
      .then((texts) => {
        this.texts = texts;
      })
      .finally(() => {
        this.loading = null;
      });
    return this.loading;
  }
}
