import { SingleBar, Presets } from 'cli-progress';
import type { RunProgress } from '../workflows/run-progress.ts';

/** Shows a run's progress: a live bar on a terminal, plain lines (at most one per change) otherwise. */
export interface ProgressView {
  update(progress: RunProgress): void;
  stop(): void;
}

/** One line describing a run's progress, for logs and non-TTY output. */
export function progressLine(p: RunProgress): string {
  const pct = p.totalTickers > 0 ? ((100 * p.doneTickers) / p.totalTickers).toFixed(1) : '0.0';
  return (
    `${p.phase} ${p.date}: ${p.doneTickers}/${p.totalTickers} tickers (${pct}%), chunks ${p.doneChunks}/${p.totalChunks}, ` +
    `published ${p.published}, skipped ${p.skipped}, failed ${p.failedCount}`
  );
}

export function createProgressView(stream: NodeJS.WriteStream = process.stderr): ProgressView {
  if (!stream.isTTY) {
    let last = '';
    return {
      update(progress) {
        const line = progressLine(progress);
        if (line !== last) stream.write(`${line}\n`);
        last = line;
      },
      stop() {},
    };
  }
  const bar = new SingleBar(
    { stream, format: '{phase} |{bar}| {percentage}% {value}/{total} tickers · published {published} · failed {failed}', hideCursor: true },
    Presets.shades_classic,
  );
  let started = false;
  return {
    update(progress) {
      const payload = { phase: progress.phase.padEnd(9), published: progress.published, failed: progress.failedCount };
      if (!started) {
        bar.start(Math.max(progress.totalTickers, 1), progress.doneTickers, payload);
        started = true;
      }
      bar.setTotal(Math.max(progress.totalTickers, 1));
      bar.update(progress.doneTickers, payload);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
