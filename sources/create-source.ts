import { createEdgarSource } from './edgar/edgar-source.ts';
import { createFeedSource } from './feed/feed-source.ts';
import { createSampleSource, SAMPLE_DEFAULT_SEED } from './sample/sample-source.ts';
import type { SourceAdapter, SourceName } from '../warehouse/source-contract.ts';

export interface SourceOptions {
  source: SourceName;
  /** Folder of a feed delivery, or of downloaded EDGAR JSON files. */
  path?: string;
  /** Sample universe size: 1 = full scale (default), 0.01 for tests. */
  scale?: number;
  /** Sample seed (default 20090101). */
  seed?: number;
  /** Run date `YYYY-MM-DD`: the sample's history ends here. Defaults to today (UTC). */
  asOf?: string;
}

/** Builds the adapter an ingest asks for. */
export function createSource(options: SourceOptions): SourceAdapter {
  switch (options.source) {
    case 'sample':
      return createSampleSource({
        seed: options.seed ?? SAMPLE_DEFAULT_SEED,
        scale: options.scale ?? 1,
        asOf: options.asOf ?? new Date().toISOString().slice(0, 10),
      });
    case 'feed':
      if (!options.path) throw new Error('the feed source needs --path DIR: the delivery folder');
      return createFeedSource(options.path);
    case 'edgar':
      if (!options.path) throw new Error('the edgar source needs --path DIR: a folder of downloaded EDGAR JSON files');
      return createEdgarSource(options.path);
  }
}
