import type { Context, Middleware } from 'koa';
import { UNSCOPED_KEY_FRAMEWORKS, type ApiState, type EndpointDeclaration, type Grant } from '../common/grants.ts';
import { forbidden, tooManyRequests, unauthorized, type AppError } from '../common/app-error.ts';
import type { AccessStore, AccountRecord, KeyRecord } from './access-store.ts';
import { claimedKeyId } from './api-key-format.ts';
import { apiKeyMatches } from './key-hashing.ts';
import { meterIdOf, type Charge, type QuotaMeter } from './meter.ts';
import type { WindowReport } from './quota-windows.ts';
import { DEFAULT_WEIGHTS } from './tiers.ts';

export interface AccessControlOptions {
  store: AccessStore;
  meter: QuotaMeter;
  /** Server secret of the keyed key hashes (never logged). */
  hashSecret: Buffer;
  /** Where a lapsed or exhausted customer can upgrade; carried in structured 403/429 details. */
  upgradeUrl: string;
  now?: () => number;
  /**
   * How long a successful key check is reused, in ms (default 1,000). It spares two lookups
   * and an HMAC per request; a revocation, lapse or scope change made with the CLI therefore
   * holds within this long. 0 checks every request against the service state.
   */
  authCacheMs?: number;
}

type Authenticated = { key: KeyRecord; account: AccountRecord };

/** Recently verified keys, by the presented key; bounded so a flood of distinct keys cannot grow it. */
class AuthCache {
  private readonly entries = new Map<string, { found: Authenticated; expiresAt: number }>();
  constructor(private readonly ttlMs: number) {}

  get(presented: string, now: number): Authenticated | undefined {
    const entry = this.entries.get(presented);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(presented);
      return undefined;
    }
    return entry.found;
  }

  set(presented: string, found: Authenticated, now: number): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= 10_000) this.entries.clear();
    this.entries.set(presented, { found, expiresAt: now + this.ttlMs });
  }
}

const MISSING_KEY = 'missing API key: send your key (it starts with fs_live_) in the X-API-Key header';
const INVALID_KEY = 'invalid API key: it is unknown, revoked or mistyped; keys start with fs_live_ and are shown once at creation';

/** The key record and its account when `presented` is a live key; null otherwise (one answer for every way of being wrong). */
async function authenticate(options: AccessControlOptions, presented: string): Promise<Authenticated | null> {
  const keyId = claimedKeyId(presented);
  if (keyId === null) return null;
  const key = await options.store.key(keyId);
  if (key === undefined || key.revokedAt !== null) return null;
  if (!apiKeyMatches(options.hashSecret, presented, key.secretHash)) return null;
  const account = await options.store.account(key.account);
  return account ? { key, account } : null;
}

/**
 * The grant handlers scope responses with. `service_consensus` is the service's own opinion,
 * not a faith authority's, so it needs an explicit grant: an unrestricted key sees the nine others.
 */
function grantOf(key: KeyRecord, account: AccountRecord): Grant {
  return {
    allowedFrameworks: key.allowedFrameworks ?? [...UNSCOPED_KEY_FRAMEWORKS],
    allowedMarkets: key.allowedMarkets,
    allowedEndpoints: key.allowedEndpoints,
    keyId: key.keyId,
    account: account.name,
    tier: account.tier,
    keyScope: { allowed_frameworks: key.allowedFrameworks, allowed_markets: key.allowedMarkets, allowed_endpoints: key.allowedEndpoints },
  };
}

/** 403 unless the account may use the API at all and the key covers this endpoint. */
function authorise(options: AccessControlOptions, key: KeyRecord, account: AccountRecord, endpoint: EndpointDeclaration): void {
  if (account.tier === 'free') {
    throw forbidden(
      { message: 'free accounts have no API access; API keys are available from the Pro tier upward', upgrade_url: options.upgradeUrl },
      'tier_without_api',
    );
  }
  if (account.lapsedAt !== null) {
    throw forbidden(
      {
        message: `the subscription of account '${account.name}' lapsed on ${account.lapsedAt.slice(0, 10)}; renew it to use this key again`,
        upgrade_url: options.upgradeUrl,
      },
      'tier_lapsed',
    );
  }
  // Spec: "Partner keys need the endpoint grant attest" — for them an unrestricted key is not enough.
  if (endpoint.tag === 'attest' && account.tier === 'partner' && !(key.allowedEndpoints ?? []).includes('attest')) {
    throw forbidden(
      "partner keys need the explicit endpoint grant 'attest' to mint attestations; ask for a key created with --endpoints including attest",
      'attest_not_granted',
    );
  }
  if (key.allowedEndpoints !== null && !key.allowedEndpoints.includes(endpoint.tag)) {
    throw forbidden(
      `this key is not provisioned for endpoint '${endpoint.tag}'; it may use: ${key.allowedEndpoints.join(', ') || 'none'}`,
      'endpoint_not_granted',
    );
  }
}

