/**
 * What each configuration variable means, for docs/reference/configuration.md. The names, defaults and
 * accepted values come from the schema (platform/config.ts); a test fails when a variable has no entry here.
 */
export interface ConfigVariableNotes {
  /** What the variable does, in a sentence or two (Markdown). */
  meaning: string;
  /** The default as a reader should see it when the schema has none of its own (a derived or generated value). */
  shownDefault?: string;
  /** What it accepts, where the schema's JSON form cannot say it (a refinement, a boolean parsed from text). */
  accepts?: string;
}

export const CONFIG_NOTES: Record<string, ConfigVariableNotes> = {
  DATA_DIR: {
    meaning:
      'where the lake (`lake/`), the catalog (`warehouse.duckdb`), the service state (`service.db`, `secrets/`), the ' +
      "serving store (`serving.db`, unless DATABASE_URL is set), the pipelines' lists of failed tickers (`runs/`) and the " +
      "dev server's SQLite file live",
  },
  DATABASE_URL: {
    meaning:
      '`postgresql://user:password@host:5432/db`: keep the service state (accounts, keys, quota usage, certificates, ' +
      'revocations) and the serving store of verdicts in PostgreSQL, shared by several API replicas; unset = ' +
      '`DATA_DIR/service.db` and `DATA_DIR/serving.db` (docs/operations.md, docs/serving.md). Never logged',
  },
  HOST: {
    meaning: 'API listen address (`0.0.0.0` in containers)',
  },
  PORT: {
    meaning: 'API port',
  },
  PUBLIC_BASE_URL: {
    meaning: 'base of the links the API hands out (attestation URLs)',
    shownDefault: '`http://HOST:PORT`',
  },
  LOG_LEVEL: {
    meaning: 'the lowest level of log line written (JSON lines; readable in a terminal)',
  },
  TEMPORAL_ADDRESS: {
    meaning: '`host:port` of a Temporal cluster; unset = start the embedded dev server',
  },
  TEMPORAL_NAMESPACE: {
    meaning: 'Temporal namespace',
  },
  TEMPORAL_TASK_QUEUE: {
    meaning: 'task queue of the worker',
  },
  TEMPORAL_DEV_PORT: {
    meaning: 'gRPC port of the embedded dev server (on 127.0.0.1)',
  },
  TEMPORAL_UI_PORT: {
    meaning: 'web UI port of the embedded dev server',
  },
  TEMPORAL_CLI_PATH: {
    meaning: 'use this Temporal CLI binary instead of finding or building one',
  },
  CACHE_FRESH_DAYS: {
    meaning: 'a screen at most this old is served from the warehouse as fresh',
  },
  CACHE_STALE_WHILE_REVALIDATE_DAYS: {
    meaning: 'older screens up to this age are served `stale: true` while a refresh runs',
  },
  NIGHTLY_SCREEN_HOUR: {
    meaning: 'hour (0–23) of the nightly universe screen',
  },
  NIGHTLY_SCREEN_TIMEZONE: {
    accepts: 'an IANA time zone, e.g. `UTC`, `Europe/London`',
    meaning: 'IANA time zone of that hour and of `LAKE_MAINTENANCE_HOUR`',
  },
  LAKE_MAINTENANCE_HOUR: {
    meaning:
      'hour (0–23) of the daily lake maintenance (temp-file sweep, snapshot compaction, catalog migration); by ' +
      'default two hours after the nightly screen',
  },
  DATA_SOURCE: {
    meaning: 'what the pipelines ingest: `sample` (synthetic, embedded), `feed` (vendor files) or `edgar` (SEC JSON files)',
  },
  FEED_PATH: {
    meaning: 'folder of the delivery to ingest; required when `DATA_SOURCE` is `feed` or `edgar`',
  },
  SAMPLE_SCALE: {
    meaning: 'fraction (0–1] of the full synthetic universe to generate',
  },
  SAMPLE_SEED: {
    meaning: 'seed of the synthetic universe (same seed, same universe)',
  },
  API_KEY_HASH_SECRET: {
    meaning: 'server secret (hex, ≥ 32 bytes) of the keyed hashes API keys are stored as; see docs/access.md',
    shownDefault: 'generated in `DATA_DIR/secrets/`',
  },
  WEBHOOK_SECRET_KEY: {
    meaning:
      'key (hex, 32 bytes) that seals webhook signing secrets in the service state; set the same value on the API and ' +
      'every worker when they do not share a `DATA_DIR` (docs/webhooks.md)',
    shownDefault: 'generated in `DATA_DIR/secrets/`',
  },
  WEBHOOK_ALLOW_HTTP: {
    meaning: 'accept plain `http://` webhook targets; leave false in production (https only)',
  },
  WEBHOOK_ALLOW_PRIVATE_TARGETS: {
    meaning:
      'accept webhook targets on loopback, private, link-local and reserved addresses; for local development only (docs/webhooks.md)',
  },
  WEBHOOK_TASK_QUEUE: {
    meaning: 'the task queue webhook deliveries run on, polled by every worker with slots of its own (docs/webhooks.md)',
    shownDefault: '`TEMPORAL_TASK_QUEUE` + `-webhooks`',
  },
  WEBHOOK_DELIVERY_SLOTS: {
    meaning: 'delivery attempts a worker runs at once on the webhook queue (network waits of at most 10 s each, not CPU)',
  },
  WORKER_ACTIVITY_SLOTS: {
    meaning: 'activities (screens, refreshes, maintenance) a worker runs at once on `TEMPORAL_TASK_QUEUE`',
    shownDefault: 'one per core',
  },
  UPGRADE_URL: {
    meaning: 'where structured 403/429 details send customers to renew or upgrade',
    shownDefault: '`PUBLIC_BASE_URL/account/upgrade`',
  },
  UPGRADE_CONTACT: {
    meaning:
      "the operator's contact that `/account/upgrade` gives customers for changing plans: an email address, a URL or " +
      'a short line of text (unset: "the operator of this faithscreen service")',
  },
  TRUST_PROXY: {
    meaning:
      '`true` when a proxy you run in front of the API sets `X-Forwarded-Proto` and `X-Forwarded-For`: only then do ' +
      "they decide the account cookies' `Secure` flag and the client address every limit counts (sign-in, " +
      "verification; docs/access.md). Then the API's port must be reachable only through that proxy",
    shownDefault: '`false`',
    accepts: '`true` or `false` (also `1`/`0`, `yes`/`no`, `on`/`off`)',
  },
  TRUST_PROXY_HOPS: {
    meaning:
      'with `TRUST_PROXY`: how many proxies in front append to `X-Forwarded-For` (a CDN before a load balancer: 2); ' +
      'the client is the entry the outermost one appended',
  },
  BOOTSTRAP_BACKFILL_YEARS: {
    meaning: 'years of quarter-end history the first start backfills (docs/getting-started.md, *What the first start does*)',
  },
  WORKER_NICE: {
    meaning:
      'CPU priority (nice, 0 = unchanged … 19 = lowest) of the worker; `start` runs its worker as a separate process ' +
      'at this priority so screens and backfills leave the API the cores first (docs/operations.md)',
  },
};
