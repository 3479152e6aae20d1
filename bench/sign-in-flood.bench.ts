/**
 * Sign-in under a flood (`npx tsx bench/sign-in-flood.bench.ts`, part of `npm run bench`): the real
 * API app with its account pages, production scrypt and limits, behind one trusted proxy hop on
 * 127.0.0.1. A separate process keeps SIGN_IN_FLOOD_CONCURRENCY (default 2,000) wrong-password
 * sign-ins in flight from one client address for SIGN_IN_FLOOD_SECONDS (default 15; at most
 * 200,000 requests), while real users sign in one after another from other addresses, from a
 * process of their own starting SIGN_IN_FLOOD_WARM_UP_SECONDS (default 5) after the flood. The
 * target: every real sign-in completes (303) within 2 s, before the flood ends (docs/access.md,
 * "Sign-in limits").
 */
import { randomBytes } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';
import pino from 'pino';
import { AccessStore } from '../access/access-store.ts';
import { createAccount } from '../access/administration.ts';
import { AccountUserStore } from '../access/account-user-store.ts';
import { AccountAuth } from '../access/account-users.ts';
import { csrfKeyFrom } from '../api/account/csrf.ts';
import { createApp } from '../api/app.ts';
import { createMetrics } from '../api/metrics.ts';
import { openServiceDb } from '../service-state/db.ts';
import { makeTempDir } from '../test/support/temp-dir.ts';
import { describeMachine } from './machine.ts';
import { jsonFromScript } from './paced-load.ts';
import { API_LISTEN_BACKLOG } from '../platform/api-server.ts';

const PASSWORD = 'the right password of a real user';
const TARGET_MS = 2_000;

export interface SignInFloodFigures {
  concurrency: number;
  flood: { sent: number; seconds: number; statuses: Record<string, number> };
  /** Real users' sign-ins during the flood: the form's POST to its answer, ms, in order. */
  realMs: number[];
  /** The same with the sign-in page fetched first (what a person waits for after opening the page), ms. */
  realWithPageMs: number[];
  /** Seconds after the flood started that the first real user began. */
  warmUpSeconds: number;
  realStatuses: number[];
  /** Real sign-ins answered before the flood ended (the others prove nothing about the flood). */
  realDoneDuringFlood: number;
  /** The server's longest event-loop delay during the run, ms. */
  loopDelayMaxMs: number;
}

interface RealSignIn {
  startedAtMs: number;
  ms: number;
  withPageMs: number;
  status: number;
}

/** Serves the app on 127.0.0.1 with the API's listen backlog, so a burst of connections is queued, not dropped. */
async function listenWithBacklog(app: Koa): Promise<{ url: string; close: () => Promise<void> }> {
  const server = app.listen({ port: 0, host: '127.0.0.1', backlog: API_LISTEN_BACKLOG });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A browser's first step: the sign-in page, its form cookie and token (the attacker's, before the flood). */
async function signInForm(url: string, forwardedFor: string): Promise<{ cookie: string; csrf: string }> {
  const page = await fetch(`${url}/account/sign-in`, { headers: { 'x-forwarded-for': forwardedFor } });
  const cookie = page.headers.getSetCookie()[0]!.split(';')[0]!;
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())![1]!;
  return { cookie, csrf };
}

