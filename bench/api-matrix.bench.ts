/**
 * The p99 matrix (`npx tsx bench/api-matrix.bench.ts`, part of `npm run bench`): the p99 of the
 * cached screen, as_of, search and /healthz against the bare route's p99 at 500, 1,000 and
 * 2,000 req/s, each cell passing when p99 ≤ 3 × the bare route's p99 + 1 ms (docs/api.md,
 * "Reads under load"). The API runs as the README runs it, in a process of its own: `faithscreen
 * api` alone, then `faithscreen start` (`npm start`: Temporal dev server and API, the worker in a
 * child process at WORKER_NICE), then `faithscreen start` again while a backfill runs in its worker. The bare route
 * (a plain node `http` server returning the cached screen's body) is its own process and is
 * measured at each rate in the same run, before the routes. The generator is the paced
 * open-loop one (bench/paced-load.ts), a process of its own, 50 keep-alive connections. Beside
 * each cell: the API process's CPU time per 1,000 requests (all its threads, not its worker child's; the machine is
 * shared, and CPU moves far less with other work than latency does).
 *
 * Access patterns: cached screen = one ticker again and again (the report cache answers; see
 * bench/api-spread.bench.ts for spread reads); as_of = 500 tickers × dates, round robin;
 * search = 2 queries each of ~130 names, round robin; /healthz. Data: bench/api.bench.ts's lake
 * (synthetic sample universe at API_MATRIX_SCALE, default 0.1: a current snapshot per stock and
 * six yearly history snapshots).
 */
import { cp, mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openApiReads } from '../reads/api-reads.ts';
import { freePort } from '../test/support/http.ts';
import { prepareLake } from './api.bench.ts';
import { describeMachine } from './machine.ts';
import { pacedLoadInProcess, type PacedLoadFigures } from './paced-load.ts';
import { faithscreen, startBareRoute, startRole, type RunningProcess } from './role-process.ts';

export const MATRIX_RATES = [500, 1_000, 2_000];
export const MATRIX_ROUTES = ['cached screen', 'as_of', 'search', '/healthz'] as const;
export type MatrixRoute = (typeof MATRIX_ROUTES)[number];
export const MATRIX_ROLES = ['faithscreen api', 'npm start', 'npm start, backfill running'] as const;
export type MatrixRole = (typeof MATRIX_ROLES)[number];

/**
 * The roles named in `API_MATRIX_ROLES`, separated by `;` (a role's own name holds a comma), or
 * all of them; an unknown name is refused rather than run as something else.
 */
export function rolesFrom(value: string | undefined): MatrixRole[] {
  if (!value) return [...MATRIX_ROLES];
  return value.split(';').map((name) => {
    const role = MATRIX_ROLES.find((known) => known === name.trim());
    if (!role)
      throw new Error(
        `API_MATRIX_ROLES: unknown role '${name.trim()}'; use ${MATRIX_ROLES.map((r) => `'${r}'`).join(', ')}, separated by ';'`,
      );
    return role;
  });
}

export interface MatrixCell {
  role: MatrixRole;
  route: MatrixRoute;
  ratePerSecond: number;
  load: PacedLoadFigures;
  /** The bare route's p99 at the same rate, measured in the same run just before. */
  bareP99Ms: number;
  /** 3 × bare p99 + 1 ms. */
  limitMs: number;
  pass: boolean;
  /** CPU of the API's process (every thread) per 1,000 requests, ms; null off Linux. */
  cpuMsPer1000: number | null;
}

export interface MatrixFigures {
  scale: number;
  seconds: number;
  cells: MatrixCell[];
  bare: Array<{ role: MatrixRole; ratePerSecond: number; load: PacedLoadFigures }>;
  /** Whether the backfill was still running when the last cell of its role ended. */
  backfillRunningAtEnd: boolean | null;
  loadAverage: [number, number];
}

/** 3 × the bare route's p99 + 1 ms: the issue's bound for every route and rate. */
export const matrixLimitMs = (bareP99Ms: number) => Math.round((3 * bareP99Ms + 1) * 100) / 100;

interface Routes {
  paths: Record<MatrixRoute, string[]>;
  metered: Record<MatrixRoute, boolean>;
}

