import { FRAMEWORK_IDS } from '../engine/index.ts';
import { MARKETS } from '../common/markets.ts';
import type { AccessStore, AccountRecord, KeyRecord } from './access-store.ts';
import { generateApiKey } from './api-key-format.ts';
import { hashApiKey } from './key-hashing.ts';
import { usageOf } from './meter.ts';
import type { WindowReport } from './quota-windows.ts';
import { DEFAULT_WEIGHTS, GRANTABLE_ENDPOINTS, TIERS, type Tier } from './tiers.ts';

/**
 * What operators do to accounts and keys (the `accounts` and `keys` commands). Every rule is
 * checked here so the CLI only parses and prints. Changes are committed to the service state,
 * which every running API process reads (its key checks are cached for at most a second, see
 * AccessControlOptions.authCacheMs): they take effect there within that second.
 */

/** A refused administrative action; the message says what was wrong and what is valid. */
export class AdminError extends Error {
  override name = 'AdminError';
}

/** An account as operators see it. */
export function accountView(account: AccountRecord): { name: string; tier: Tier; lapsed_at: string | null; created_at: string } {
  return { name: account.name, tier: account.tier, lapsed_at: account.lapsedAt, created_at: account.createdAt };
}

const ACCOUNT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

async function requireAccount(store: AccessStore, name: string): Promise<AccountRecord> {
  const account = await store.account(name);
  if (!account) throw new AdminError(`no account named '${name}'; see 'faithscreen accounts list'`);
  return account;
}

export async function createAccount(store: AccessStore, name: string, tier: string, now = new Date()): Promise<AccountRecord> {
  if (!ACCOUNT_NAME.test(name))
    throw new AdminError(`invalid account name '${name}': use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit`);
  if (!(TIERS as readonly string[]).includes(tier)) throw new AdminError(`unknown tier '${tier}'; valid tiers: ${TIERS.join(', ')}`);
  if (await store.account(name)) throw new AdminError(`an account named '${name}' already exists`);
  await store.createAccount(name, tier as Tier, now);
  return requireAccount(store, name);
}

export async function lapseAccount(store: AccessStore, name: string, now = new Date()): Promise<AccountRecord> {
  const account = await requireAccount(store, name);
  if (account.lapsedAt === null) await store.setLapsed(name, now);
  return requireAccount(store, name);
}

export async function reinstateAccount(store: AccessStore, name: string): Promise<AccountRecord> {
  await requireAccount(store, name);
  await store.setLapsed(name, null);
  return requireAccount(store, name);
}

/**
 * Moves an account to another tier (an upgrade or a downgrade, /account/upgrade). Its keys
 * follow within a second. Refused when live keys would not fit the new tier: partner keys
 * need their contract's daily limit, and monthly quotas and cost weights are partner terms
 * (replace those keys first).
 */
export async function setAccountTier(store: AccessStore, name: string, tier: string): Promise<AccountRecord> {
  if (!(TIERS as readonly string[]).includes(tier)) throw new AdminError(`unknown tier '${tier}'; valid tiers: ${TIERS.join(', ')}`);
  await requireAccount(store, name);
  const live = (await store.keys(name)).filter((key) => key.revokedAt === null);
  const misfits =
    tier === 'partner'
      ? live.filter((key) => key.dailyLimit === null)
      : live.filter((key) => key.monthlyQuota !== null || key.costWeights !== null);
  if (misfits.length > 0) {
    const ids = misfits.map((key) => key.keyId).join(', ');
    throw new AdminError(
      tier === 'partner'
        ? `partner keys need a daily limit and these live keys have none: ${ids}; revoke them and create keys with --daily-limit after the move`
        : `these live keys carry partner terms (--monthly-quota or --weights) the ${tier} tier does not have: ${ids}; revoke them first`,
    );
  }
  await store.setTier(name, tier as Tier);
  return requireAccount(store, name);
}

/** Market identifiers as the API's paths use them (`us`); the human-readable slugs (`united-states`) are accepted too. */
function normaliseMarkets(markets: readonly string[]): string[] {
  return [
    ...new Set(
      markets.map((given) => {
        const wanted = given.trim().toLowerCase();
        const market = MARKETS.find((m) => m.marketKey === wanted || m.slug === wanted);
        if (!market) throw new AdminError(`unknown market '${given}'; valid markets: ${MARKETS.map((m) => m.marketKey).join(', ')}`);
        return market.marketKey;
      }),
    ),
  ];
}

function checkListed(kind: string, given: readonly string[], valid: readonly string[]): string[] {
  const unknown = given.filter((value) => !valid.includes(value));
  if (unknown.length > 0) throw new AdminError(`unknown ${kind} ${unknown.join(', ')}; valid ${kind}: ${valid.join(', ')}`);
  return [...new Set(given)];
}

function checkLimit(name: string, value: number | undefined): number | null {
  if (value === undefined) return null;
  if (!Number.isSafeInteger(value) || value < 1) throw new AdminError(`${name} must be a whole number of units ≥ 1, got ${value}`);
  return value;
}

