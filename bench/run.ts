/** `npm run bench`: every benchmark in one run, figures printed with the machine they ran on. */
import { describeMachine } from './machine.ts';
import { runEngineBench } from './engine.bench.ts';
import { runPublishBench } from './publish.bench.ts';

console.log(describeMachine());
console.log('');

const publish = await runPublishBench();
console.log(
  `[platform] atomic publish: ${publish.files} Parquet files × ${publish.rowsPerFile} rows in ${publish.seconds.toFixed(2)} s ` +
    `= ${publish.filesPerSecond.toFixed(0)} publishes/s`,
);

const engine = runEngineBench();
console.log(
  `[engine] ${engine.companies} companies × ${engine.frameworksPerCompany} frameworks in one process, one thread: ${engine.totalMs} ms, ` +
    `median of ${engine.passesMs.join(' / ')} ms ` +
    `(${engine.companiesPerSecond} companies/s, ${engine.microsecondsPerCompany} µs each; target < 5000 ms)`,
);

// How the serving store compresses results: zstd against the dictionary beside the deflate before it (seconds).
const { runStoredResultsBench, formatStoredResultsBench } = await import('./stored-results.bench.ts');
for (const line of formatStoredResultsBench(runStoredResultsBench())) console.log(line);

const { runDataBench, describeDataBench } = await import('./data.bench.ts');
for (const line of describeDataBench(await runDataBench(Number(process.env.BENCH_SCALE ?? process.env.DATA_BENCH_SCALE ?? 1))))
  console.log(line);

// Full-scale pipeline and API benchmarks generate their own universe (minutes each). Set
// BENCH_SCALE below 1 for a quicker, smaller run.
const scale = Number(process.env.BENCH_SCALE ?? 1);
const { runPipelineBench, describePipelineBench } = await import('./pipeline.bench.ts');
for (const line of describePipelineBench(await runPipelineBench(scale))) console.log(line);

// Month-end backfill from 2009 through Temporal at a reduced sample scale (BENCH_BACKFILL_SCALE,
// default 0.05: about 1.1 million snapshots), extrapolated to the full universe.
const { runBackfillBench, describeBackfillBench } = await import('./backfill.bench.ts');
for (const line of describeBackfillBench(await runBackfillBench(Number(process.env.BENCH_BACKFILL_SCALE ?? 0.05)))) console.log(line);

const { runApiBench, formatApiBench } = await import('./api.bench.ts');
for (const line of formatApiBench(await runApiBench({ scale }))) console.log(line);

// Spread reads: each request a different ticker (API_SPREAD_SCALE, default 1, of the US sample).
const { runApiSpreadBench, formatApiSpreadBench } = await import('./api-spread.bench.ts');
for (const line of formatApiSpreadBench(await runApiSpreadBench())) console.log(line);

// The p99 matrix: cached screen, as_of, search and /healthz vs the bare route at 500/1,000/2,000 req/s, in
// `faithscreen api`, `npm start` and `npm start` during a backfill (API_MATRIX_SCALE, default 0.1; about 10 minutes).
const { runApiMatrixBench, formatApiMatrixBench } = await import('./api-matrix.bench.ts');
for (const line of formatApiMatrixBench(await runApiMatrixBench())) console.log(line);

const { runForensicBench, formatForensicBench } = await import('./forensic.bench.ts');
for (const line of formatForensicBench(await runForensicBench())) console.log(line);

// Purification beside an as_of read, over month-end history 2012–2025 (PURIFICATION_BENCH_SCALE, default 0.01).
const { runPurificationBench, formatPurificationBench } = await import('./purification.bench.ts');
for (const line of formatPurificationBench(await runPurificationBench())) console.log(line);

const { runVerifyBench, formatVerifyBench } = await import('./verify.bench.ts');
for (const line of formatVerifyBench(await runVerifyBench())) console.log(line);

const { runQuotaChargeBench, formatQuotaChargeBench } = await import('./quota-charge.bench.ts');
for (const line of formatQuotaChargeBench(await runQuotaChargeBench())) console.log(line);

