import { blockReference, compressResult, compressResultBlock, MAX_BLOCK_RESULTS } from './serving-codec.ts';
import type { ResultBlock, ServingBatch, ServingRow, ServingSnapshot } from './serving-types.ts';

interface Group {
  key: string;
  rows: ServingRow[];
  results: Uint8Array[];
}

function blockKey(row: ServingRow): string {
  return `${row.market}\u0000${row.ticker}\u0000${row.screenedAt}\u0000${row.snapshotDate.slice(0, 4)}`;
}

/**
 * Makes the rows a writer adds into what the store takes (docs/serving.md, "Stored results"): a
 * ticker's consecutive rows of one screen and one year, in date order, share a result block
 * (a backfill's month ends of a year); a row alone is compressed alone (a nightly's). Holds one
 * group's results at a time, so a writer of millions of rows keeps only their stored bytes.
 */
export class ResultGrouper {
  private readonly snapshots: ServingSnapshot[] = [];
  private readonly blocks: ResultBlock[] = [];
  /** Keys with a block already: a ticker seen again out of order is compressed row by row, never a second block of one key. */
  private readonly blockKeys = new Set<string>();
  private group: Group | null = null;

  /** Adds a row and its result JSON (UTF-8). */
  add(row: ServingRow, result: Uint8Array): void {
    const key = blockKey(row);
    const group = this.group;
    if (
      group !== null &&
      group.key === key &&
      group.rows.length < MAX_BLOCK_RESULTS &&
      row.snapshotDate > group.rows.at(-1)!.snapshotDate
    ) {
      group.rows.push(row);
      group.results.push(result);
      return;
    }
    this.close();
    this.group = { key, rows: [row], results: [result] };
  }

  /** The rows added so far, with the blocks their references point into. */
  finish(): ServingBatch {
    this.close();
    return { snapshots: this.snapshots, blocks: this.blocks };
  }

  private close(): void {
    const group = this.group;
    if (group === null) return;
    this.group = null;
    if (group.rows.length === 1 || this.blockKeys.has(group.key)) {
      group.rows.forEach((row, i) => this.snapshots.push({ ...row, result: compressResult(group.results[i]!), resultStored: true }));
      return;
    }
    this.blockKeys.add(group.key);
    const { market, ticker, screenedAt, snapshotDate } = group.rows[0]!;
    this.blocks.push({ market, ticker, screenedAt, year: snapshotDate.slice(0, 4), data: compressResultBlock(group.results) });
    group.rows.forEach((row, i) => this.snapshots.push({ ...row, result: blockReference(i), resultStored: true }));
  }
}
