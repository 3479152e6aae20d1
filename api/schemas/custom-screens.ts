import { z } from 'zod';
import { CUSTOM_SCREEN_BASES } from '../../engine/custom-screen/custom-screen-types.ts';
import { ACTIVITY_CODES, INVOLVEMENTS } from '../../engine/index.ts';

/** Request and response schemas of the custom-screen endpoints (registered by id for /openapi.json; docs/custom-screens.md). */

/** Screens one account may keep; a mandate library larger than this is an operator conversation. */
export const CUSTOM_SCREENS_PER_ACCOUNT = 20;
/** Versions one screen may accumulate; a screen changed more often should be a new one. */
export const CUSTOM_SCREEN_VERSIONS_MAX = 100;
/** Entries per ticker list (excluded, allowed). */
export const CUSTOM_SCREEN_TICKERS_MAX = 500;
export const CUSTOM_SCREEN_DESCRIPTION_MAX = 500;
/** 2 to 40 characters: lower-case letters, digits and hyphens, starting with a letter or digit. */
export const CUSTOM_SCREEN_SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{1,39}$/;

const activityRuleSchema = z.strictObject({
  activity: z.string().meta({ description: `a business-activity code: ${ACTIVITY_CODES.join(', ')}`, example: 'coffee' }),
  max_revenue_share: z
    .number()
    .optional()
    .meta({ description: 'revenue share (0..1) the activity may reach; default 0 (any revenue excludes)', example: 0.05 }),
  excluded_involvements: z
    .array(z.string())
    .optional()
    .meta({ description: `involvements excluded at any share: ${INVOLVEMENTS.join(', ')}`, example: ['producer'] }),
});

const definitionFields = {
  base: z
    .string()
    .meta({ description: `the framework the screen builds on: ${CUSTOM_SCREEN_BASES.join(', ')}`, example: 'shariah_aaoifi' }),
  description: z
    .string()
    .optional()
    .meta({ description: `free text, up to ${CUSTOM_SCREEN_DESCRIPTION_MAX} characters` }),
  exclude_activities: z.array(activityRuleSchema).optional().meta({ description: 'extra excluded activities, each at most once' }),
  exclude_tickers: z
    .array(z.string())
    .optional()
    .meta({ description: `up to ${CUSTOM_SCREEN_TICKERS_MAX} market/TICKER entries excluded whatever the figures`, example: ['us/XOM'] }),
  allow_tickers: z
    .array(z.string())
    .optional()
    .meta({
      description: `up to ${CUSTOM_SCREEN_TICKERS_MAX} market/TICKER entries the layer's own rules skip (the base still decides)`,
      example: ['us/SBUX'],
    }),
  thresholds: z
    .record(z.string(), z.number())
    .optional()
    .meta({
      description: "a stricter limit (0..1) per metric of the base's own threshold checks; a looser one is refused",
      example: { debt_to_market_cap_spot: 0.25 },
    }),
  effective_from: z.string().optional().meta({
    description: 'YYYY-MM-DD the version applies from (default today, UTC); never before the previous version',
    example: '2026-12-01',
  }),
};

export const createCustomScreenBodySchema = z.strictObject({
  slug: z
    .string()
    .meta({ description: 'the screen is asked for as framework=custom:<slug>; 2-40 of a-z, 0-9 and -', example: 'halal-plus' }),
  ...definitionFields,
});

/** PUT: the whole new definition (the next version); the slug stays. */
export const updateCustomScreenBodySchema = z.strictObject(definitionFields);

export const customScreenSlugPathSchema = z.object({
  slug: z.string().meta({ description: 'the screen slug', example: 'halal-plus' }),
});

const versionSchema = z.object({
  version: z.number().int(),
  effective_from: z.string(),
  created_at: z.string(),
  base: z.enum(CUSTOM_SCREEN_BASES),
  description: z.string(),
  exclude_activities: z.array(
    z.object({ activity: z.enum(ACTIVITY_CODES), max_revenue_share: z.number(), excluded_involvements: z.array(z.enum(INVOLVEMENTS)) }),
  ),
  exclude_tickers: z.array(z.string()),
  allow_tickers: z.array(z.string()),
  thresholds: z.record(z.string(), z.number()),
});

export const customScreenSchema = z
  .object({
    slug: z.string(),
    framework: z.string().meta({ description: 'the id to ask for it by: custom:<slug>' }),
    created_at: z.string(),
    current: versionSchema.meta({ description: 'the latest version' }),
    versions: z.array(versionSchema).optional().meta({ description: 'every version, oldest first (GET of one screen)' }),
  })
  .meta({ id: 'CustomScreen', description: "one of the account's custom screens" });

export const customScreenListSchema = z
  .object({ screens: z.array(customScreenSchema), limit: z.number().int() })
  .meta({ id: 'CustomScreenList', description: "the account's custom screens, by slug, with the per-account limit" });
