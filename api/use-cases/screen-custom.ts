import { applyCustomScreen } from '../../engine/custom-screen/apply-custom-screen.ts';
import type { CustomScreenBase, CustomScreenVersion } from '../../engine/custom-screen/custom-screen-types.ts';
import { utcDay } from '../../engine/dates.ts';
import { badRequest, conflict } from '../../common/app-error.ts';
import type { Grant } from '../../common/grants.ts';
import type { CustomScreenRecord } from '../../service-state/custom-screen-store.ts';
import { scopeFrameworks } from '../access-scope.ts';
import type { ScreenService } from '../screen-service.ts';
import { checkSlug } from './check-custom-screen.ts';
import { screenNotFound, screenOwner, type CustomScreenContext } from './manage-custom-screens.ts';
import { SYNTHETIC_NOTICE } from '../../serving/screen-report.ts';
import { loadResult, serveScreen } from './screen-ticker.ts';
import { asOfEnvelope, reasonsKept, snapshotRowAsOf } from './snapshot-as-of.ts';

const CUSTOM_PREFIX = 'custom:';

/**
 * The slug of a `framework=custom:<slug>` request, or null for the built-in frameworks. A custom
 * screen is asked for alone: its answer carries its base's verdict and reasons already.
 */
export function customSlugOf(framework: string | undefined): string | null {
  if (framework === undefined || !framework.includes(CUSTOM_PREFIX)) return null;
  const ids = framework.split(',').map((id) => id.trim());
  if (ids.length !== 1)
    throw badRequest(
      `framework: ask for one custom screen alone (framework=custom:<slug>); its answer carries its base's verdict and reasons`,
      'unknown_framework',
    );
  return checkSlug(ids[0]!.slice(CUSTOM_PREFIX.length), 'framework');
}

/** The version in force on `date`: the newest of those effective on or before it (versions are dated in order). */
export function versionOn(record: CustomScreenRecord, date: string): CustomScreenVersion | null {
  const inForce = record.versions.filter((v) => v.effectiveFrom <= date).at(-1);
  return inForce === undefined
    ? null
    : { slug: record.slug, version: inForce.version, effectiveFrom: inForce.effectiveFrom, definition: inForce.definition };
}

export interface CustomScreenRequest {
  market: string;
  ticker: string;
  slug: string;
  /** A past date (checked), or null for the current verdict. */
  asOf: string | null;
  grant: Grant | undefined;
}

/** The account's screen; 404 for a screen the account has not got (another account's included). */
export async function loadCustomScreen(screens: CustomScreenContext | undefined, slug: string, grant: Grant | undefined) {
  if (screens === undefined) throw badRequest('framework: custom screens are not served by this deployment', 'unknown_framework');
  const { account } = screenOwner(grant);
  const record = await screens.store.get(account, slug);
  if (record === undefined) throw screenNotFound(slug);
  return record;
}

/** The version of a screen a request is answered under, and its base. */
export interface AppliedScreen {
  slug: string;
  version: CustomScreenVersion | null;
  base: CustomScreenBase;
}

/** The `custom_screen` block of an answer under a custom screen (docs/custom-screens.md): which screen and version judged it. */
export function customScreenBlock(applied: AppliedScreen): {
  slug: string;
  base: CustomScreenBase;
  version: number | null;
  effective_from: string | null;
} {
  return {
    slug: applied.slug,
    base: applied.base,
    version: applied.version?.version ?? null,
    effective_from: applied.version?.effectiveFrom ?? null,
  };
}

/**
 * The version in force on `date` and its base (the latest version's when none is in force yet);
 * 403 when the key is not granted the base: the layer shows the base's verdict and reasons.
 */
export function screenInForce(record: CustomScreenRecord, date: string, grant: Grant | undefined): AppliedScreen {
  const version = versionOn(record, date);
  const base = (version?.definition ?? record.versions.at(-1)!.definition).base;
  scopeFrameworks([base], grant);
  return { slug: record.slug, version, base };
}

/** 409 for a history asked under today's version of a screen whose first version takes effect later. */
export function notInForceToday(record: CustomScreenRecord) {
  const first = record.versions[0]!.effectiveFrom;
  return conflict(
    `framework: no version of custom:${record.slug} is in force today (its first takes effect on ${first}); a timeline applies ` +
      `the version in force today to every snapshot: ask again on or after ${first}, or give the screen a version effective today`,
    'screen_not_in_force',
  );
}

/**
 * The custom verdict of one ticker on its current snapshot (served by the cache policy) or on
 * the snapshot in force on `asOf`, in the shapes of the built-in frameworks' answers: a report
 * around the live snapshot, a frameworks map as of a date. Computed from the stored result.
 */
export async function customAnswer(service: ScreenService, applied: AppliedScreen, market: string, ticker: string, asOf: string | null) {
  const live = asOf === null ? await serveScreen(service, { market, ticker, forceRefresh: false }) : null;
  const row = live?.row ?? (await snapshotRowAsOf(service, market, ticker, asOf!));
  const result = await loadResult(service, row);
  const id = `custom:${applied.slug}`;
  const verdict = applyCustomScreen(result, applied.base, applied.slug, applied.version, `${market}/${ticker}`, reasonsKept(row));
  const provenance = {
    data_source: result.provenance.data_source,
    synthetic: result.provenance.synthetic,
    ...(result.provenance.synthetic ? { notice: SYNTHETIC_NOTICE } : {}),
    filing: result.provenance.filing,
    screening_date: result.screening_date,
    snapshot_date: row.snapshotDate,
    screened_at: row.screenedAt,
    snapshot_source: row.source,
  };
  if (live === null) return asOfEnvelope({ market, ticker, asOf: asOf! }, row, { frameworks: { [id]: verdict }, provenance });
  return {
    ticker,
    market,
    report: { ticker, company_name: live.companyName || result.company_name, [id]: verdict, frameworks_returned: [id], provenance },
    from_cache: live.fromCache,
    cache_age_days: live.cacheAgeDays,
    stale: live.stale,
  };
}

/**
 * `GET /api/screen/{market}/{ticker}?framework=custom:<slug>`: the custom verdict on the current
 * snapshot under the version in force today, or on the snapshot in force on `asOf` under the
 * version in force that day.
 */
export async function screenCustom(service: ScreenService, screens: CustomScreenContext | undefined, request: CustomScreenRequest) {
  const record = await loadCustomScreen(screens, request.slug, request.grant);
  const applied = screenInForce(record, request.asOf ?? utcDay(service.now()), request.grant);
  return customAnswer(service, applied, request.market, request.ticker, request.asOf);
}