/** What each route asks for, from the lake's listings (the same for every role). */
async function routesOf(dataDir: string): Promise<Routes> {
  const reads = await openApiReads({ dataDir, followIntervalMs: 0 });
  try {
    const stocks = reads.listings('us').filter((l) => l.kind === 'stock' && reads.current('us', l.ticker));
    const sample = stocks.filter((_, i) => i % Math.max(1, Math.floor(stocks.length / 500)) === 0);
    const words = reads
      .listings()
      .filter((_, i) => i % 97 === 0)
      .map((l) => l.name.split(' ')[0]!.slice(0, 4));
    return {
      paths: {
        'cached screen': [`/api/screen/us/${stocks[0]!.ticker}`],
        as_of: sample.map((l, i) => `/api/screen/us/${l.ticker}?as_of=${2011 + (i % 15)}-0${1 + (i % 9)}-15`),
        search: words.flatMap((w, i) => [
          `/api/universe/search?q=${encodeURIComponent(w)}`,
          `/api/universe/search?q=${encodeURIComponent(w.slice(0, 2))}&market=${i % 2 ? 'us' : 'gb'}&limit=10`,
        ]),
        '/healthz': ['/healthz'],
      },
      metered: { 'cached screen': true, as_of: true, search: false, '/healthz': false },
    };
  } finally {
    await reads.close();
  }
}

/** Runs the matrix and returns its figures. */
export async function runApiMatrixBench(
  options: { scale?: number; seconds?: number; rates?: number[]; roles?: MatrixRole[] } = {},
): Promise<MatrixFigures> {
  const scale = options.scale ?? Number(process.env.API_MATRIX_SCALE ?? 0.1);
  const seconds = options.seconds ?? Number(process.env.API_MATRIX_SECONDS ?? 5);
  // Bounded cells: a request unanswered 10 s after it was due counts as an error, timed at 10 s.
  const timeoutMs = Number(process.env.API_MATRIX_TIMEOUT_MS ?? 10_000);
  const rates = options.rates ?? (process.env.API_MATRIX_RATES ? process.env.API_MATRIX_RATES.split(',').map(Number) : MATRIX_RATES);
  const roles = options.roles ?? rolesFrom(process.env.API_MATRIX_ROLES);
  const dataDir = process.env.API_MATRIX_DATA_DIR ?? path.join(os.tmpdir(), `faithscreen-api-matrix-${scale}`);
  await mkdir(dataDir, { recursive: true });
  await prepareLake(dataDir, scale);
  const routes = await routesOf(dataDir);
  const baseEnv = { DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATA_SOURCE: 'sample', SAMPLE_SCALE: String(scale) };
  // A partner key with ample quota, as a real client's; service state is DATA_DIR/service.db.
  const account = `bench-${process.pid}`;
  await faithscreen(baseEnv, ['accounts', 'create', account, '--tier', 'partner']);
  const { key } = JSON.parse(
    await faithscreen(baseEnv, ['keys', 'create', '--account', account, '--daily-limit', '100000000', '--json']),
  ) as {
    key: string;
  };
  const headers = { 'X-API-Key': key };

  const cells: MatrixCell[] = [];
  const bareRuns: MatrixFigures['bare'] = [];
  let backfillRunningAtEnd: boolean | null = null;
  const loadAtStart = os.loadavg()[0]!;
  for (const role of roles) {
    const port = await freePort();
    // The backfill runs on a copy of the lake: a backfill skips what is published, so on the lake
    // itself only the first run of this bench would have one to measure beside.
    const roleDir = role === 'npm start, backfill running' ? `${dataDir}-backfill-${process.pid}` : dataDir;
    if (roleDir !== dataDir) await cp(dataDir, roleDir, { recursive: true });
    const env: Record<string, string> = { ...baseEnv, DATA_DIR: roleDir, PORT: String(port) };
    if (role === 'faithscreen api')
      env.TEMPORAL_ADDRESS = `127.0.0.1:${await freePort()}`; // never called: no refresh is due
    else Object.assign(env, { TEMPORAL_DEV_PORT: String(await freePort()), TEMPORAL_UI_PORT: String(await freePort()) });
    const api = await startRole(role === 'faithscreen api' ? 'api' : 'start', env, `http://127.0.0.1:${port}`);
    let backfill: Promise<unknown> | null = null;
    let backfillDone = false;
    const stopBackfill = new AbortController();
    let bare: RunningProcess | null = null;
    try {
      const body = Buffer.from(await (await fetch(`${api.url}${routes.paths['cached screen'][0]}`, { headers })).arrayBuffer());
      bare = await startBareRoute(body);
      if (role === 'npm start, backfill running') {
        const cliEnv = { ...baseEnv, DATA_DIR: roleDir, TEMPORAL_ADDRESS: `127.0.0.1:${env.TEMPORAL_DEV_PORT}` };
        backfill = faithscreen(cliEnv, ['backfill', '--from', '2012-01-01', '--cadence', 'month-end'], stopBackfill.signal).then(
          () => (backfillDone = true),
          () => (backfillDone = true),
        );
        await new Promise((resolve) => setTimeout(resolve, 5_000)); // the run's first activities are under way
      }
      // Warm-up: every path of every route once (at least 1 s), so each cell measures the same
      // state: as_of's history lookups are then remembered, as a running API's are for the dates
      // clients ask again (docs/serving.md, "History reads", says how a cold one is answered).
      for (const route of MATRIX_ROUTES) {
        const routeHeaders = routes.metered[route] ? headers : {};
        await pacedLoadInProcess({
          url: api.url,
          paths: routes.paths[route],
          headers: routeHeaders,
          ratePerSecond: 200,
          seconds: Math.max(1, routes.paths[route].length / 200),
          connections: 50,
          timeoutMs,
        });
      }
      for (const ratePerSecond of rates) {
        const bareLoad = await pacedLoadInProcess({ url: bare.url, paths: ['/'], ratePerSecond, seconds, connections: 50, timeoutMs });
        bareRuns.push({ role, ratePerSecond, load: bareLoad });
        for (const route of MATRIX_ROUTES) {
          const cpuBefore = api.cpuMs();
          const load = await pacedLoadInProcess({
            url: api.url,
            paths: routes.paths[route],
            headers: routes.metered[route] ? headers : {},
            ratePerSecond,
            seconds,
            connections: 50,
            timeoutMs,
          });
          const cpuAfter = api.cpuMs();
          const limitMs = matrixLimitMs(bareLoad.p99Ms);
          cells.push({
            role,
            route,
            ratePerSecond,
            load,
            bareP99Ms: bareLoad.p99Ms,
            limitMs,
            pass: load.errors === 0 && load.p99Ms <= limitMs,
            cpuMsPer1000:
              cpuBefore === null || cpuAfter === null ? null : Math.round(((cpuAfter - cpuBefore) / Math.max(1, load.completed)) * 1000),
          });
        }
      }
      if (backfill) backfillRunningAtEnd = !backfillDone;
    } finally {
      stopBackfill.abort();
      await backfill;
      await bare?.stop();
      await api.stop();
      // Retried: files a stopping worker still writes can make one pass meet a folder not yet empty, which would lose the run's figures.
      if (roleDir !== dataDir) await rm(roleDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 500 });
    }
  }
  return { scale, seconds, cells, bare: bareRuns, backfillRunningAtEnd, loadAverage: [loadAtStart, os.loadavg()[0]!] };
}

