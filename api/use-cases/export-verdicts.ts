import { Readable } from 'node:stream';
import { SNAPSHOT_FRAMEWORKS, SNAPSHOT_RATIOS } from '../../warehouse/lake-schemas.ts';
import type { ApiReads } from '../../reads/api-reads.ts';
import type { VerdictRow } from '../../reads/api-reads-types.ts';

export const ARROW_STREAM = 'application/vnd.apache.arrow.stream';
export const NDJSON = 'application/x-ndjson';

/**
 * One flat record per snapshot: identity, the statuses of the frameworks the caller may see
 * (`<id>_status`, all ten without a grant), ratio columns and provenance.
 */
function flatten(row: VerdictRow, frameworks: readonly string[]): Record<string, string | number | boolean | null> {
  return {
    market: row.market,
    ticker: row.ticker,
    snapshot_date: row.snapshotDate,
    screened_at: row.screenedAt,
    source: row.source,
    era: row.era,
    ...Object.fromEntries(frameworks.map((id) => [`${id}_status`, row.statuses[id as (typeof SNAPSHOT_FRAMEWORKS)[number]]])),
    ...row.ratios,
    synthetic: row.synthetic,
    data_source: row.dataSource,
  };
}

const textColumns = (frameworks: readonly string[]) => [
  'market',
  'ticker',
  'snapshot_date',
  'screened_at',
  'source',
  'era',
  ...frameworks.map((id) => `${id}_status`),
  'data_source',
];

/** The verdict rows of a market: current verdicts (from memory), or the snapshots of one day (from the serving store). */
export function exportRows(reads: ApiReads, market: string, date: string | null): Promise<VerdictRow[]> {
  return reads.verdicts(market, date);
}

/**
 * Rows as one Arrow IPC stream (schema, then record batches), readable by pyarrow, pandas and
 * polars. Arrow loads with the first export, not with the API: it is a large share of a start.
 */
export async function toArrowStream(rows: readonly VerdictRow[], frameworks: readonly string[] = SNAPSHOT_FRAMEWORKS): Promise<Uint8Array> {
  const { Bool, Float64, Table, Utf8, tableToIPC, vectorFromArray } = await import('apache-arrow');
  const flat = rows.map((row) => flatten(row, frameworks));
  const column = (name: string) => flat.map((r) => r[name] ?? null);
  const vectors = {
    ...Object.fromEntries(textColumns(frameworks).map((name) => [name, vectorFromArray(column(name) as Array<string | null>, new Utf8())])),
    ...Object.fromEntries(SNAPSHOT_RATIOS.map((name) => [name, vectorFromArray(column(name) as Array<number | null>, new Float64())])),
    synthetic: vectorFromArray(column('synthetic') as Array<boolean | null>, new Bool()),
  };
  return tableToIPC(new Table(vectors), 'stream');
}

/** Rows as JSON lines, streamed. */
export function toNdjsonStream(rows: readonly VerdictRow[], frameworks: readonly string[] = SNAPSHOT_FRAMEWORKS): Readable {
  return Readable.from(
    (function* lines() {
      for (const row of rows) yield `${JSON.stringify(flatten(row, frameworks))}\n`;
    })(),
  );
}
