import os from 'node:os';
import type { Command } from 'commander';
import { ReportPrerenderer } from '../../api/report-prerender.ts';
import { threadedReportRenderer } from '../../api/report-renderer.ts';
import { openApiReads } from '../../reads/api-reads.ts';
import { getConfig } from '../../platform/config.ts';
import { openServingStore, servingTargetOf } from '../../serving/open-serving-store.ts';
import { checkServingAgainstLake } from '../../warehouse/serving-check.ts';
import { syncServingFromLake } from '../../warehouse/serving-sync.ts';

/** How often a rebuild reports its progress on stderr. */
const PROGRESS_EVERY_MS = 2_000;

/** `serving rebuild|check|render`: the serving store against the lake, and its stored reports (docs/serving.md). */
export function registerServingCommands(program: Command): void {
  const serving = program
    .command('serving')
    .description(
      'the serving store the API reads verdicts from (DATABASE_URL, else DATA_DIR/serving.db): rebuild it from the lake, check it, ' +
        'render its default reports',
    );
  serving
    .command('rebuild')
    .description(
      'copy every lake snapshot file the store does not hold into it, with progress, and stop serving the rows of files this lake ' +
        'no longer has; resumable (stop it and run it again). With a shared PostgreSQL store, run it on the lake of record',
    )
    .option(
      '--current',
      'then rebuild every current row from its snapshot, under a new epoch (after a writer of a release before migration 7 wrote to the store)',
    )
    .action(async (options: { current?: boolean }) => {
      const config = getConfig();
      const store = await openServingStore(servingTargetOf(config.dataDir));
      let last = 0;
      try {
        const result = await syncServingFromLake(config.dataDir, store, {
          releaseVanished: true,
          onProgress: (done, total, rows) => {
            if (done < total && performance.now() - last < PROGRESS_EVERY_MS) return;
            last = performance.now();
            process.stderr.write(`serving rebuild: ${done}/${total} files, ${rows} snapshots copied\n`);
          },
        });
        let currentMarkets: string[] = [];
        if (options.current) {
          currentMarkets = [...new Set((await store.currentSince(-1)).rows.map((row) => row.market))].sort();
          await store.rebuildCurrent(currentMarkets);
        }
        const report = { ...result, ms: Math.round(result.ms), store: store.location, ...(options.current ? { currentMarkets } : {}) };
        process.stdout.write(`${JSON.stringify(report)}\n`);
      } finally {
        await store.close();
      }
    });
  serving
    .command('check')
    .description(
      "compare the store with the lake on a sample of days (each market's first and last, and more at random); exit 1 on a difference",
    )
    .option(
      '--days <n>',
      'days drawn at random besides each market’s first and last',
      (v) => {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 0 || n > 10_000) throw new Error(`--days: '${v}' is not a whole number from 0 to 10000`);
        return n;
      },
      8,
    )
    .action(async (options: { days: number }) => {
      const config = getConfig();
      const store = await openServingStore(servingTargetOf(config.dataDir));
      try {
        const result = await checkServingAgainstLake(config.dataDir, store, options.days);
        const report = {
          days: result.days.length,
          snapshotsCompared: result.snapshotsCompared,
          mismatches: result.mismatches.slice(0, 20),
          mismatchCount: result.mismatches.length,
        };
        process.stdout.write(`${JSON.stringify(report)}\n`);
        if (result.mismatches.length > 0) process.exitCode = 1;
      } finally {
        await store.close();
      }
    });
  serving
    .command('render')
    .description(
      'render the default report of every current verdict the store has none of for this release (a deploy that changes how ' +
        'reports render), in one thread per core, with progress; resumable. Run it before APIs of the new release take traffic',
    )
    .action(async () => {
      const config = getConfig();
      const started = performance.now();
      const reads = await openApiReads({ dataDir: config.dataDir, followIntervalMs: 0 });
      const threads = os.availableParallelism();
      const renderer = threadedReportRenderer(threads);
      // Turns run back to back, as many renders in flight as threads; the timer never fires.
      const prerenderer = new ReportPrerenderer(
        { reads, renderer, requestsSeen: 0 },
        { idleBatch: 256, scan: 1_024, concurrency: threads, replaceOtherVersions: true, intervalMs: 2 ** 31 - 1, quietMs: 0 },
      );
      let last = performance.now();
      try {
        prerenderer.start();
        const checked = prerenderer.stats().pending;
        while (prerenderer.stats().pending > 0) {
          await prerenderer.turn();
          if (performance.now() - last < PROGRESS_EVERY_MS) continue;
          last = performance.now();
          const { rendered, pending } = prerenderer.stats();
          process.stderr.write(`serving render: ${checked - pending}/${checked} current verdicts checked, ${rendered} reports rendered\n`);
        }
        // A ticker that failed is counted and named, and the run goes on; the exit code says so.
        const failed = prerenderer.failures.slice(0, 20).map((f) => ({
          market: f.market,
          ticker: f.ticker,
          error: f.error instanceof Error ? f.error.message : String(f.error),
        }));
        const seconds = Math.round((performance.now() - started) / 100) / 10;
        const report = { checked, rendered: prerenderer.stats().rendered, failedCount: prerenderer.failedCount, failed, seconds };
        process.stdout.write(`${JSON.stringify(report)}\n`);
        if (prerenderer.failedCount > 0) process.exitCode = 1;
      } finally {
        prerenderer.stop();
        await renderer.close();
        await reads.close();
      }
    });
}
