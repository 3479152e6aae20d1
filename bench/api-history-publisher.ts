/**
 * Publishes synthetic snapshots while an API process follows the lake (bench/api-history.bench.ts):
 * `rounds` times, one snapshot of every synthetic ticker for `date`, screened again each round,
 * through the snapshot writer of the code under test. Arguments: data dir, code root, date, tickers, rounds.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { syntheticRows } from './api-history.bench.ts';

const [dataDir, codeRoot, date, tickers, rounds] = process.argv.slice(2) as [string, string, string, string, string];
const { writeSnapshots } = (await import(
  pathToFileURL(path.join(codeRoot, 'warehouse', 'snapshot-writer.ts')).href
)) as typeof import('../warehouse/snapshot-writer.ts');
for (let round = 0; round < Number(rounds); round += 1) {
  // Screened now: newer than any earlier run's publishes of the same day.
  const screenedAt = `${date}T${new Date().toISOString().slice(11, 23)}`;
  await writeSnapshots(dataDir, syntheticRows(date, Number(tickers), 0, screenedAt), {
    fileStem: `history-bench-publish-${process.pid}-${round}`,
    threads: 1,
  });
  console.log(screenedAt);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
}
