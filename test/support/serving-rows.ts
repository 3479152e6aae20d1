import { SNAPSHOT_RATIOS } from '../../common/snapshot-ratios.ts';
import { FRAMEWORK_IDS } from '../../engine/frameworks.ts';
import type { VerdictStatus } from '../../engine/result-types.ts';
import type { ServingRow } from '../../serving/serving-types.ts';

/**
 * A US backfill row of the serving store for tests: every framework `status`, the first ratio
 * null and the others `i / ratioDivisor`; synthetic unless `overrides` say otherwise.
 */
export function servingRow(
  ticker: string,
  snapshotDate: string,
  screenedAt: string,
  status: VerdictStatus = 'compliant',
  { ratioDivisor = 100, ...overrides }: Partial<ServingRow> & { ratioDivisor?: number } = {},
): ServingRow {
  return {
    market: 'us',
    ticker,
    snapshotDate,
    screenedAt,
    source: 'backfill',
    statuses: Object.fromEntries(FRAMEWORK_IDS.map((id) => [id, status])) as ServingRow['statuses'],
    ratios: Object.fromEntries(SNAPSHOT_RATIOS.map((r, i) => [r, i === 0 ? null : i / ratioDivisor])) as ServingRow['ratios'],
    synthetic: true,
    dataSource: 'synthetic-sample',
    ...overrides,
  };
}
