import type { z } from 'zod';
import { baseThresholds, isNoLooser } from '../../engine/custom-screen/base-thresholds.ts';
import {
  CUSTOM_SCREEN_BASES,
  type CustomActivityRule,
  type CustomScreenBase,
  type CustomScreenDefinition,
} from '../../engine/custom-screen/custom-screen-types.ts';
import { HISTORY_START } from '../../engine/dates.ts';
import { ACTIVITY_CODES, INVOLVEMENTS, type ActivityCode, type Involvement } from '../../engine/index.ts';
import { badRequest } from '../../common/app-error.ts';
import {
  CUSTOM_SCREEN_DESCRIPTION_MAX,
  CUSTOM_SCREEN_SLUG_PATTERN,
  CUSTOM_SCREEN_TICKERS_MAX,
  type updateCustomScreenBodySchema,
} from '../schemas/custom-screens.ts';
import { checkMarket, normaliseTicker } from '../validation.ts';

type DefinitionBody = z.output<typeof updateCustomScreenBodySchema>;

/** Days ahead a version may be dated: a mandate change announced for next year is fine, a typo a century out is not. */
const EFFECTIVE_FROM_AHEAD_DAYS = 366;

/** A slug, or 400 naming the pattern. */
export function checkSlug(slug: string, field = 'slug'): string {
  if (!CUSTOM_SCREEN_SLUG_PATTERN.test(slug))
    throw badRequest(
      `${field}: '${slug}' is not a valid slug; use 2 to 40 lower-case letters, digits or '-', starting with a letter or digit (e.g. halal-plus)`,
      'invalid_slug',
    );
  return slug;
}

function checkBase(base: string): CustomScreenBase {
  if (!(CUSTOM_SCREEN_BASES as readonly string[]).includes(base))
    throw badRequest(
      `body.base: '${base}' is not a framework a custom screen can build on; valid: ${CUSTOM_SCREEN_BASES.join(', ')}`,
      'unknown_framework',
    );
  return base as CustomScreenBase;
}

function checkActivities(rules: DefinitionBody['exclude_activities']): CustomActivityRule[] {
  const seen = new Set<string>();
  return (rules ?? []).map((rule, i) => {
    const where = `body.exclude_activities[${i}]`;
    if (!(ACTIVITY_CODES as readonly string[]).includes(rule.activity))
      throw badRequest(`${where}.activity: unknown activity '${rule.activity}'; valid: ${ACTIVITY_CODES.join(', ')}`, 'unknown_activity');
    if (seen.has(rule.activity))
      throw badRequest(`${where}.activity: '${rule.activity}' is listed twice; give each activity once`, 'invalid_value');
    seen.add(rule.activity);
    const share = rule.max_revenue_share ?? 0;
    if (!(share >= 0 && share <= 1))
      throw badRequest(`${where}.max_revenue_share: ${share} is not a share; give a number from 0 to 1 (0.05 = 5%)`, 'invalid_value');
    const involvements = rule.excluded_involvements ?? [];
    const unknown = involvements.filter((inv) => !(INVOLVEMENTS as readonly string[]).includes(inv));
    if (unknown.length > 0)
      throw badRequest(`${where}.excluded_involvements: unknown ${unknown.join(', ')}; valid: ${INVOLVEMENTS.join(', ')}`, 'invalid_value');
    return {
      activity: rule.activity as ActivityCode,
      maxRevenueShare: share,
      excludedInvolvements: INVOLVEMENTS.filter((inv) => involvements.includes(inv)) as Involvement[],
    };
  });
}

function checkTickers(entries: readonly string[] | undefined, field: string): string[] {
  const list = entries ?? [];
  if (list.length > CUSTOM_SCREEN_TICKERS_MAX)
    throw badRequest(`${field}: ${list.length} given; at most ${CUSTOM_SCREEN_TICKERS_MAX}`, 'invalid_tickers');
  const checked = list.map((entry, i) => {
    const [market, ticker, ...rest] = entry.split('/');
    if (market === undefined || ticker === undefined || rest.length > 0)
      throw badRequest(`${field}[${i}]: '${entry}' is not market/TICKER, e.g. us/AAPL`, 'invalid_tickers');
    return `${checkMarket(market, `${field}[${i}]`)}/${normaliseTicker(ticker, `${field}[${i}]`)}`;
  });
  return [...new Set(checked)];
}

/** Stricter limits only, on metrics the base checks itself; a looser one is 400 naming the base's limit. */
function checkThresholds(base: CustomScreenBase, thresholds: Record<string, number> | undefined, date: string): Record<string, number> {
  const own = baseThresholds(base, date);
  const checked: Record<string, number> = {};
  for (const [metric, limit] of Object.entries(thresholds ?? {})) {
    const where = `body.thresholds.${metric}`;
    const rule = own.get(metric);
    if (rule === undefined)
      throw badRequest(
        `${where}: ${base} has no threshold check on '${metric}'; its own limits: ${[...own.keys()].join(', ') || 'none'}`,
        'unknown_threshold',
      );
    if (!(limit >= 0 && limit <= 1)) throw badRequest(`${where}: ${limit} is not a ratio; give a number from 0 to 1`, 'invalid_value');
    if (!isNoLooser(limit, rule))
      throw badRequest(
        `${where}: ${limit} is looser than ${base}'s own limit (${metric} ${rule.operator} ${rule.threshold}, ${rule.code}); ` +
          `a custom screen may only tighten it: give at most ${rule.threshold}`,
        'threshold_looser_than_base',
      );
    checked[metric] = limit;
  }
  return checked;
}

/** A version's effective date: a calendar date from the history's start to a year ahead; never before `notBefore`. */
export function checkEffectiveFrom(date: string | undefined, today: string, notBefore: string | null): string {
  const value = date ?? today;
  const parsed = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== value)
    throw badRequest(`body.effective_from: '${value}' is not a calendar date; expected YYYY-MM-DD`, 'invalid_effective_from');
  const latest = new Date(Date.parse(`${today}T00:00:00Z`) + EFFECTIVE_FROM_AHEAD_DAYS * 86_400_000).toISOString().slice(0, 10);
  if (value < HISTORY_START || value > latest)
    throw badRequest(`body.effective_from: ${value} is outside ${HISTORY_START} to ${latest}`, 'invalid_effective_from');
  if (notBefore !== null && value < notBefore)
    throw badRequest(
      `body.effective_from: ${value} is before the previous version's ${notBefore}; versions take effect in order`,
      'invalid_effective_from',
    );
  return value;
}

/** The stored definition of a body, each field checked; 400 naming the first problem and what is valid. */
export function checkDefinition(body: DefinitionBody, effectiveFrom: string): CustomScreenDefinition {
  const base = checkBase(body.base);
  const description = body.description ?? '';
  if (description.length > CUSTOM_SCREEN_DESCRIPTION_MAX)
    throw badRequest(`body.description: ${description.length} characters; at most ${CUSTOM_SCREEN_DESCRIPTION_MAX}`, 'invalid_value');
  const excludedTickers = checkTickers(body.exclude_tickers, 'body.exclude_tickers');
  const allowedTickers = checkTickers(body.allow_tickers, 'body.allow_tickers');
  const both = excludedTickers.filter((t) => allowedTickers.includes(t));
  if (both.length > 0)
    throw badRequest(`body: ${both.join(', ')} both excluded and allowed; list each ticker in one of them`, 'invalid_tickers');
  return {
    base,
    description,
    activities: checkActivities(body.exclude_activities),
    excludedTickers,
    allowedTickers,
    thresholds: checkThresholds(base, body.thresholds, effectiveFrom),
  };
}
