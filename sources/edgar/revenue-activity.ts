/**
 * Revenue by screened activity from a filing's dimensional revenue facts: each member of the
 * product/service or business-segment axis as a share of total revenue for the same period, and
 * how much of revenue the members account for (docs/data/activities.md, "Revenue members").
 */
import type { ActivityCode, ActivityExposure, Involvement, RevenueAccounting } from '../../engine/inputs.ts';
import { readRevenueMember, type MemberReading } from './revenue-members.ts';
import type { DimensionalFact, XbrlInstance } from './xbrl-instance.ts';

/** Revenue concepts whose members are read; each member is divided by its own concept's total. */
export const REVENUE_CONCEPTS = [
  'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax',
  'us-gaap:Revenues',
  'us-gaap:RevenueFromContractWithCustomerIncludingAssessedTax',
  'us-gaap:SalesRevenueNet',
] as const;

const PRODUCT_AXIS = 'srt:ProductOrServiceAxis';
const SEGMENT_AXIS = 'us-gaap:StatementBusinessSegmentsAxis';
const CONSOLIDATION_AXIS = 'srt:ConsolidationItemsAxis';
/** A segment's own revenue is tagged with this consolidation member beside the segment; eliminations are not members. */
const SEGMENT_TOTALS = new Set(['us-gaap:OperatingSegmentsMember', 'srt:OperatingSegmentsMember']);
/** Generic classes set aside when an axis carries both them and a finer split of the same revenue. */
const GENERIC_MEMBERS = new Set(['us-gaap:ProductMember', 'us-gaap:ServiceMember']);

/** Members whose sum passes the total by more than this are taken to overlap (rounding aside). */
export const OVERLAP_TOLERANCE = 0.01;
/** The shortest period read as a fiscal period (a quarter is 90 ± 2 days). */
const MIN_PERIOD_DAYS = 80;

export interface RevenueMemberShare {
  concept: string;
  /** Axis → member; two entries for a product line within a segment. */
  members: Record<string, string>;
  value: number;
  /** Of total revenue for the same period, 0..1. */
  share: number;
  contextId: string;
  reading: MemberReading;
}

export interface RevenueByActivity {
  /** One row per activity the members name, evidence `filing_dimension`. */
  exposures: ActivityExposure[];
  /** How much of revenue the members account for; null when no axis splits revenue. */
  accounted: RevenueAccounting | null;
  /** The members of the split that accounts for most, as read. */
  members: RevenueMemberShare[];
  /** The period the shares are of. */
  period: { start: string; end: string } | null;
}

interface Group {
  concept: string;
  axes: string;
  total: DimensionalFact;
  members: DimensionalFact[];
}

const days = (start: string, end: string): number => (Date.parse(end) - Date.parse(start)) / 86_400_000;

/** The fact's members on the axes read, or null when it has another axis or is a reconciling item. */
function revenueAxes(fact: DimensionalFact): Record<string, string> | null {
  const axes: Record<string, string> = {};
  for (const [axis, member] of Object.entries(fact.members)) {
    if (axis === CONSOLIDATION_AXIS) {
      if (!SEGMENT_TOTALS.has(member)) return null;
    } else if (axis === PRODUCT_AXIS || axis === SEGMENT_AXIS) axes[axis] = member;
    else return null;
  }
  return axes;
}

/** True when some of `others` add up to `value` (a parent member beside its children). */
function isSumOfOthers(value: number, others: number[]): boolean {
  if (others.length > 16) return false;
  const tolerance = Math.max(1, Math.abs(value) * 0.001);
  for (let mask = 1; mask < 1 << others.length; mask++) {
    if ((mask & (mask - 1)) === 0) continue;
    let sum = 0;
    for (let i = 0; i < others.length; i++) if (mask & (1 << i)) sum += others[i]!;
    if (Math.abs(sum - value) <= tolerance) return true;
  }
  return false;
}

/**
 * The members of a group that split its total without overlap: all of them when they add up to
 * no more than the total; otherwise without the members that are sums of others (a parent line
 * beside its children), then without the generic product/service classes; null when they still
 * overlap, so nothing is read from that split.
 */
