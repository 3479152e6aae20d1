/**
 * Every verdict of the repository's real companies (test/fixtures/realdata and
 * realdata-heldout): ingests their recorded SEC files and prices through the CLI into a temp
 * lake, screens every US listing on each date with the engine and prints one line per
 * (date, ticker, framework) with the status and the deciding reasons' codes. Run it on two
 * engine versions and diff the outputs to list what a change of rules moved.
 *
 * Usage: npx tsx scripts/real-verdicts.ts [--dates 2024-02-29,2020-06-30]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ENGINE_VERSION, FRAMEWORK_IDS, decidingReasons, screenCompany } from '../engine/index.ts';
import { ingestHeldOutCompanies } from '../test/real-companies/support/held-out-lake.ts';
import { ingestRealCompanies } from '../test/real-companies/support/real-lake.ts';
import { withDuckDB } from '../warehouse/duckdb.ts';
import { loadScreeningInputs } from '../warehouse/screening-inputs.ts';

const { values } = parseArgs({ options: { dates: { type: 'string', default: '2024-02-29,2020-06-30' } } });
const dates = values.dates.split(',');
if (dates.some((d) => !/^\d{4}-\d{2}-\d{2}$/.test(d))) {
  process.stderr.write('usage: real-verdicts.ts [--dates YYYY-MM-DD,YYYY-MM-DD]\n');
  process.exit(2);
}

/** Screens every listing with recorded filings in a lake ingested by `ingest`, on each date. */
async function printVerdicts(ingest: (dataDir: string) => Promise<void>): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'faithscreen-real-verdicts-'));
  try {
    await ingest(dataDir);
    await withDuckDB(':memory:', {}, async (connection) => {
      for (const date of dates) {
        const inputs = await loadScreeningInputs(connection, dataDir, { market: 'us', date });
        // The ticker list names thousands of companies; only those with recorded filings are screened here.
        const filed = inputs.filter((input) => input.fundamentals !== null);
        for (const input of filed.sort((a, b) => a.listing.ticker.localeCompare(b.listing.ticker))) {
          const result = screenCompany(input);
          for (const id of FRAMEWORK_IDS) {
            const f = result.frameworks[id]!;
            const deciding = decidingReasons(f.status, f.reasons).map((r) => r.code.replace(`${id}.`, ''));
            process.stdout.write(`${date}\t${input.listing.ticker}\t${id}\t${f.status}\t${deciding.join(',')}\n`);
          }
        }
      }
    });
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

process.stdout.write(`# engine ${ENGINE_VERSION}\n`);
// Each EDGAR ingest replaces the source's rows, so the two sets get a lake each.
await printVerdicts((dataDir) => ingestRealCompanies(dataDir));
await printVerdicts(ingestHeldOutCompanies);
