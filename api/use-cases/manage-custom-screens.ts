import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { utcDay } from '../../engine/dates.ts';
import { conflict, notFound, unauthorized } from '../../common/app-error.ts';
import type { Grant } from '../../common/grants.ts';
import type { CustomScreenRecord, CustomScreenStore, CustomScreenVersionRecord } from '../../service-state/custom-screen-store.ts';
import {
  CUSTOM_SCREEN_VERSIONS_MAX,
  CUSTOM_SCREENS_PER_ACCOUNT,
  type createCustomScreenBodySchema,
  type updateCustomScreenBodySchema,
} from '../schemas/custom-screens.ts';
import { checkDefinition, checkEffectiveFrom, checkSlug } from './check-custom-screen.ts';

/** What the custom-screen endpoints work with. */
export interface CustomScreenContext {
  store: CustomScreenStore;
  now: () => Date;
}

/** Custom screens belong to an account: the key's. */
export function screenOwner(grant: Grant | undefined): { account: string; keyId: string | null } {
  if (!grant?.account)
    throw unauthorized('custom screens belong to an account: send an API key (X-API-Key) of that account', 'missing_api_key');
  return { account: grant.account, keyId: grant.keyId ?? null };
}

/** 404 for a slug the account has not got; another account's screen answers the same, never a hint that it exists. */
export function screenNotFound(slug: string) {
  return notFound(`no custom screen '${slug}' in this account; list yours with GET /api/screens`, 'screen_not_found');
}

function versionView(v: CustomScreenVersionRecord) {
  const d = v.definition;
  return {
    version: v.version,
    effective_from: v.effectiveFrom,
    created_at: v.createdAt,
    base: d.base,
    description: d.description,
    exclude_activities: d.activities.map((a) => ({
      activity: a.activity,
      max_revenue_share: a.maxRevenueShare,
      excluded_involvements: a.excludedInvolvements,
    })),
    exclude_tickers: d.excludedTickers,
    allow_tickers: d.allowedTickers,
    thresholds: d.thresholds,
  };
}

/** The screen as the API shows it; `withVersions` adds every version, oldest first. */
export function screenView(record: CustomScreenRecord, withVersions: boolean) {
  return {
    slug: record.slug,
    framework: `custom:${record.slug}`,
    created_at: record.createdAt,
    current: versionView(record.versions.at(-1)!),
    ...(withVersions ? { versions: record.versions.map(versionView) } : {}),
  };
}

export async function createCustomScreen(
  context: CustomScreenContext,
  body: z.output<typeof createCustomScreenBodySchema>,
  grant: Grant | undefined,
) {
  const { account, keyId } = screenOwner(grant);
  const slug = checkSlug(body.slug, 'body.slug');
  const now = context.now();
  const effectiveFrom = checkEffectiveFrom(body.effective_from, utcDay(now), null);
  const definition = checkDefinition(body, effectiveFrom);
  const first = { effectiveFrom, createdAt: now.toISOString(), createdByKey: keyId, definition };
  const outcome = await context.store.create(account, slug, `cs_${randomBytes(12).toString('hex')}`, first, CUSTOM_SCREENS_PER_ACCOUNT);
  if (outcome === 'exists')
    throw conflict(`this account already has a custom screen '${slug}'; change it with PUT /api/screens/${slug}`, 'screen_exists');
  if (outcome === 'limit')
    throw conflict(`this account has ${CUSTOM_SCREENS_PER_ACCOUNT} custom screens, the most it may keep; delete one first`, 'screen_limit');
  return screenView((await context.store.get(account, slug))!, true);
}

export async function listCustomScreens(context: CustomScreenContext, grant: Grant | undefined) {
  const { account } = screenOwner(grant);
  return { screens: (await context.store.list(account)).map((s) => screenView(s, false)), limit: CUSTOM_SCREENS_PER_ACCOUNT };
}

export async function getCustomScreen(context: CustomScreenContext, slug: string, grant: Grant | undefined) {
  const { account } = screenOwner(grant);
  const record = await context.store.get(account, checkSlug(slug));
  if (record === undefined) throw screenNotFound(slug);
  return screenView(record, true);
}

/** PUT: the body is the whole next version; its effective date may not precede the current one's. */
export async function updateCustomScreen(
  context: CustomScreenContext,
  slug: string,
  body: z.output<typeof updateCustomScreenBodySchema>,
  grant: Grant | undefined,
) {
  const { account, keyId } = screenOwner(grant);
  const record = await context.store.get(account, checkSlug(slug));
  if (record === undefined) throw screenNotFound(slug);
  const now = context.now();
  const effectiveFrom = checkEffectiveFrom(body.effective_from, utcDay(now), record.versions.at(-1)!.effectiveFrom);
  const definition = checkDefinition(body, effectiveFrom);
  const added = await context.store.addVersion(
    account,
    slug,
    { effectiveFrom, createdAt: now.toISOString(), createdByKey: keyId, definition },
    CUSTOM_SCREEN_VERSIONS_MAX,
  );
  if (added === undefined) throw screenNotFound(slug);
  if (added === 'limit')
    throw conflict(
      `custom screen '${slug}' has ${CUSTOM_SCREEN_VERSIONS_MAX} versions, the most one may keep; create a new screen`,
      'version_limit',
    );
  return screenView((await context.store.get(account, slug))!, true);
}

export async function deleteCustomScreen(context: CustomScreenContext, slug: string, grant: Grant | undefined) {
  const { account } = screenOwner(grant);
  if (!(await context.store.delete(account, checkSlug(slug)))) throw screenNotFound(slug);
  return { slug, deleted: true };
}
