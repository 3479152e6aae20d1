import path from 'node:path';

const PARTITION = /market=([^/\\]+)[/\\]year=(\d{4})[/\\][^/\\]+\.parquet$/;

/**
 * The published snapshot files the API knows, each with its change signature, indexed by
 * (market, year) partition: what history reads query instead of globbing the lake.
 */
export class SnapshotFileSet {
  private readonly signatures = new Map<string, string>();
  private readonly byMarket = new Map<string, Map<number, Set<string>>>();

  get size(): number {
    return this.signatures.size;
  }

  signatureOf(file: string): string | undefined {
    return this.signatures.get(file);
  }

  entries(): IterableIterator<[string, string]> {
    return this.signatures.entries();
  }

  set(file: string, signature: string): void {
    this.signatures.set(file, signature);
    const match = PARTITION.exec(file);
    if (!match) return;
    let years = this.byMarket.get(match[1]!);
    if (!years) this.byMarket.set(match[1]!, (years = new Map()));
    let files = years.get(Number(match[2]));
    if (!files) years.set(Number(match[2]), (files = new Set()));
    files.add(file);
  }

  delete(file: string): void {
    this.signatures.delete(file);
    const match = PARTITION.exec(file);
    if (match) this.byMarket.get(match[1]!)?.get(Number(match[2]))?.delete(file);
  }

  /** Files of a market's partitions from year `from` to year `to` (inclusive), sorted. */
  filesOf(market: string, from: number, to: number): string[] {
    const out: string[] = [];
    for (const [year, files] of this.byMarket.get(market) ?? []) if (year >= from && year <= to) out.push(...files);
    return out.sort();
  }

  /** The earliest year with files in a market (Infinity when none). */
  firstYear(market: string): number {
    let first = Number.POSITIVE_INFINITY;
    for (const [year, files] of this.byMarket.get(market) ?? []) if (files.size > 0) first = Math.min(first, year);
    return first;
  }
}

/** Path of a lake file from its path relative to the lake root, as the change journal names it. */
export function lakeFile(lakeRootDir: string, relative: string): string {
  return path.join(lakeRootDir, relative);
}

/** A read listed a file that compaction removed before the read opened it: follow the journal and read again. */
export function isRemovedFileError(error: unknown): boolean {
  return /No such file or directory|No files found that match the pattern/.test((error as Error)?.message ?? '');
}