/** Units a request costs this key: the route's cost at default weights, rescaled by the key's own weight for the tag. */
export function unitsFor(endpoint: EndpointDeclaration, key: KeyRecord): number {
  const base = DEFAULT_WEIGHTS[endpoint.tag];
  const weight = key.costWeights?.[endpoint.tag];
  if (weight === undefined || base === 0) return endpoint.cost;
  return Math.ceil((endpoint.cost * weight) / base);
}

/**
 * The 429 of a charge the windows refuse, naming whose allowance (`the key's` or `the account's`),
 * how much of it is used and when it resets; the account pages show the same words.
 */
export function quotaExhausted(units: number, whose: string, windows: WindowReport[], upgradeUrl: string): AppError {
  const which = windows
    .filter((w) => w.exhausted)
    .map((w) => `${w.window} quota (${w.used} of ${w.limit} units used, resets at ${w.resets_at})`)
    .join(' and ');
  return tooManyRequests(
    {
      message: `quota exhausted: this request costs ${units} unit(s) and ${whose} ${which} cannot cover it`,
      limits: windows,
      upgrade_url: upgradeUrl,
    },
    'quota_exhausted',
  );
}

async function chargeOrRefuse(
  options: AccessControlOptions,
  key: KeyRecord,
  account: AccountRecord,
  units: number,
): Promise<Charge | null> {
  if (units <= 0) return null;
  const outcome = await options.meter.charge(key, account.tier, units, (options.now ?? Date.now)());
  if (outcome.ok) return outcome.charge;
  // Self-serve keys share their account's allowance (docs/access.md, "Quotas and windows").
  const whose = meterIdOf(key, account.tier) === key.keyId ? "the key's" : "the account's";
  throw quotaExhausted(units, whose, outcome.windows, options.upgradeUrl);
}

/**
 * Access control for every /api route, after the route declared its endpoint tag and cost:
 * public routes need no key (a valid key sent to them lends its scope, so the frameworks list
 * can show it; an invalid one is ignored); every other route needs a live key on a paid, current tier that covers the
 * endpoint, and units in every quota window. Units are taken before the handler runs and
 * given back when the answer is an error, so a refused request costs nothing, unless the
 * handler started work that goes on anyway (`keepCharge`: a re-screen still running).
 */
export function accessControl(options: AccessControlOptions): Middleware {
  const cache = new AuthCache(options.authCacheMs ?? 1_000);
  const clock = () => performance.now();
  const check = async (presented: string): Promise<Authenticated | null> => {
    const cached = cache.get(presented, clock());
    if (cached) return cached;
    const found = await authenticate(options, presented);
    if (found) cache.set(presented, found, clock());
    return found;
  };
  return async (ctx: Context, next) => {
    const state = ctx.state as ApiState;
    const endpoint = state.endpoint;
    // Fail closed: a route that forgot declareEndpoint must not become public by accident.
    if (endpoint === undefined)
      throw new Error(`route ${ctx.method} ${ctx.path} reached access control without declaring its endpoint tag and cost`);
    const presented = ctx.get('X-API-Key');
    if (endpoint.tag === 'public') {
      // Public means public: a key only adds its scope (the frameworks list shows it); a bad one is ignored.
      const found = presented === '' ? null : await check(presented);
      if (found) state.grant = grantOf(found.key, found.account);
      return next();
    }
    if (presented === '') throw unauthorized(MISSING_KEY, 'missing_api_key');
    const found = await check(presented);
    if (found === null) throw unauthorized(INVALID_KEY, 'invalid_api_key');
    state.grant = grantOf(found.key, found.account);

    authorise(options, found.key, found.account, endpoint);
    const charged = await chargeOrRefuse(options, found.key, found.account, unitsFor(endpoint, found.key));
    let served = false;
    try {
      await next();
      served = ctx.status < 400;
    } finally {
      if (charged !== null) {
        if (!served && state.keepCharge !== true) await options.meter.refund(charged, charged.units);
        else if (state.itemsNotServed)
          await options.meter.refund(charged, unitsFor({ tag: endpoint.tag, cost: state.itemsNotServed }, found.key));
      }
    }
  };
}
