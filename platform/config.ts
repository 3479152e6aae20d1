import path from 'node:path';
import { z } from 'zod';
import { BACKGROUND_NICE } from '../common/cpu-priority.ts';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const port = (fallback: number) => z.coerce.number().int().min(1).max(65_535).default(fallback);
const positiveDays = (fallback: number) => z.coerce.number().int().min(0).max(3650).default(fallback);
/** `true`/`1` or `false`/`0`, default false. */
const flag = () =>
  z
    .enum(['true', 'false', '1', '0'], { error: 'expected true or false' })
    .default('false')
    .transform((value) => value === 'true' || value === '1');
const HOUR_OF_DAY = { error: 'expected an hour of the day, a whole number from 0 to 23' };
const hostPort = z.string().regex(/^[A-Za-z0-9.-]+:\d{1,5}$/, 'expected host:port, e.g. temporal.internal:7233');

/**
 * Every environment variable faithscreen reads, with its default. This schema is the single
 * source of truth: docs/reference/configuration.md is generated from it (scripts/docs/), and
 * docker-compose.yml and the config test follow it.
 */
export const configSchema = z.object({
  DATA_DIR: z.string().min(1).default('./data'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port(8080),
  PUBLIC_BASE_URL: z.url().optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  TEMPORAL_ADDRESS: hostPort.optional(),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('faithscreen'),
  TEMPORAL_DEV_PORT: port(7233),
  TEMPORAL_UI_PORT: port(8233),
  TEMPORAL_CLI_PATH: z.string().min(1).optional(),
  CACHE_FRESH_DAYS: positiveDays(1),
  CACHE_STALE_WHILE_REVALIDATE_DAYS: positiveDays(7),
  NIGHTLY_SCREEN_HOUR: z.coerce.number().int().min(0).max(23).default(2),
  NIGHTLY_SCREEN_TIMEZONE: z
    .string()
    .default('UTC')
    .refine((zone) => isTimeZone(zone), 'expected an IANA time zone such as UTC or Europe/London'),
  LAKE_MAINTENANCE_HOUR: z.coerce.number(HOUR_OF_DAY).int(HOUR_OF_DAY).min(0, HOUR_OF_DAY).max(23, HOUR_OF_DAY).default(4),
  DATA_SOURCE: z.enum(['sample', 'feed', 'edgar']).default('sample'),
  FEED_PATH: z.string().min(1).optional(),
  SAMPLE_SCALE: z.coerce.number().gt(0).max(1).default(1),
  SAMPLE_SEED: z.coerce.number().int().min(0).default(20_090_101),
  API_KEY_HASH_SECRET: z
    .string()
    .regex(/^[0-9a-fA-F]{64,}$/, 'expected at least 32 bytes as hex (64+ hex digits), e.g. from `openssl rand -hex 32`')
    .optional(),
  UPGRADE_URL: z.url().optional(),
  WEBHOOK_SECRET_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'expected exactly 32 bytes as hex (64 hex digits), e.g. from `openssl rand -hex 32`')
    .optional(),
  WEBHOOK_ALLOW_HTTP: flag(),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: flag(),
  // Webhook deliveries poll a task queue of their own, so a slow receiver never takes a screen's slot.
  WEBHOOK_TASK_QUEUE: z.string().min(1).optional(),
  // Delivery attempts are network waits, not CPU: many more slots than cores.
  WEBHOOK_DELIVERY_SLOTS: z.coerce.number().int().min(1).max(1000).default(32),
  // Activities the worker runs at once on TEMPORAL_TASK_QUEUE (screens, refreshes, maintenance); default one per core.
  WORKER_ACTIVITY_SLOTS: z.coerce.number().int().min(1).max(256).optional(),
  // Shown on /account/upgrade as the way to change plans: an email address, a URL or a short line of text.
  UPGRADE_CONTACT: z.string().trim().min(1).max(200).optional(),
  // Only a proxy the operator vouches for may say the browser used https (account cookies' Secure flag).
  TRUST_PROXY: z.stringbool({ error: 'expected true or false' }).default(false),
  // With TRUST_PROXY: how many proxies in front append to X-Forwarded-For (a CDN and a load balancer: 2).
  TRUST_PROXY_HOPS: z.coerce
    .number({ error: 'expected the number of proxies in front, a whole number from 1 to 10' })
    .int('expected the number of proxies in front, a whole number from 1 to 10')
    .min(1, 'expected the number of proxies in front, a whole number from 1 to 10')
    .max(10, 'expected the number of proxies in front, a whole number from 1 to 10')
    .default(1),
  // The value is never echoed back: it may carry a password.
  DATABASE_URL: z
    .string()
    .regex(
      /^postgres(ql)?:\/\/\S+$/,
      'expected a PostgreSQL connection URL, e.g. postgresql://faithscreen:secret@db.internal:5432/faithscreen',
    )
    .optional(),
  BOOTSTRAP_BACKFILL_YEARS: z.coerce.number().int().min(0).max(20).default(3),
  // The worker's CPU priority (nice, 0-19): screens yield the cores to an API on the same machine.
  WORKER_NICE: z.coerce
    .number({ error: 'expected a nice value, a whole number from 0 (unchanged) to 19 (lowest priority)' })
    .int('expected a nice value, a whole number from 0 (unchanged) to 19 (lowest priority)')
    .min(0, 'expected a nice value, a whole number from 0 (unchanged) to 19 (lowest priority)')
    .max(19, 'expected a nice value, a whole number from 0 (unchanged) to 19 (lowest priority)')
    .default(BACKGROUND_NICE),
});

