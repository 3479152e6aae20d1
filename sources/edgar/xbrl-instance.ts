import { SaxesParser, type SaxesTagNS } from 'saxes';
import { canonicalQName, parseIxNumber } from './xbrl-values.ts';

const XBRLI = 'http://www.xbrl.org/2003/instance';
const XBRLDI = 'http://xbrl.org/2006/xbrldi';
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const IX = new Set(['http://www.xbrl.org/2013/inlineXBRL', 'http://www.xbrl.org/2008/inlineXBRL']);
/** Namespaces whose elements are structure, never facts. */
const NOT_FACTS = new Set([XBRLI, XBRLDI, 'http://www.xbrl.org/2003/linkbase', 'http://www.w3.org/1999/xhtml']);

export type FactPeriod = { kind: 'instant'; instant: string } | { kind: 'duration'; start: string; end: string };

/** A numeric fact whose text could not be read as a number in its format. */
export interface UnreadableFact {
  concept: string;
  contextId: string;
  text: string;
}

export interface XbrlInstance {
  facts: DimensionalFact[];
  /** Facts left out because their number could not be read; a reader of those concepts must not guess. */
  unreadable: UnreadableFact[];
}

/** One numeric fact of an XBRL instance with its dimensions resolved from its context. */
export interface DimensionalFact {
  /** `prefix:Name`, with the standard taxonomies under their usual prefixes (`us-gaap`, `srt`, `dei`). */
  concept: string;
  /** Axis → member (`srt:ProductOrServiceAxis` → `us-gaap:ServiceMember`); empty for the entity as a whole. */
  members: Record<string, string>;
  period: FactPeriod;
  /** The unit's measures (`USD`, `USD/shares`), or null when the fact names none. */
  unit: string | null;
  /** Accuracy in decimal places (`-6` = millions); null = exact (`INF`) or not stated. */
  decimals: number | null;
  /** The value in the unit, scale and sign applied. */
  value: number;
  contextId: string;
  /** The filing the instance belongs to (EDGAR accession number). */
  accession: string;
}

interface Context {
  members: Record<string, string>;
  period: FactPeriod | null;
}

interface OpenFact {
  concept: string;
  contextId: string;
  unitId: string | null;
  decimals: string | null;
  inline: { scale: string | null; sign: string | null; format: string | null } | null;
  text: string;
}

function attr(tag: SaxesTagNS, local: string, uri = ''): string | null {
  for (const a of Object.values(tag.attributes)) if (a.local === local && a.uri === uri) return a.value;
  return null;
}

/** The context's period; null for one neither instant nor start-end (`forever`), which no fact here can use. */
function periodOf(parts: Record<string, string>): FactPeriod | null {
  if (parts.instant) return { kind: 'instant', instant: parts.instant.slice(0, 10) };
  if (parts.startDate && parts.endDate) return { kind: 'duration', start: parts.startDate.slice(0, 10), end: parts.endDate.slice(0, 10) };
  return null;
}

/**
 * The numeric facts of an XBRL instance document: a plain instance (`*_htm.xml`, `<xbrl>`) or
 * an inline XBRL document (`ix:nonFraction` inside XHTML, with `scale`, `sign` and `format`).
 * Facts given as nil and text facts are left out; facts repeated with the same context, unit
 * and value (an inline document shows a figure in several tables) appear once; a number that
 * cannot be read in its format is listed in `unreadable`. Throws on XML that is not
 * well-formed and on a fact whose context is missing or has no period, naming it.
 */
