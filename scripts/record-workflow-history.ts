/**
 * Records the event history of one workflow run on a real dev server, for replay tests.
 * Usage: npx tsx scripts/record-workflow-history.ts lakeMaintenance test/fixtures/histories/lake-maintenance.json
 * Re-record only when a workflow changes on purpose (and keep the old history if old runs must still replay).
 */
import { writeFile } from 'node:fs/promises';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { Worker } from '@temporalio/worker';
import { createActivities } from '../activities/index.ts';
import { bundleWorkflows } from '../platform/worker.ts';
import { startTestTemporal } from '../test/support/temporal.ts';
import { makeTempDir } from '../test/support/temp-dir.ts';

const [workflowType, outFile] = process.argv.slice(2);
if (!workflowType || !outFile) {
  process.stderr.write('usage: record-workflow-history.ts <workflowType> <out.json>\n');
  process.exit(2);
}
const env = await startTestTemporal();
const temp = await makeTempDir();
try {
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue: 'record',
    workflowBundle: await bundleWorkflows(),
    activities: createActivities({ dataDir: temp.dir, source: { source: 'sample', scale: 0.001 } }),
  });
  const history = await worker.runUntil(async () => {
    const handle = await env.client.workflow.start(workflowType, { taskQueue: 'record', workflowId: `record-${workflowType}` });
    await handle.result();
    return handle.fetchHistory();
  });
  await writeFile(outFile, `${JSON.stringify(JSON.parse(historyToJSON(history)), null, 1)}\n`);
  process.stdout.write(`recorded ${history.events?.length ?? 0} events to ${outFile}\n`);
} finally {
  await env.teardown();
  await temp.cleanup();
}
