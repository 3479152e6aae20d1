/**
 * Standard taxonomies by namespace, whatever prefix a filing binds them to: the year in the
 * namespace changes every release (`http://fasb.org/us-gaap/2024`), the concept does not.
 */
const STANDARD_PREFIXES: Array<[RegExp, string]> = [
  [/^http:\/\/fasb\.org\/us-gaap\//, 'us-gaap'],
  [/^http:\/\/fasb\.org\/srt\//, 'srt'],
  [/^http:\/\/xbrl\.sec\.gov\/dei\//, 'dei'],
  [/^http:\/\/xbrl\.sec\.gov\/country\//, 'country'],
  [/^http:\/\/xbrl\.ifrs\.org\/taxonomy\/[^/]+\/ifrs-full$/, 'ifrs-full'],
];

/**
 * A QName (`us-gaap:Revenues`, a member in an `explicitMember`) with its prefix replaced by the
 * standard one when it names a standard taxonomy; a company's own prefix stays as filed.
 * `resolve` gives the namespace bound to a prefix where the name appears.
 */
export function canonicalQName(qname: string, resolve: (prefix: string) => string | undefined): string {
  const colon = qname.indexOf(':');
  if (colon < 0) return qname;
  const prefix = qname.slice(0, colon);
  const uri = resolve(prefix);
  if (uri === undefined) return qname;
  for (const [pattern, standard] of STANDARD_PREFIXES) if (pattern.test(uri)) return `${standard}:${qname.slice(colon + 1)}`;
  return qname;
}

/** The format that means zero whatever the text says ("were *not* material"). */
const FIXED_ZERO = /fixed-zero$/i;
/** Formats that write zero as a dash or leave it empty. */
const ZERO_FORMATS = /(zerodash|fixed-zero-dash|nocontent)$/i;
/** Numbers written in English words (`three`, `twenty-one`), as SEC filings write counts. */
const WORD_FORMATS = /(numwordsen|num-word-en)$/i;
const ONES =
  'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen'.split(
    ' ',
  );
const TENS = 'twenty thirty forty fifty sixty seventy eighty ninety'.split(' ');

/** `three` → 3, `twenty-one` → 21, `no`/`none` → 0; NaN past ninety-nine or for other words. */
function englishNumber(words: string): number {
  const w = words.toLowerCase().replace(/\s+/g, ' ').trim();
  if (w === 'no' || w === 'none') return 0;
  if (ONES.includes(w)) return ONES.indexOf(w);
  const [tens, ones] = w.split(/[- ]/);
  const t = TENS.indexOf(tens ?? '');
  if (t < 0) return Number.NaN;
  if (ones === undefined) return (t + 2) * 10;
  const o = ONES.indexOf(ones);
  return o >= 1 && o <= 9 ? (t + 2) * 10 + o : Number.NaN;
}
/** Formats with a comma as the decimal separator (`1.234,5`). */
const COMMA_DECIMAL = /(num-comma-decimal|numcommadecimal|numdotcomma|num-dot-comma)$/i;

/**
 * The value of an `ix:nonFraction`: its text read in its `format` (digits grouped with commas,
 * spaces or dots; a dash or a word for zero), times 10^`scale`, negated when `sign` is `-`.
 * NaN when the text is not a number in that format.
 */
export function parseIxNumber(text: string, inline: { scale: string | null; sign: string | null; format: string | null }): number {
  const shown = text.trim();
  const format = inline.format ?? '';
  let magnitude: number;
  if (FIXED_ZERO.test(format)) {
    magnitude = 0;
  } else if (WORD_FORMATS.test(format) && /[a-z]/i.test(shown)) {
    magnitude = englishNumber(shown);
  } else if (ZERO_FORMATS.test(format) || /^[-\u2012\u2013\u2014\u2015]$/.test(shown)) {
    magnitude = /^(no|none|nil|[-\u2012\u2013\u2014\u2015]|)$/i.test(shown) || /^0+([.,]0*)?$/.test(shown) ? 0 : Number.NaN;
  } else {
    const digits = COMMA_DECIMAL.test(format) ? shown.replace(/[.\s\u00a0']/g, '').replace(',', '.') : shown.replace(/[,\s\u00a0']/g, '');
    magnitude = /^\d+(\.\d*)?$|^\.\d+$/.test(digits) ? Number(digits) : Number.NaN;
  }
  const scale = inline.scale === null ? 0 : Number(inline.scale);
  if (!Number.isInteger(scale)) return Number.NaN;
  // Scaling by a power of ten through the decimal string keeps 1.1 × 10^6 exactly 1100000.
  const scaled = scale === 0 ? magnitude : Number(`${magnitude}e${scale}`);
  return inline.sign === '-' ? -scaled : scaled;
}