export function disjointMembers(total: number, members: DimensionalFact[]): DimensionalFact[] | null {
  const fits = (list: DimensionalFact[]) => list.reduce((s, f) => s + f.value, 0) <= total * (1 + OVERLAP_TOLERANCE);
  if (fits(members)) return members;
  const values = members.map((f) => f.value);
  const withoutParents = members.filter(
    (f, i) =>
      !isSumOfOthers(
        f.value,
        values.filter((_, j) => j !== i),
      ),
  );
  if (fits(withoutParents)) return withoutParents;
  const withoutGeneric = withoutParents.filter((f) => !Object.values(f.members).some((m) => GENERIC_MEMBERS.has(m)));
  return withoutGeneric.length && fits(withoutGeneric) ? withoutGeneric : null;
}

function groupsOf(facts: DimensionalFact[]): Group[] {
  const totals = new Map<string, DimensionalFact>();
  const byGroup = new Map<string, DimensionalFact[]>();
  for (const f of facts) {
    if (!(REVENUE_CONCEPTS as readonly string[]).includes(f.concept) || f.period.kind !== 'duration') continue;
    if (days(f.period.start, f.period.end) < MIN_PERIOD_DAYS) continue;
    const period = `${f.period.start}/${f.period.end}`;
    const axes = revenueAxes(f);
    if (!axes) continue;
    const axisKey = Object.keys(axes).sort().join('×');
    if (axisKey === '') totals.set(`${f.concept} ${period}`, f);
    else if (f.value > 0) {
      const key = `${f.concept} ${period} ${axisKey}`;
      byGroup.set(key, [...(byGroup.get(key) ?? []), f]);
    }
  }
  const groups: Group[] = [];
  for (const [key, members] of byGroup) {
    const [concept, period, axes] = key.split(' ') as [string, string, string];
    const total = totals.get(`${concept} ${period}`);
    if (total && total.value > 0) groups.push({ concept, axes, total, members });
  }
  return groups;
}

interface Split {
  group: Group;
  members: RevenueMemberShare[];
}

function memberShare(f: DimensionalFact, total: number, openSegments: Map<string, string>): RevenueMemberShare {
  return {
    concept: f.concept,
    members: Object.fromEntries(Object.entries(f.members).filter(([axis]) => axis !== CONSOLIDATION_AXIS)),
    value: f.value,
    share: f.value / total,
    contextId: f.contextId,
    reading: readingOf(f, openSegments),
  };
}

interface ActivityShare {
  share: number;
  refs: string[];
  involvement: Involvement;
  /** Share of the largest member, whose involvement the row takes. */
  largest: number;
}

/** Each activity's share in the split that gives it the most, with the members it rests on. */
function activitiesOf(splits: Split[]): Map<ActivityCode, ActivityShare> {
  const byActivity = new Map<ActivityCode, ActivityShare>();
  for (const { group, members } of splits) {
    const inSplit = new Map<ActivityCode, ActivityShare>();
    for (const m of members) {
      if (m.reading.kind !== 'activity') continue;
      const entry = inSplit.get(m.reading.activity) ?? { share: 0, refs: [], involvement: m.reading.involvement, largest: 0 };
      entry.share += m.share;
      const on = Object.entries(m.members).map(([axis, member]) => `${axis}=${member}`);
      entry.refs.push(`${group.concept} ${on.join(',')} context ${m.contextId}`);
      if (m.share > entry.largest) Object.assign(entry, { involvement: m.reading.involvement, largest: m.share });
      inSplit.set(m.reading.activity, entry);
    }
    for (const [activity, entry] of inSplit) if ((byActivity.get(activity)?.share ?? -1) < entry.share) byActivity.set(activity, entry);
  }
  return byActivity;
}

