import { z } from 'zod';
import { reasonSchema, verdictStatusSchema } from './responses.ts';

/** The status timeline's response (docs/api.md, "Status timeline"); built by api/use-cases/status-timeline.ts. */

const reasonsKept = z.enum(['all', 'deciding']).meta({
  description:
    "'deciding' for a backfill snapshot, which stores only the checks that decided each verdict (passing " +
    "checks dropped); 'all' for a nightly or refresh snapshot",
});

const statusChangeSchema = z
  .strictObject({
    date: z.string().meta({ description: 'the first snapshot showing the new status (YYYY-MM-DD)' }),
    previous_date: z
      .string()
      .meta({ description: 'the snapshot just before it, which still showed the old status: the change happened in between' }),
    from: verdictStatusSchema,
    to: verdictStatusSchema,
    reasons: z.array(reasonSchema).meta({
      description:
        'the checks that set the new status, with their values, from the later snapshot: the failing ' +
        'checks of non_compliant, the questionable ones of questionable, the ones without data of ' +
        'insufficient_data; for compliant, the checks listed in `cleared` as they pass now (empty when the later ' +
        'snapshot is a backfill one, which stores no passing checks)',
    }),
    cleared: z
      .array(reasonSchema)
      .meta({ description: 'the checks that had set the old status, as they stood in the earlier snapshot (none when it was compliant)' }),
    methodology_version: z.string().nullable().meta({ description: "the framework's methodology version at the later snapshot" }),
    previous_methodology_version: z.string().nullable().meta({
      description: 'at the earlier snapshot: when the two differ, a new rule text may have caused the change rather than new figures',
    }),
    source: z.string().meta({ description: 'run that wrote the later snapshot: nightly, backfill or refresh' }),
    reasons_kept: reasonsKept,
    base_status: verdictStatusSchema
      .optional()
      .meta({ description: "custom screens only: the base framework's own status at the later snapshot" }),
    previous_base_status: verdictStatusSchema
      .optional()
      .meta({ description: "custom screens only: the base's status at the earlier snapshot" }),
    custom_screen_version: z
      .number()
      .int()
      .nullable()
      .optional()
      .meta({ description: 'custom screens only: the version of the screen both snapshots were judged under (the one in force today)' }),
  })
  .meta({ id: 'StatusChange' });

const marginSchema = z
  .strictObject({
    code: z.string(),
    metric: z.string().nullable(),
    value: z.number().nullable(),
    threshold: z.number().nullable(),
    operator: z.enum(['<', '<=', '>', '>=']).nullable(),
    within_limit: z.boolean().nullable().meta({ description: 'value <operator> threshold, compared exactly' }),
    margin: z.number().meta({ description: 'signed distance from value to threshold: positive inside the limit, negative beyond it' }),
    near_limit: z.boolean(),
    origin: z
      .enum(['base', 'custom'])
      .optional()
      .meta({ description: "custom screens only: the base's limit or the custom layer's stricter one" }),
  })
  .meta({ id: 'LimitMargin', description: "one numeric limit's latest margin (ratios are 0..1, not money)" });

export const timelineResponseSchema = z
  .strictObject({
    ticker: z.string(),
    market: z.string(),
    from: z.string().meta({ description: "first day of the range: the request's, or the ticker's first snapshot" }),
    to: z.string().meta({ description: "last day of the range: the request's, or today (UTC)" }),
    first_snapshot_date: z.string(),
    snapshots_in_range: z.number().int(),
    latest_snapshot: z
      .strictObject({ date: z.string(), screened_at: z.string(), source: z.string(), reasons_kept: reasonsKept })
      .meta({ description: 'the newest snapshot dated on or before `to`: the one current_status and margins come from' }),
    custom_screen: z
      .strictObject({
        slug: z.string(),
        base: z.string(),
        version: z.number().int(),
        effective_from: z.string(),
        applied_as_of: z.string().meta({ description: 'today (UTC): the version in force that day is applied to every snapshot' }),
      })
      .optional()
      .meta({ description: 'with framework=custom:<slug> only: the version of the screen every snapshot was judged under' }),
    frameworks: z.record(
      z.string(),
      z.strictObject({
        base: z.string().optional().meta({ description: 'custom screens only: the base framework' }),
        base_status: verdictStatusSchema
          .optional()
          .meta({ description: "custom screens only: the base's own status at the newest snapshot" }),
        current_status: verdictStatusSchema.meta({ description: 'the status at the newest snapshot dated on or before `to`' }),
        since: z.string().meta({
          description:
            'the first snapshot of the run of equal statuses that ends there (may be before `from`); ' +
            'equal to first_snapshot_date when the status never changed',
        }),
        flips: z.number().int().meta({ description: 'status changes dated in the range (the length of `changes`)' }),
        changes: z.array(statusChangeSchema),
        margins: z.array(marginSchema).meta({
          description:
            "each numeric limit's margin at the newest snapshot; a backfill snapshot keeps only the failing checks, so only theirs appear then",
        }),
      }),
    ),
    provenance: z.strictObject({ data_source: z.string(), synthetic: z.boolean(), notice: z.string().optional() }),
  })
  .meta({ id: 'StatusTimeline' });
