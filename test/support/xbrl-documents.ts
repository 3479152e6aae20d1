/**
 * Writes a constructed filing's revenue facts as an XBRL instance document, either a plain
 * instance (`<xbrl>`, values in dollars) or an inline XBRL document (XHTML with the contexts in
 * `ix:resources` and each figure an `ix:nonFraction` shown in millions). The filings themselves
 * are in `xbrl-constructed.ts`.
 */

export interface ConstructedFact {
  /** Axis → member (`srt:ProductOrServiceAxis` → `fhr:CasinoMember`); none for the entity as a whole. */
  members?: Record<string, string>;
  /** A key of the filing's `periods`. */
  period: string;
  /** US$ millions as the filing shows them; negative for a figure shown in parentheses. */
  millions: number;
}

export interface ConstructedFiling {
  /** A fictional company. */
  company: string;
  cik: string;
  accession: string;
  form: '10-K' | '10-Q';
  /** The company's own prefix for its extension members. */
  prefix: string;
  /** The revenue concept every fact is of. */
  concept: string;
  periods: Record<string, { start: string; end: string }>;
  facts: ConstructedFact[];
}

const US_GAAP = 'http://fasb.org/us-gaap/2024';
const SRT = 'http://fasb.org/srt/2024';

/** `FY2024` alone, or with the members' local names: `FY2024_CombatSystems_OperatingSegments`. */
export function contextIdOf(fact: ConstructedFact): string {
  const locals = Object.values(fact.members ?? {}).map((m) => m.replace(/^[^:]*:/, '').replace(/Member$/, ''));
  return [fact.period, ...locals].join('_');
}

/** One context per distinct period and members, in the order the facts first use them. */
function contexts(filing: ConstructedFiling, element: (local: string) => string, qname: (name: string) => string): string {
  const seen = new Map<string, ConstructedFact>();
  for (const fact of filing.facts) if (!seen.has(contextIdOf(fact))) seen.set(contextIdOf(fact), fact);
  return [...seen]
    .map(([id, fact]) => {
      const period = filing.periods[fact.period];
      if (!period) throw new Error(`${filing.company}: no period ${fact.period}`);
      const members = Object.entries(fact.members ?? {})
        .map(([axis, member]) => `<xbrldi:explicitMember dimension="${qname(axis)}">${qname(member)}</xbrldi:explicitMember>`)
        .join('');
      return (
        `<${element('context')} id="${id}"><${element('entity')}><${element('identifier')} scheme="http://www.sec.gov/CIK">${filing.cik}</${element('identifier')}>` +
        (members ? `<${element('segment')}>${members}</${element('segment')}>` : '') +
        `</${element('entity')}><${element('period')}><${element('startDate')}>${period.start}</${element('startDate')}>` +
        `<${element('endDate')}>${period.end}</${element('endDate')}></${element('period')}></${element('context')}>`
      );
    })
    .join('\n  ');
}

const extensionNamespace = (filing: ConstructedFiling) => `http://fictional.example/${filing.prefix}/2024`;
const firstPeriod = (filing: ConstructedFiling) => Object.keys(filing.periods)[0]!;

/** A plain instance: values in dollars with `decimals="-6"`, and two text facts of the cover page. */
export function plainInstance(filing: ConstructedFiling): string {
  const cover = firstPeriod(filing);
  const facts = filing.facts.map(
    (f) =>
      `<${filing.concept} contextRef="${contextIdOf(f)}" unitRef="usd" decimals="-6">${Math.round(f.millions * 1_000_000)}</${filing.concept}>`,
  );
  return `<?xml version="1.0" encoding="utf-8"?>
<xbrl xmlns="http://www.xbrl.org/2003/instance" xmlns:xbrldi="http://xbrl.org/2006/xbrldi" xmlns:iso4217="http://www.xbrl.org/2003/iso4217"
  xmlns:us-gaap="${US_GAAP}" xmlns:srt="${SRT}" xmlns:dei="http://xbrl.sec.gov/dei/2024" xmlns:${filing.prefix}="${extensionNamespace(filing)}">
  ${contexts(
    filing,
    (local) => local,
    (name) => name,
  )}
  <unit id="usd"><measure>iso4217:USD</measure></unit>
  <dei:EntityRegistrantName contextRef="${cover}">${filing.company}</dei:EntityRegistrantName>
  <dei:DocumentType contextRef="${cover}">${filing.form}</dei:DocumentType>
  ${facts.join('\n  ')}
</xbrl>
`;
}

export interface InlineOptions {
  /** Prefixes the document binds the standard taxonomies to, when not their usual ones. */
  aliases?: { 'us-gaap'?: string; srt?: string };
}

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 });

/**
 * An inline XBRL document: each figure an `ix:nonFraction` in millions (`scale="6"`, digits
 * grouped with commas, a negative one shown in parentheses with `sign="-"`), the totals shown a
 * second time in a note, the registrant's name a hidden text fact.
 */
export function inlineDocument(filing: ConstructedFiling, options: InlineOptions = {}): string {
  const gaap = options.aliases?.['us-gaap'] ?? 'us-gaap';
  const srt = options.aliases?.srt ?? 'srt';
  const qname = (name: string) => name.replace(/^us-gaap:/, `${gaap}:`).replace(/^srt:/, `${srt}:`);
  const figure = (f: ConstructedFact) => {
    const sign = f.millions < 0 ? ' sign="-"' : '';
    const attributes = `name="${qname(filing.concept)}" contextRef="${contextIdOf(f)}" unitRef="usd" decimals="-6" scale="6"`;
    const shown = `<ix:nonFraction ${attributes} format="ixt:num-dot-decimal"${sign}><span>${grouped.format(Math.abs(f.millions))}</span></ix:nonFraction>`;
    return f.millions < 0 ? `(${shown})` : shown;
  };
  const label = (f: ConstructedFact) =>
    f.members
      ? contextIdOf(f)
          .replace(/^[^_]*_/, '')
          .replace(/_/g, ' / ')
      : 'Total revenue';
  const rows = filing.facts.map((f) => `<tr><td>${label(f)}</td><td>${f.period}</td><td>$ ${figure(f)}</td></tr>`);
  const totals = filing.facts.filter((f) => !f.members).map((f) => `<p>Revenue for ${f.period} was $${figure(f)} million.</p>`);
  return `<?xml version="1.0" encoding="utf-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL" xmlns:xbrli="http://www.xbrl.org/2003/instance"
  xmlns:xbrldi="http://xbrl.org/2006/xbrldi" xmlns:iso4217="http://www.xbrl.org/2003/iso4217" xmlns:dei="http://xbrl.sec.gov/dei/2024"
  xmlns:ixt="http://www.xbrl.org/inlineXBRL/transformation/2020-02-12" xmlns:${gaap}="${US_GAAP}" xmlns:${srt}="${SRT}"
  xmlns:${filing.prefix}="${extensionNamespace(filing)}">
<head><title>${filing.company} ${filing.form}</title></head>
<body>
<div style="display:none"><ix:header>
  <ix:hidden><ix:nonNumeric name="dei:EntityRegistrantName" contextRef="${firstPeriod(filing)}">${filing.company}</ix:nonNumeric></ix:hidden>
  <ix:resources>
  ${contexts(filing, (local) => `xbrli:${local}`, qname)}
  <xbrli:unit id="usd"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit>
  </ix:resources>
</ix:header></div>
<table>
${rows.join('\n')}
</table>
${totals.join('\n')}
</body>
</html>
`;
}
