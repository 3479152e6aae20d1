/**
 * Exposure rows from the XBRL instances `fetch edgar` saves (`xbrl/CIK##########/<accession>.xml`):
 * one row per activity the filing's revenue members name (evidence `filing_dimension`) and one
 * row of the revenue accounting (activity `revenue_accounted`), each dated the day the filing was
 * filed, so that no screening date sees a figure before it was public (docs/data/sources.md,
 * "XBRL instances").
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { REVENUE_ACCOUNTED_ACTIVITY } from '../../engine/inputs.ts';
import type { StagedValue } from '../stage-rows.ts';
import { revenueByActivity } from './revenue-activity.ts';
import { parseXbrlInstance } from './xbrl-instance.ts';

/** `0009999901-25-000004.xml` or `.xml.gz` → the accession. */
const INSTANCE_FILE = /^(\d{10}-\d{2}-\d{6})\.xml(\.gz)?$/;

/**
 * The rows of one company's saved instances, without the ticker. `filedOn` gives each
 * accession's filing date (from the company's submissions); an instance whose filing date is
 * unknown is left out, as its evidence could not be dated. Throws naming the file when an
 * instance cannot be read.
 */
export async function instanceExposureRows(
  folder: string,
  cik: string,
  filedOn: ReadonlyMap<string, string>,
): Promise<Array<Record<string, StagedValue>>> {
  const dir = path.join(folder, 'xbrl', `CIK${cik}`);
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => INSTANCE_FILE.test(n)).sort();
  const rows: Array<Record<string, StagedValue>> = [];
  for (const name of names) {
    const accession = INSTANCE_FILE.exec(name)![1]!;
    const filed = filedOn.get(accession);
    if (!filed) continue;
    const bytes = await readFile(path.join(dir, name));
    const text = name.endsWith('.gz') ? gunzipSync(bytes).toString('utf8') : bytes.toString('utf8');
    let result: ReturnType<typeof revenueByActivity>;
    try {
      result = revenueByActivity(parseXbrlInstance(text, accession));
    } catch (error) {
      throw new Error(`xbrl/CIK${cik}/${name}: ${(error as Error).message}`);
    }
    for (const e of result.exposures)
      rows.push({
        as_of: filed,
        activity: e.activity,
        revenue_share: e.revenueShare,
        source_ref: e.sourceRef,
        evidence: 'filing_dimension',
        involvement: e.involvement ?? null,
      });
    if (result.accounted)
      rows.push({
        as_of: filed,
        activity: REVENUE_ACCOUNTED_ACTIVITY,
        revenue_share: result.accounted.share,
        source_ref: result.accounted.sourceRef,
        evidence: 'filing_dimension',
        involvement: null,
      });
  }
  return rows;
}
