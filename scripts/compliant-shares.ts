/**
 * The synthetic universe's verdict shares per framework on one date: generates the embedded
 * sample source into a temp lake (as `faithscreen ingest --source sample` does), loads every
 * stock's screening input the way the pipelines' chunk work loads them, screens each with the
 * engine and prints, per framework, the share and count of each status and the engine version.
 * Run it on two engine versions to see how the rules move the shares.
 *
 * Usage: npx tsx scripts/compliant-shares.ts [--date 2026-06-30] [--scale 1] [--markets us,gb] [--data-dir DIR]
 *   --date      screening date and the sample's run date (default 2026-06-30)
 *   --scale     sample scale, 1 = the full universe of ~124,600 stocks (default 1)
 *   --markets   only these markets (default: every market)
 *   --data-dir  screen a lake already ingested there instead of generating one
 *   --why       also list, per framework, what makes its questionable verdicts questionable
 *               (the deciding checks' codes and doubts, most frequent first)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { MARKET_KEYS } from '../common/markets.ts';
import { ENGINE_VERSION, FRAMEWORK_IDS, decidingReasons, screenCompany, type FrameworkId, type VerdictStatus } from '../engine/index.ts';
import { ingestSource } from '../sources/ingest.ts';
import { withDuckDB } from '../warehouse/duckdb.ts';
import { loadScreeningInputs } from '../warehouse/screening-inputs.ts';

const STATUSES: readonly VerdictStatus[] = ['compliant', 'questionable', 'non_compliant', 'insufficient_data'];
/** Listings loaded at once: bounds the heap as the pipelines' chunks do. */
const SLICE = 5_000;

const { values } = parseArgs({
  options: {
    date: { type: 'string', default: '2026-06-30' },
    scale: { type: 'string', default: '1' },
    markets: { type: 'string' },
    'data-dir': { type: 'string' },
    why: { type: 'boolean', default: false },
  },
});
const date = values.date;
const scale = Number(values.scale);
if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !(scale > 0 && scale <= 1)) {
  process.stderr.write('usage: compliant-shares.ts [--date YYYY-MM-DD] [--scale 0<s<=1] [--markets us,gb] [--data-dir DIR]\n');
  process.exit(2);
}
const markets = values.markets ? values.markets.split(',') : [...MARKET_KEYS];
const unknown = markets.filter((m) => !MARKET_KEYS.includes(m));
if (unknown.length > 0) {
  process.stderr.write(`unknown market(s) ${unknown.join(', ')}; valid: ${MARKET_KEYS.join(', ')}\n`);
  process.exit(2);
}

const counts = new Map<FrameworkId, Record<VerdictStatus, number>>(
  FRAMEWORK_IDS.map((id) => [id, { compliant: 0, questionable: 0, non_compliant: 0, insufficient_data: 0 }]),
);
/** Per framework: how often each deciding check (code and doubt) made a verdict questionable. */
const questionableWhy = new Map<FrameworkId, Map<string, number>>(FRAMEWORK_IDS.map((id) => [id, new Map()]));
const versions = new Set<string>();
let screened = 0;
let failed = 0;

const started = performance.now();
const ownDir = values['data-dir'] === undefined;
const dataDir = values['data-dir'] ?? (await mkdtemp(path.join(os.tmpdir(), 'faithscreen-shares-')));
let ingestSeconds = 0;
try {
  if (ownDir) {
    await ingestSource({ source: 'sample', scale, asOf: date, dataDir, markets, concurrency: 2 });
    ingestSeconds = (performance.now() - started) / 1000;
  }
  await withDuckDB(':memory:', {}, async (connection) => {
    for (const market of markets) {
      for (let offset = 0; ; offset += SLICE) {
        const inputs = await loadScreeningInputs(connection, dataDir, { market, date, kind: 'stock', offset, limit: SLICE });
        for (const input of inputs) {
          try {
            const result = screenCompany(input);
            versions.add(result.engine_version);
            for (const id of FRAMEWORK_IDS) {
              const f = result.frameworks[id];
              if (!f) continue;
              counts.get(id)![f.status] += 1;
              if (values.why && f.status === 'questionable') {
                const why = questionableWhy.get(id)!;
                for (const r of decidingReasons(f.status, f.reasons)) {
                  const key = `${r.code.replace(`${id}.`, '')} (${r.doubt ?? 'no doubt named'})`;
                  why.set(key, (why.get(key) ?? 0) + 1);
                }
              }
            }
            screened += 1;
          } catch {
            // The pipelines record such a ticker as failed and go on; so does the tally.
            failed += 1;
          }
        }
        if (inputs.length < SLICE) break;
      }
    }
  });
} finally {
  if (ownDir) await rm(dataDir, { recursive: true, force: true });
}
const totalSeconds = (performance.now() - started) / 1000;

const pct = (n: number, of: number): string => (of === 0 ? '-' : `${((100 * n) / of).toFixed(1)}%`);
const lines = [
  `engine ${[...versions].join(', ') || ENGINE_VERSION} · screening date ${date} · sample scale ${scale} · markets ${values.markets ?? 'all'}`,
  `stocks screened ${screened}${failed ? ` (${failed} failed to screen)` : ''} · ingest ${ingestSeconds.toFixed(1)} s · total ${totalSeconds.toFixed(1)} s`,
  '',
  ['framework'.padEnd(18), ...STATUSES.map((s) => s.padStart(24))].join(''),
];
for (const [id, byStatus] of counts) {
  const of = STATUSES.reduce((sum, s) => sum + byStatus[s], 0);
  lines.push([id.padEnd(18), ...STATUSES.map((s) => `${pct(byStatus[s], of)} (${byStatus[s]})`.padStart(24))].join(''));
}
if (values.why) {
  for (const [id, why] of questionableWhy) {
    if (why.size === 0) continue;
    lines.push('', `${id}: questionable because (a verdict may count under several checks)`);
    for (const [key, n] of [...why].sort((a, b) => b[1] - a[1]).slice(0, 8)) lines.push(`  ${String(n).padStart(7)}  ${key}`);
  }
}
process.stdout.write(`${lines.join('\n')}\n`);