const { runSignInBench, formatSignInBench } = await import('./sign-in.bench.ts');
for (const line of formatSignInBench(await runSignInBench())) console.log(line);
// 2,000 wrong-password sign-ins kept in flight from one address by a separate process while real users sign in from others.
const { runSignInFloodBench, formatSignInFloodBench } = await import('./sign-in-flood.bench.ts');
for (const line of formatSignInFloodBench(await runSignInFloodBench())) console.log(line);
// History length: the API's ready time, RSS and as_of against a synthetic month-end history
// (HISTORY_BENCH_SIZES, default a quarter and the whole of 2009 → today; about 15 minutes).
const { runApiHistoryBench, formatApiHistoryBench } = await import('./api-history.bench.ts');
for (const line of formatApiHistoryBench(await runApiHistoryBench())) console.log(line);

// Status timeline over 73 quarter ends of a small synthetic US sample, beside as_of with reasons (about a minute).
const { runTimelineBench, formatTimelineBench } = await import('./timeline.bench.ts');
for (const line of formatTimelineBench(await runTimelineBench())) console.log(line);

// as_of spread over tickers and days of the whole history from the serving store, beside a bare route at 500/1,000 req/s, the idle
// event loop and the first start after an upgrade (ASOF_BENCH_TICKERS, default 20,000, over a synthetic month-end history;
// ASOF_BENCH_SIZES, default all of it; ASOF_BENCH_BASELINE, an older checkout to measure beside; about 30 minutes).
const { runApiAsOfBench, formatApiAsOfBench } = await import('./api-asof.bench.ts');
for (const line of formatApiAsOfBench(await runApiAsOfBench())) console.log(line);

// Listings republished while the API serves: event-loop delay of a universe reload on the event loop vs in a worker thread
// (UNIVERSE_BENCH_LISTINGS, default 30,000 synthetic listings; under a minute).
const { runApiUniverseBench, formatApiUniverseBench } = await import('./api-universe.bench.ts');
for (const line of formatApiUniverseBench(await runApiUniverseBench())) console.log(line);

// The worker's lower CPU priority: an API-like process's share of the cores beside a busy worker at nice 0 and 10 (seconds).
const { runWorkerPriorityBench, formatWorkerPriorityBench } = await import('./worker-priority.bench.ts');
for (const line of formatWorkerPriorityBench(await runWorkerPriorityBench())) console.log(line);

// POST /api/portfolio: 200 holdings (197 stocks + 3 funds looked through), caches cold, beside POST /api/screen/batch
// of as many stocks (PORTFOLIO_BENCH_SCALE, default 0.05 of the US sample; under a minute).
const { runPortfolioBench, formatPortfolioBench } = await import('./portfolio.bench.ts');
for (const line of formatPortfolioBench(await runPortfolioBench())) console.log(line);

// Custom screens at read time: applyCustomScreen per verdict beside parsing a stored result and re-screening (seconds).
const { runCustomScreenBench, formatCustomScreenBench } = await import('./custom-screen.bench.ts');
for (const line of formatCustomScreenBench(runCustomScreenBench())) console.log(line);

// The status timeline under a custom screen beside the built-in one, over HTTP on quarter-end history from 2009 (seconds).
const { runCustomTimelineBench, formatCustomTimelineBench } = await import('./custom-timeline.bench.ts');
for (const line of formatCustomTimelineBench(await runCustomTimelineBench())) console.log(line);

// The serving store's embedded engine: SQLite (libsql) against LMDB on the same synthetic month-end history, bulk write, size,
// cold reads and reads beside a writing process (SERVING_BENCH_TICKERS × SERVING_BENCH_DATES, default 2 M rows; about 5 minutes).
const { runServingEnginesBench, formatServingEnginesBench } = await import('./serving-engines.bench.ts');
for (const line of formatServingEnginesBench(await runServingEnginesBench())) console.log(line);