export function parseXbrlInstance(xml: string, accession: string): XbrlInstance {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const contexts = new Map<string, Context>();
  const units = new Map<string, string>();
  const open: OpenFact[] = [];
  const raw: OpenFact[] = [];
  const elementStack: string[] = [];
  let context: { id: string; members: Record<string, string>; period: Record<string, string> } | null = null;
  let member: { axis: string; text: string; typed: boolean } | null = null;
  let periodPart: { name: string; text: string } | null = null;
  let unit: { id: string; numerator: string[]; denominator: string[]; inDenominator: boolean; measure: string | null } | null = null;
  const resolve = (prefix: string): string | undefined => parser.resolve(prefix);

  parser.on('opentag', (tag) => {
    elementStack.push(`${tag.uri} ${tag.local}`);
    if (tag.uri === XBRLI && tag.local === 'context') {
      context = { id: attr(tag, 'id') ?? '', members: {}, period: {} };
    } else if (context && tag.uri === XBRLDI && (tag.local === 'explicitMember' || tag.local === 'typedMember')) {
      member = { axis: canonicalQName(attr(tag, 'dimension') ?? '', resolve), text: '', typed: tag.local === 'typedMember' };
    } else if (context && tag.uri === XBRLI && ['instant', 'startDate', 'endDate'].includes(tag.local)) {
      periodPart = { name: tag.local, text: '' };
    } else if (tag.uri === XBRLI && tag.local === 'unit') {
      unit = { id: attr(tag, 'id') ?? '', numerator: [], denominator: [], inDenominator: false, measure: null };
    } else if (unit && tag.uri === XBRLI && tag.local === 'unitDenominator') {
      unit.inDenominator = true;
    } else if (unit && tag.uri === XBRLI && tag.local === 'measure') {
      unit.measure = '';
    } else if (IX.has(tag.uri) && tag.local === 'nonFraction') {
      if (attr(tag, 'nil', XSI) === 'true') return;
      open.push({
        concept: canonicalQName(attr(tag, 'name') ?? '', resolve),
        contextId: attr(tag, 'contextRef') ?? '',
        unitId: attr(tag, 'unitRef'),
        decimals: attr(tag, 'decimals'),
        inline: { scale: attr(tag, 'scale'), sign: attr(tag, 'sign'), format: attr(tag, 'format') },
        text: '',
      });
    } else if (elementStack.length === 2 && !NOT_FACTS.has(tag.uri) && !IX.has(tag.uri) && attr(tag, 'unitRef') !== null) {
      if (attr(tag, 'nil', XSI) === 'true') return;
      open.push({
        concept: canonicalQName(`${tag.prefix ? `${tag.prefix}:` : ''}${tag.local}`, resolve),
        contextId: attr(tag, 'contextRef') ?? '',
        unitId: attr(tag, 'unitRef'),
        decimals: attr(tag, 'decimals'),
        inline: null,
        text: '',
      });
    }
  });

  parser.on('text', (text) => {
    if (member) member.text += text;
    if (periodPart) periodPart.text += text;
    if (unit?.measure !== null && unit) unit.measure += text;
    for (const fact of open) fact.text += text;
  });

  parser.on('closetag', (tag) => {
    const key = elementStack.pop();
    if (member && tag.uri === XBRLDI && (tag.local === 'explicitMember' || tag.local === 'typedMember')) {
      context!.members[member.axis] = member.typed ? member.text.trim() : canonicalQName(member.text.trim(), resolve);
      member = null;
    } else if (periodPart && tag.uri === XBRLI && tag.local === periodPart.name) {
      context!.period[periodPart.name] = periodPart.text.trim();
      periodPart = null;
    } else if (context && tag.uri === XBRLI && tag.local === 'context') {
      const c: { id: string; members: Record<string, string>; period: Record<string, string> } = context;
      contexts.set(c.id, { members: c.members, period: periodOf(c.period) });
      context = null;
    } else if (unit && tag.uri === XBRLI && tag.local === 'measure') {
      const local = (unit.measure ?? '').trim().replace(/^.*:/, '');
      (unit.inDenominator ? unit.denominator : unit.numerator).push(local);
      unit.measure = null;
    } else if (unit && tag.uri === XBRLI && tag.local === 'unit') {
      const u: { id: string; numerator: string[]; denominator: string[] } = unit;
      units.set(u.id, u.denominator.length ? `${u.numerator.join('*')}/${u.denominator.join('*')}` : u.numerator.join('*'));
      unit = null;
    } else if (
      open.length &&
      key &&
      ((IX.has(tag.uri) && tag.local === 'nonFraction') || (!IX.has(tag.uri) && elementStack.length === 1))
    ) {
      raw.push(open.pop()!);
    }
  });

  try {
    parser.write(xml).close();
  } catch (error) {
    throw new Error(`XBRL instance ${accession}: not well-formed XML: ${(error as Error).message}`);
  }
  return factsOf(raw, contexts, units, accession);
}

function factsOf(raw: OpenFact[], contexts: Map<string, Context>, units: Map<string, string>, accession: string): XbrlInstance {
  const seen = new Set<string>();
  const facts: DimensionalFact[] = [];
  const unreadable: UnreadableFact[] = [];
  for (const r of raw) {
    const c = contexts.get(r.contextId);
    if (!c?.period) throw new Error(`XBRL instance ${accession}: fact ${r.concept} names context "${r.contextId}", which has no period`);
    const value = r.inline ? parseIxNumber(r.text, r.inline) : Number(r.text.trim());
    if (!Number.isFinite(value)) {
      unreadable.push({ concept: r.concept, contextId: r.contextId, text: r.text.trim().slice(0, 80) });
      continue;
    }
    const unit = r.unitId === null ? null : (units.get(r.unitId) ?? r.unitId);
    const key = `${r.concept} ${r.contextId} ${unit} ${value}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const decimals = r.decimals === null || r.decimals === 'INF' ? null : Number(r.decimals);
    facts.push({ concept: r.concept, members: c.members, period: c.period, unit, decimals, value, contextId: r.contextId, accession });
  }
  return { facts, unreadable };
}
