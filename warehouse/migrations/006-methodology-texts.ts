import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { METHODOLOGY_TEXTS_SCHEMA } from '../lake-schemas.ts';
import { copyToParquetSql, emptyRowsSql, seedPartitions, tableViewSql } from '../lake-sql.ts';
import { TEXT_REFERENCE_SQL_PATTERN } from '../methodology-texts.ts';
import { inlineSql, rawSql, sql } from '../sql.ts';
import type { Migration } from './migration.ts';

/** Zero-row seed of the `methodology_texts` table, so the view binds before any text is published. */
export const METHODOLOGY_TEXTS_SEED_FILE = 'seed-v6-methodology-texts.parquet';

/** References are looked up in 4,096 buckets (the id's first three hex digits): a DuckDB map lookup is a linear search. */
const BUCKETS = 4_096;
const bucketOf = (id: string): string => `('0x' || substr(${id}, 1, 3))::INTEGER`;

/** Every text of the lake, JSON-quoted, as a list of 4,096 maps from text id to text. */
const TEXT_BUCKETS_SQL = `(SELECT list(m ORDER BY b) FROM (
    SELECT b.b, map(coalesce(list(t.text_id) FILTER (WHERE t.text_id IS NOT NULL), []),
                    coalesce(list(to_json(t.text)::VARCHAR) FILTER (WHERE t.text_id IS NOT NULL), [])) AS m
    FROM range(${BUCKETS}) b(b) LEFT JOIN (SELECT DISTINCT text_id, text FROM methodology_texts) t ON ${bucketOf('t.text_id')} = b.b
    GROUP BY b.b))`;

const SPLIT_PATTERN = TEXT_REFERENCE_SQL_PATTERN.replace('([0-9a-f]{12})', '[0-9a-f]{12}');
const CAPTURE_PATTERN = TEXT_REFERENCE_SQL_PATTERN;

/**
 * Snapshots store the reasons' methodology texts once, in `methodology_texts`, and reference
 * them from `result_json` (docs/warehouse.md, "Methodology texts"). The `snapshots` view puts
 * the texts back, so researchers read `result_json` as before; `stored_snapshots` is the table
 * as stored (faster when `result_json` is not needed expanded). An unknown reference fails the
 * query instead of yielding a result with a text missing.
 */
export const methodologyTexts: Migration = {
  version: 6,
  name: 'methodology-texts',
  statements: (context) => {
    const dir = path.join(context.lakeRoot, 'methodology_texts', ...seedPartitions(METHODOLOGY_TEXTS_SCHEMA).map(([k, v]) => `${k}=${v}`));
    mkdirSync(dir, { recursive: true });
    return [
      copyToParquetSql(rawSql(emptyRowsSql(METHODOLOGY_TEXTS_SCHEMA)), path.join(dir, METHODOLOGY_TEXTS_SEED_FILE)),
      `CREATE OR REPLACE VIEW methodology_texts AS ${tableViewSql(context.lakeRoot, 'methodology_texts')}`,
      `CREATE OR REPLACE VIEW stored_snapshots AS ${tableViewSql(context.lakeRoot, 'snapshots')}`,
      // A view cannot be prepared: the patterns are written in as literals.
      inlineSql(sql`CREATE OR REPLACE VIEW snapshots AS
         SELECT * EXCLUDE (text_ids, texts) REPLACE (
           CASE WHEN len(text_ids) = 0 THEN result_json ELSE array_to_string(list_transform(
             regexp_split_to_array(result_json, ${SPLIT_PATTERN}),
             lambda part, i: part || CASE WHEN i > len(text_ids) THEN ''
               ELSE coalesce(texts[${rawSql(bucketOf('text_ids[i]'))} + 1][text_ids[i]],
                 error('methodology text ' || text_ids[i] || ' is referenced by a snapshot but not in methodology_texts')) END
           ), '') END AS result_json)
         FROM (SELECT *, coalesce(regexp_extract_all(result_json, ${CAPTURE_PATTERN}, 1), []) AS text_ids, ${rawSql(TEXT_BUCKETS_SQL)} AS texts
         FROM stored_snapshots)`),
    ];
  },
};
