import { snapshotRowFrom } from '../../../activities/snapshot-rows.ts';
import { screenCompany, type ScreeningInput } from '../../../engine/index.ts';
import { withDuckDB } from '../../../warehouse/duckdb.ts';
import { loadScreeningInputs } from '../../../warehouse/screening-inputs.ts';
import { writeSnapshots } from '../../../warehouse/snapshot-writer.ts';
import { daysAgo, TODAY } from '../../api/support/lake-fixture.ts';

const flip = (status: string) => (status === 'compliant' ? 'non_compliant' : 'compliant');

async function inputOn(dataDir: string, ticker: string, date: string): Promise<ScreeningInput> {
  const [input] = await withDuckDB(':memory:', {}, (c) => loadScreeningInputs(c, dataDir, { market: 'us', date, tickers: [ticker] }));
  return input!;
}

/**
 * Writes a screen of `ticker` dated yesterday that says the opposite of today's screen about
 * AAOIFI and the same as today's about every other framework, so today's re-screen changes
 * exactly one status. Returns AAOIFI's status before and now.
 */
export async function flippedYesterday(dataDir: string, ticker: string): Promise<{ before: string; now: string }> {
  const todayInput = await inputOn(dataDir, ticker, TODAY);
  const today = snapshotRowFrom(todayInput, screenCompany(todayInput), {
    source: 'refresh',
    runId: 'probe',
    screenedAt: `${TODAY}T00:00:00.000`,
  });
  const yesterdayInput = await inputOn(dataDir, ticker, daysAgo(1));
  const yesterday = snapshotRowFrom(yesterdayInput, screenCompany(yesterdayInput), {
    source: 'nightly',
    runId: 'nightly-yesterday',
    screenedAt: `${daysAgo(1)}T02:00:00.000`,
  });
  for (const [column, value] of Object.entries(today)) if (column.endsWith('_status')) Object.assign(yesterday, { [column]: value });
  yesterday.shariah_aaoifi_status = flip(today.shariah_aaoifi_status) as typeof yesterday.shariah_aaoifi_status;
  await writeSnapshots(dataDir, [yesterday], { fileStem: `yesterday-${ticker}` });
  return { before: yesterday.shariah_aaoifi_status, now: today.shariah_aaoifi_status };
}

export async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
