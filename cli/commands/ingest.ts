import type { Command } from 'commander';
import { getConfig } from '../../platform/config.ts';
import { FeedValidationError } from '../../sources/feed/feed-validation.ts';
import type { SourceName } from '../../warehouse/source-contract.ts';
import { ingestSource } from '../../sources/ingest.ts';

const SOURCES: readonly SourceName[] = ['sample', 'feed', 'edgar'];

/** `ingest --source sample|feed|edgar [--path DIR]`: load a source into the lake (DATA_DIR/lake). */
export function registerIngestCommand(program: Command): void {
  program
    .command('ingest')
    .description('load a source into the lake: the synthetic sample universe, a vendor-feed folder, or saved EDGAR files')
    .option('--source <name>', 'sample | feed | edgar', 'sample')
    .option('--path <dir>', 'feed delivery folder, or folder of EDGAR JSON files')
    .option('--scale <n>', 'sample size, 1 = full universe', '1')
    .option('--seed <n>', 'sample seed')
    .option('--as-of <date>', 'run date YYYY-MM-DD (default today, UTC)')
    .option('--markets <keys>', 'comma-separated market keys (default all)')
    .action(async (opts: { source: string; path?: string; scale: string; seed?: string; asOf?: string; markets?: string }) => {
      if (!SOURCES.includes(opts.source as SourceName)) throw new Error(`unknown source '${opts.source}': use ${SOURCES.join(', ')}`);
      try {
        const summary = await ingestSource({
          dataDir: getConfig().dataDir,
          source: opts.source as SourceName,
          path: opts.path,
          scale: Number(opts.scale),
          seed: opts.seed === undefined ? undefined : Number(opts.seed),
          asOf: opts.asOf,
          markets: opts.markets ? opts.markets.split(',') : null,
          concurrency: 2,
          onProgress: (p) =>
            process.stderr.write(`\r${p.source}: ${p.doneChunks}/${p.totalChunks} chunks, ${p.doneTickers}/${p.totalTickers} tickers`),
        });
        process.stderr.write('\n');
        process.stdout.write(`${JSON.stringify(summary)}\n`);
      } catch (error) {
        if (error instanceof FeedValidationError) {
          for (const e of error.errors) process.stderr.write(`${e.file}:${e.line}: ${e.reason}\n`);
          process.stderr.write(`feed rejected: ${error.total} error(s), nothing published\n`);
          process.exitCode = 1;
          return;
        }
        throw error;
      }
    });
}
