/**
 * Records the event histories of workflow runs on a real dev server, for replay tests. The runs
 * share one temp DATA_DIR, in order, so a later run can use what an earlier one ingested.
 * Usage: npx tsx scripts/record-workflow-history.ts OUT_DIR type[=jsonArgs] [type[=jsonArgs] …]
 * e.g.   npx tsx scripts/record-workflow-history.ts test/fixtures/histories lakeMaintenance nightlyScreen='{"date":"2026-11-20"}'
 * Each history is written to OUT_DIR/<kebab-type>.json. Re-record only when a workflow changes
 * on purpose (and keep the old history when old runs must still replay).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { Worker } from '@temporalio/worker';
import { createActivities } from '../activities/index.ts';
import { bundleWorkflows } from '../platform/worker.ts';
import { startTestTemporal } from '../test/support/temporal.ts';
import { makeTempDir } from '../test/support/temp-dir.ts';

const [outDir, ...specs] = process.argv.slice(2);
if (!outDir || specs.length === 0) {
  process.stderr.write('usage: record-workflow-history.ts OUT_DIR type[=jsonArgs] ...\n');
  process.exit(2);
}
const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const env = await startTestTemporal();
const temp = await makeTempDir();
try {
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue: 'record',
    workflowBundle: await bundleWorkflows(),
    activities: createActivities({ dataDir: temp.dir, source: { source: 'sample', scale: 0.001 } }),
  });
  await worker.runUntil(async () => {
    for (const spec of specs) {
      const [type, json] = [spec.split('=')[0]!, spec.split('=').slice(1).join('=')];
      const handle = await env.client.workflow.start(type, {
        taskQueue: 'record',
        workflowId: `record-${type}`,
        args: json ? [JSON.parse(json)] : [],
      });
      // A failed run is a history worth replaying too.
      await handle.result().catch(() => undefined);
      const history = await handle.fetchHistory();
      const file = path.join(outDir, `${kebab(type)}.json`);
      await writeFile(file, `${JSON.stringify(JSON.parse(historyToJSON(history)), null, 1)}\n`);
      process.stdout.write(`recorded ${history.events?.length ?? 0} events of ${type} to ${file}\n`);
    }
  });
} finally {
  await env.teardown();
  await temp.cleanup();
}