const WEIGHTED_TAGS = Object.keys(DEFAULT_WEIGHTS).filter((tag) => tag !== 'public');

function checkWeights(weights: Record<string, number> | undefined): Record<string, number> | null {
  if (weights === undefined) return null;
  for (const [tag, weight] of Object.entries(weights)) {
    checkListed('endpoint tags', [tag], WEIGHTED_TAGS);
    if (!Number.isSafeInteger(weight) || weight < 0)
      throw new AdminError(`weight of ${tag} must be a whole number of units ≥ 0, got ${weight}`);
  }
  return weights;
}

export interface KeyRequest {
  account: string;
  markets?: string[];
  endpoints?: string[];
  frameworks?: string[];
  dailyLimit?: number;
  monthlyQuota?: number;
  weights?: Record<string, number>;
}

/** A key as operators see it: everything but its hash, with current usage. */
export interface KeyView {
  key_id: string;
  account: string;
  tier: Tier;
  allowed_markets: string[] | null;
  allowed_endpoints: string[] | null;
  allowed_frameworks: string[] | null;
  daily_limit: number | null;
  monthly_quota: number | null;
  cost_weights: Record<string, number> | null;
  created_at: string;
  revoked_at: string | null;
  usage: WindowReport[];
}

async function viewOf(store: AccessStore, key: KeyRecord, now: Date): Promise<KeyView> {
  const tier = (await requireAccount(store, key.account)).tier;
  return {
    key_id: key.keyId,
    account: key.account,
    tier,
    allowed_markets: key.allowedMarkets,
    allowed_endpoints: key.allowedEndpoints,
    allowed_frameworks: key.allowedFrameworks,
    daily_limit: key.dailyLimit,
    monthly_quota: key.monthlyQuota,
    cost_weights: key.costWeights,
    created_at: key.createdAt,
    revoked_at: key.revokedAt,
    usage: await usageOf(store, key, tier, now.getTime()),
  };
}

/**
 * Creates a key and returns it with its secret: the only time the secret exists outside the
 * caller's hands. Free and lapsed accounts get none; partner keys must carry their contract's
 * daily limit; monthly quotas and cost weights are partner terms.
 */
export async function createKey(
  store: AccessStore,
  hashSecret: Buffer,
  request: KeyRequest,
  now = new Date(),
): Promise<KeyView & { key: string }> {
  const account = await requireAccount(store, request.account);
  if (account.tier === 'free')
    throw new AdminError(
      `account '${account.name}' is on the free tier, which has no API access; keys are available from the pro tier upward`,
    );
  if (account.lapsedAt !== null)
    throw new AdminError(`account '${account.name}' lapsed on ${account.lapsedAt.slice(0, 10)}; reinstate it before creating keys`);
  const isPartner = account.tier === 'partner';
  if (isPartner && request.dailyLimit === undefined)
    throw new AdminError("partner keys need --daily-limit N (the contract's units per rolling 24 hours)");
  if (!isPartner && (request.monthlyQuota !== undefined || request.weights !== undefined)) {
    throw new AdminError(`--monthly-quota and --weights are partner terms; account '${account.name}' is on the ${account.tier} tier`);
  }
  const generated = generateApiKey();
  const record: Omit<KeyRecord, 'revokedAt'> = {
    keyId: generated.keyId,
    account: account.name,
    secretHash: hashApiKey(hashSecret, generated.key),
    allowedMarkets: request.markets ? normaliseMarkets(request.markets) : null,
    allowedEndpoints: request.endpoints ? checkListed('endpoint tags', request.endpoints, GRANTABLE_ENDPOINTS) : null,
    allowedFrameworks: request.frameworks ? checkListed('framework ids', request.frameworks, FRAMEWORK_IDS) : null,
    dailyLimit: checkLimit('--daily-limit', request.dailyLimit),
    monthlyQuota: checkLimit('--monthly-quota', request.monthlyQuota),
    costWeights: checkWeights(request.weights),
    createdAt: now.toISOString(),
  };
  await store.insertKey(record);
  return { key: generated.key, ...(await viewOf(store, { ...record, revokedAt: null }, now)) };
}

export async function listKeys(store: AccessStore, account?: string, now = new Date()): Promise<KeyView[]> {
  if (account !== undefined) await requireAccount(store, account);
  const views = [];
  for (const key of await store.keys(account)) views.push(await viewOf(store, key, now));
  return views;
}

/** Revokes a key for good; its next request is a 401. Revoking twice is refused so typos are noticed. */
export async function revokeKey(store: AccessStore, keyId: string, now = new Date()): Promise<KeyView> {
  const key = await store.key(keyId);
  if (!key) throw new AdminError(`no key with id '${keyId}'; see 'faithscreen keys list'`);
  if (!(await store.revokeKey(keyId, now))) throw new AdminError(`key '${keyId}' was already revoked on ${key.revokedAt}`);
  return viewOf(store, (await store.key(keyId))!, now);
}