/** Responses other than 200 by status (`timeout`: abandoned after the cell's timeout), or nothing. */
function statusesOf(load: PacedLoadFigures): string {
  const other = Object.entries(load.statuses).filter(([status]) => status !== '200');
  return other.length === 0 ? '' : ` (${other.map(([status, n]) => `${n}× ${status}`).join(', ')})`;
}

/** The figures as printed lines: one table row per role, route and rate. */
export function formatApiMatrixBench(f: MatrixFigures): string[] {
  const passed = f.cells.filter((c) => c.pass).length;
  return [
    `[api-matrix] sample scale ${f.scale}, ${f.seconds} s per cell, paced open loop over 50 connections; machine load average (1 min) ` +
      `${f.loadAverage[0].toFixed(1)} at the start, ${f.loadAverage[1].toFixed(1)} at the end (other work on the machine skews every figure)`,
    ...f.bare.map(
      (b) =>
        `[api-matrix] ${b.role}: bare route (plain node http, same body) at ${b.ratePerSecond} req/s: p50 ${b.load.p50Ms} ms, p99 ${b.load.p99Ms} ms`,
    ),
    ...f.cells.map(
      (c) =>
        `[api-matrix] ${c.role} | ${c.route} | ${c.ratePerSecond} req/s | p50 ${c.load.p50Ms} ms | p99 ${c.load.p99Ms} ms | ` +
        `limit ${c.limitMs} ms (bare p99 ${c.bareP99Ms}) | errors ${c.load.errors} of ${c.load.sent}${statusesOf(c.load)} | ` +
        `CPU ${c.cpuMsPer1000 ?? 'n/a'} ms per 1,000 | ` +
        `${c.pass ? 'pass' : 'FAIL'}`,
    ),
    ...(f.backfillRunningAtEnd === null
      ? []
      : [`[api-matrix] the backfill was ${f.backfillRunningAtEnd ? 'still running' : 'finished'} when its role's last cell ended`]),
    `[api-matrix] ${passed} of ${f.cells.length} cells within 3 × bare p99 + 1 ms`,
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(describeMachine());
  for (const text of formatApiMatrixBench(await runApiMatrixBench())) console.log(text);
}