export async function runSignInFloodBench(
  concurrency = Number(process.env.SIGN_IN_FLOOD_CONCURRENCY ?? 2_000),
  seconds = Number(process.env.SIGN_IN_FLOOD_SECONDS ?? 15),
  realSignIns = Number(process.env.SIGN_IN_FLOOD_REAL_USERS ?? 8),
  warmUpSeconds = Number(process.env.SIGN_IN_FLOOD_WARM_UP_SECONDS ?? 5),
): Promise<SignInFloodFigures> {
  const temp = await makeTempDir('faithscreen-sign-in-flood-');
  const db = await openServiceDb({ dataDir: temp.dir });
  try {
    const accessStore = new AccessStore(db);
    await createAccount(accessStore, 'bench', 'pro');
    const secret = randomBytes(32);
    const auth = new AccountAuth({ store: new AccountUserStore(db), accessStore, signInKey: secret });
    await auth.prepare();
    const emails: string[] = [];
    for (let i = 0; i < realSignIns; i += 1) {
      const invitation = await auth.invite('bench', `real${i}@example.com`);
      await auth.setPasswordWithInvite(invitation.token, PASSWORD);
      emails.push(invitation.email);
    }
    const app = createApp({
      logger: pino({ level: 'silent' }),
      metrics: createMetrics(),
      readiness: {},
      account: { auth, csrfKey: csrfKeyFrom(secret), trustProxy: true, trustedProxyHops: 1 },
      trustedProxyHops: 1,
    });
    const server = await listenWithBacklog(app);
    try {
      const attacker = '198.51.100.66';
      const form = await signInForm(server.url, attacker);
      const loopDelay = monitorEventLoopDelay({ resolution: 10 });
      loopDelay.enable();
      const flooding = jsonFromScript<SignInFloodFigures['flood']>(new URL('./sign-in-flood-client.mjs', import.meta.url), {
        url: server.url,
        ...form,
        email: emails[0],
        forwardedFor: attacker,
        concurrency,
        seconds,
        maxRequests: 200_000,
      });
      // Real users from a process of their own, starting warmUpSeconds after the flood's process.
      const users = emails.map((email, i) => ({ email, forwardedFor: `203.0.113.${i + 1}` }));
      const real = await jsonFromScript<RealSignIn[]>(new URL('./sign-in-real-users-client.mjs', import.meta.url), {
        url: server.url,
        password: PASSWORD,
        startAfterMs: warmUpSeconds * 1000,
        users,
      });
      const flood = await flooding;
      loopDelay.disable();
      return {
        concurrency,
        flood,
        realMs: real.map((r) => r.ms),
        realWithPageMs: real.map((r) => r.withPageMs),
        realStatuses: real.map((r) => r.status),
        realDoneDuringFlood: real.filter((r) => r.startedAtMs + r.withPageMs < flood.seconds * 1000).length,
        warmUpSeconds,
        loopDelayMaxMs: loopDelay.max / 1e6,
      };
    } finally {
      await server.close();
    }
  } finally {
    await db.close();
    await temp.cleanup();
  }
}

export function formatSignInFloodBench(f: SignInFloodFigures): string[] {
  const summary = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return { median: sorted[Math.floor(sorted.length / 2)] ?? NaN, max: sorted[sorted.length - 1] ?? NaN };
  };
  const post = summary(f.realMs);
  const withPage = summary(f.realWithPageMs);
  const statuses = Object.entries(f.flood.statuses)
    .map(([status, count]) => `${count.toLocaleString('en')} × ${status}`)
    .join(', ');
  const completed = f.realStatuses.filter((s) => s === 303).length;
  const met = completed === f.realStatuses.length && f.realDoneDuringFlood === f.realStatuses.length && withPage.max < TARGET_MS;
  return [
    `[sign-in flood] ${f.concurrency.toLocaleString('en')} wrong-password sign-ins in flight from one address for ${f.flood.seconds.toFixed(1)} s ` +
      `(separate process, 127.0.0.1): ${f.flood.sent.toLocaleString('en')} sent, answered ${statuses}`,
    `[sign-in flood] real users from other addresses, from ${f.warmUpSeconds} s into the flood: ${completed} of ${f.realStatuses.length} ` +
      `signed in (303); the form's POST median ${post.median.toFixed(0)} ms, max ${post.max.toFixed(0)} ms ` +
      `(${f.realMs.map((ms) => ms.toFixed(0)).join(' / ')}); with the page fetched first median ${withPage.median.toFixed(0)} ms, ` +
      `max ${withPage.max.toFixed(0)} ms; ${f.realDoneDuringFlood} of ${f.realStatuses.length} answered before the flood ended; ` +
      `target: every one within ${TARGET_MS} ms, during the flood — ${met ? 'met' : 'NOT met'}`,
    `[sign-in flood] the server's longest event-loop delay: ${f.loopDelayMaxMs.toFixed(0)} ms`,
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(describeMachine());
  console.log(new Date().toISOString());
  for (const line of formatSignInFloodBench(await runSignInFloodBench())) console.log(line);
}