export type RawConfig = z.infer<typeof configSchema>;

export interface Config extends RawConfig {
  /** DATA_DIR made absolute. */
  dataDir: string;
  /** True when faithscreen starts and owns a Temporal dev server (TEMPORAL_ADDRESS unset). */
  embeddedTemporal: boolean;
  /** The Temporal frontend address in use. */
  temporalAddress: string;
  /** Base URL used in links the API hands out (attestation URLs). */
  baseUrl: string;
  /** Where structured 403/429 details send customers to upgrade or renew. */
  upgradeUrl: string;
  /** WEBHOOK_TASK_QUEUE, or TEMPORAL_TASK_QUEUE with `-webhooks` after it. */
  webhookTaskQueue: string;
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Raised when the environment is invalid; the message lists every problem at once. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const name = issue.path.join('.') || '(environment)';
  return `${name}: ${issue.message}`;
}

/** Validates the environment once; throws ConfigError naming every bad variable and what is accepted. */
export function parseConfig(env: NodeJS.ProcessEnv): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = configSchema.safeParse(present);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map(describeIssue));
  const raw = parsed.data;
  if (raw.DATA_SOURCE !== 'sample' && !raw.FEED_PATH) {
    throw new ConfigError([`FEED_PATH: required when DATA_SOURCE is ${raw.DATA_SOURCE} (the folder of the delivery to ingest)`]);
  }
  const embeddedTemporal = raw.TEMPORAL_ADDRESS === undefined;
  const publicHost = raw.HOST === '0.0.0.0' || raw.HOST === '::' ? '127.0.0.1' : raw.HOST;
  return {
    ...raw,
    dataDir: path.resolve(raw.DATA_DIR),
    embeddedTemporal,
    temporalAddress: raw.TEMPORAL_ADDRESS ?? `127.0.0.1:${raw.TEMPORAL_DEV_PORT}`,
    baseUrl: (raw.PUBLIC_BASE_URL ?? `http://${publicHost}:${raw.PORT}`).replace(/\/$/, ''),
    webhookTaskQueue: raw.WEBHOOK_TASK_QUEUE ?? `${raw.TEMPORAL_TASK_QUEUE}-webhooks`,
    upgradeUrl: raw.UPGRADE_URL ?? `${(raw.PUBLIC_BASE_URL ?? `http://${publicHost}:${raw.PORT}`).replace(/\/$/, '')}/account/upgrade`,
  };
}

let cached: Config | undefined;

/** The process's configuration, validated on first use. */
export function getConfig(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}