/** What a fact's members say: a product line within a segment is read by the product line. */
function readingOf(fact: DimensionalFact, openSegments: Map<string, string>): MemberReading {
  const product = fact.members[PRODUCT_AXIS];
  if (product) return readRevenueMember(product);
  const segment = fact.members[SEGMENT_AXIS]!;
  const reading = readRevenueMember(segment);
  const open = openSegments.get(segment);
  // The segment split cannot say the segment is clean when its own product lines do not; what
  // those lines leave open is counted where they are split out.
  return reading.kind === 'clean' && open ? { kind: 'ambiguous', rule: `its product lines include ${open}`, content: false } : reading;
}

/** Segments with a product line (segment × product split) that names an activity or may hold one, with that line. */
function segmentsWithOpenLines(groups: Group[]): Map<string, string> {
  const open = new Map<string, string>();
  for (const g of groups)
    for (const f of g.members) {
      const segment = f.members[SEGMENT_AXIS];
      const product = f.members[PRODUCT_AXIS];
      const line = product ? readRevenueMember(product) : null;
      if (segment && product && line && (line.kind === 'activity' || (line.kind === 'ambiguous' && line.content)))
        open.set(segment, product);
    }
  return open;
}

const periodKey = (f: DimensionalFact) =>
  f.period.kind === 'duration' ? { start: f.period.start, end: f.period.end } : { start: '', end: '' };

/**
 * Revenue by activity from one filing's facts. The period read is the latest one with a split
 * of revenue (the longest when a 10-Q has a quarter and a year to date ending the same day);
 * each activity's share is the largest any split gives it (splits on different axes are the
 * same revenue counted twice, so they are never added); the accounted share is the largest any
 * split accounts for, counting members that name an activity or a line that is none. A segment
 * whose product lines (the same revenue split by segment and product) include one that names an
 * activity or leaves its content open is not a clean line itself. A revenue figure the filing
 * shows in a form that could not be read leaves revenue unaccounted.
 */
export function revenueByActivity(instance: XbrlInstance): RevenueByActivity {
  const groups = groupsOf(instance.facts);
  if (!groups.length) return { exposures: [], accounted: null, members: [], period: null };
  const latest = groups.reduce((best, g) => {
    const p = periodKey(g.total);
    const b = periodKey(best.total);
    return p.end > b.end || (p.end === b.end && p.start < b.start) ? g : best;
  });
  const period = periodKey(latest.total);
  const current = groups.filter((g) => periodKey(g.total).start === period.start && periodKey(g.total).end === period.end);

  const openSegments = segmentsWithOpenLines(current);
  const splits: Split[] = current.flatMap((group) => {
    const split = disjointMembers(group.total.value, group.members);
    return split ? [{ group, members: split.map((f) => memberShare(f, group.total.value, openSegments)) }] : [];
  });
  const sumOf = (members: RevenueMemberShare[]) => members.reduce((s, m) => s + m.share, 0);
  // A line one split leaves open (a chip maker's "gaming") is open in every split of the same revenue.
  const openShare = Math.max(0, ...splits.map((s) => sumOf(s.members.filter((m) => m.reading.kind === 'ambiguous' && m.reading.content))));
  const accountedOf = (s: Split) => Math.min(1, sumOf(s.members.filter((m) => m.reading.kind !== 'ambiguous')), 1 - openShare);
  const best = splits.reduce<Split | null>((b, s) => (!b || accountedOf(s) > accountedOf(b) ? s : b), null);
  const unreadableRevenue = instance.unreadable.some((u) => (REVENUE_CONCEPTS as readonly string[]).includes(u.concept));

  const accession = latest.total.accession;
  const exposures: ActivityExposure[] = [...activitiesOf(splits).entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([activity, e]) => ({
      activity,
      revenueShare: Math.min(1, e.share),
      asOf: period.end,
      sourceRef: `EDGAR ${accession} ${period.start}..${period.end}: ${e.refs.join('; ')}`,
      evidence: 'filing_dimension',
      involvement: e.involvement,
    }));
  return {
    exposures,
    accounted:
      best && !unreadableRevenue
        ? {
            share: Math.max(0, accountedOf(best)),
            asOf: period.end,
            sourceRef: `EDGAR ${accession} ${best.group.concept} by ${best.group.axes} ${period.start}..${period.end}`,
          }
        : null,
    members: best?.members ?? [],
    period,
  };
}
