import { TestWorkflowEnvironment } from '@temporalio/testing';
import { provisionTemporalCli } from '../../platform/temporal-cli.ts';

/** A real Temporal dev server started from the provisioned CLI binary (no download). */
export async function startTestTemporal(): Promise<TestWorkflowEnvironment> {
  const cli = await provisionTemporalCli();
  return TestWorkflowEnvironment.createLocal({
    server: { executable: { type: 'existing-path', path: cli.path }, extraArgs: ['--log-level', 'error'] },
  });
}
