/**
 * Sign-in benchmark (`npx tsx bench/sign-in.bench.ts`): what one password check costs with the
 * production scrypt parameters (N=2^15, r=8, p=3) against OWASP's first setting (N=2^17, r=8,
 * p=1) measured in the same run, and whether an unknown email answers as slowly as a wrong
 * password (docs/access.md, "No user enumeration"). Bounded: SIGN_IN_BENCH_ROUNDS (default 7)
 * of each, run alternately so background load falls on both alike.
 */
import { randomBytes } from 'node:crypto';
import { AccessStore } from '../access/access-store.ts';
import { createAccount } from '../access/administration.ts';
import { AccountUserStore } from '../access/account-user-store.ts';
import { AccountAuth } from '../access/account-users.ts';
import { DEFAULT_SCRYPT, hashPassword, passwordMatches, type ScryptParameters } from '../access/password-hashing.ts';
import { openServiceDb } from '../service-state/db.ts';
import { makeTempDir } from '../test/support/temp-dir.ts';
import { describeMachine } from './machine.ts';

const OWASP_BASELINE: ScryptParameters = { N: 2 ** 17, r: 8, p: 1 };

export interface SignInBenchFigures {
  rounds: number;
  /** Median ms of one password check. */
  checkMs: { production: number; baseline: number };
  /** What scrypt allocates per check (128·N·r bytes), MiB. */
  memoryMiB: { production: number; baseline: number };
  /** Median ms of a refused sign-in through AccountAuth on a real service.db. */
  signInMs: { wrongPassword: number; unknownEmail: number };
}

const mib = (params: ScryptParameters) => (128 * params.N * params.r) / 2 ** 20;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

export async function runSignInBench(rounds = Number(process.env.SIGN_IN_BENCH_ROUNDS ?? 7)): Promise<SignInBenchFigures> {
  const production = await hashPassword('a password of ordinary length', DEFAULT_SCRYPT);
  const baseline = await hashPassword('a password of ordinary length', OWASP_BASELINE);
  const times = { production: [] as number[], baseline: [] as number[] };
  for (let round = 0; round < rounds; round += 1) {
    for (const [name, stored] of [
      ['production', production],
      ['baseline', baseline],
    ] as const) {
      times[name].push(await timed(() => passwordMatches('a wrong password guess', stored)));
    }
  }

  const temp = await makeTempDir('faithscreen-sign-in-bench-');
  const db = await openServiceDb({ dataDir: temp.dir });
  try {
    const accessStore = new AccessStore(db);
    await createAccount(accessStore, 'bench', 'pro');
    // Limits high enough that the bench's own failures are never refused.
    const auth = new AccountAuth({
      store: new AccountUserStore(db),
      accessStore,
      limits: { perEmailAndAddress: { failures: 1_000, windowMs: 60_000 }, perAddress: { failures: 1_000, windowMs: 60_000 } },
      signInKey: randomBytes(32),
    });
    await auth.prepare();
    const invitation = await auth.invite('bench', 'bench@example.com');
    await auth.setPasswordWithInvite(invitation.token, 'the right password for the bench');
    const signIn = { wrongPassword: [] as number[], unknownEmail: [] as number[] };
    for (let round = 0; round < rounds; round += 1) {
      signIn.wrongPassword.push(await timed(() => auth.signIn('bench@example.com', 'a wrong password guess', '127.0.0.1')));
      signIn.unknownEmail.push(await timed(() => auth.signIn(`nobody${round}@example.com`, 'a wrong password guess', '127.0.0.1')));
    }
    return {
      rounds,
      checkMs: { production: median(times.production), baseline: median(times.baseline) },
      memoryMiB: { production: mib(DEFAULT_SCRYPT), baseline: mib(OWASP_BASELINE) },
      signInMs: { wrongPassword: median(signIn.wrongPassword), unknownEmail: median(signIn.unknownEmail) },
    };
  } finally {
    await db.close();
    await temp.cleanup();
  }
}

export function formatSignInBench(f: SignInBenchFigures): string[] {
  const ratio = f.signInMs.unknownEmail / f.signInMs.wrongPassword;
  return [
    `[sign-in] password check, median of ${f.rounds}: ${f.checkMs.production.toFixed(0)} ms with N=2^15 ` +
      `r=8 p=3 (production) vs ${f.checkMs.baseline.toFixed(0)} ms with N=2^17 r=8 p=1 (baseline); memory per ` +
      `check ${f.memoryMiB.production} MiB vs ${f.memoryMiB.baseline} MiB`,
    `[sign-in] refused sign-in, median of ${f.rounds}: wrong password ` +
      `${f.signInMs.wrongPassword.toFixed(0)} ms, unknown email ${f.signInMs.unknownEmail.toFixed(0)} ms (ratio ` +
      `${ratio.toFixed(2)}; target: within 0.8–1.25)`,
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(describeMachine());
  for (const line of formatSignInBench(await runSignInBench())) console.log(line);
  // And under a flood (bench/sign-in-flood.bench.ts; its dated runs in bench/sign-in.log.md).
  const { runSignInFloodBench, formatSignInFloodBench } = await import('./sign-in-flood.bench.ts');
  for (const line of formatSignInFloodBench(await runSignInFloodBench())) console.log(line);
}
