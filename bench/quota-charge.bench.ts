/**
 * Quota-charge latency under 300 concurrent charges, on each service-state engine: two meters
 * (two API processes' worth: each its own connection) charge one key at once, 150 each, and
 * every charge is timed from call to answer. Two keys: one with 10 units (every charge goes to
 * the store: 10 pass, 290 are refused there) and one with room to spare (most charges are
 * served from the prepaid allowance in memory: the baseline of the same run).
 * Run alone with `npx tsx bench/quota-charge.bench.ts`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createAccount, createKey } from '../access/administration.ts';
import { AccessStore } from '../access/access-store.ts';
import { QuotaMeter } from '../access/meter.ts';
import { loadKeyHashSecret } from '../access/key-hashing.ts';
import { openServiceDb, type ServiceDb, type ServiceStateOptions } from '../service-state/db.ts';
import { startPostgresCluster } from '../test/support/postgres-cluster.ts';

const CONCURRENT = 300;

export interface ChargeFigures {
  engine: string;
  keyLimit: number;
  rounds: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  passedPerRound: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

async function measure(state: ServiceStateOptions, engine: string, keyLimit: number, rounds: number): Promise<ChargeFigures> {
  const dbs: ServiceDb[] = [await openServiceDb(state), await openServiceDb(state)];
  const stores = dbs.map((db) => new AccessStore(db));
  const meters = stores.map((store) => new QuotaMeter(store, 60_000));
  const secret = loadKeyHashSecret(state.dataDir);
  const times: number[] = [];
  let passed = 0;
  try {
    for (let round = 0; round < rounds; round += 1) {
      const account = `bench-${keyLimit}-${round}-${Math.random().toString(36).slice(2, 8)}`;
      await createAccount(stores[0]!, account, 'partner');
      const key = (await stores[0]!.key((await createKey(stores[0]!, secret, { account, dailyLimit: keyLimit })).key_id))!;
      const outcomes = await Promise.all(
        Array.from({ length: CONCURRENT }, async (_, i) => {
          const started = performance.now();
          const outcome = await meters[i % 2]!.charge(key, 'partner', 1, Date.now());
          times.push(performance.now() - started);
          return outcome.ok;
        }),
      );
      passed += outcomes.filter(Boolean).length;
      for (const meter of meters) await meter.returnSpare();
    }
  } finally {
    for (const meter of meters) await meter.close();
    for (const db of dbs) await db.close();
  }
  times.sort((a, b) => a - b);
  const round2 = (ms: number) => Math.round(ms * 100) / 100;
  return {
    engine,
    keyLimit,
    rounds,
    p50Ms: round2(percentile(times, 50)),
    p99Ms: round2(percentile(times, 99)),
    maxMs: round2(times.at(-1)!),
    passedPerRound: passed / rounds,
  };
}

export async function runQuotaChargeBench(rounds = Number(process.env.QUOTA_BENCH_ROUNDS ?? 10)): Promise<ChargeFigures[]> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'faithscreen-quota-bench-'));
  const cluster = await startPostgresCluster();
  try {
    const figures: ChargeFigures[] = [];
    const engines: Array<[string, ServiceStateOptions]> = [
      ['libsql', { dataDir, synchronous: 'NORMAL' }],
      ['postgres', { dataDir, databaseUrl: cluster.adminUrl }],
    ];
    for (const [engine, state] of engines) {
      for (const limit of [10, 1_000_000]) figures.push(await measure(state, engine, limit, rounds));
    }
    return figures;
  } finally {
    await cluster.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export function formatQuotaChargeBench(figures: ChargeFigures[]): string[] {
  return figures.map(
    (f) =>
      `[access] quota charge, ${CONCURRENT} concurrent over 2 connections, ${f.engine}, key of ${f.keyLimit.toLocaleString('en-US')} units: ` +
      `p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms, max ${f.maxMs} ms (${f.passedPerRound} passed per round, ${f.rounds} rounds)`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { describeMachine } = await import('./machine.ts');
  console.log(describeMachine());
  for (const line of formatQuotaChargeBench(await runQuotaChargeBench())) console.log(line);
}
