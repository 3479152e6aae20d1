import { createHash } from 'node:crypto';
import type { FrameworkResult, Reason, ScreeningResult } from '../engine/result-types.ts';

/**
 * The reasons' methodology texts (messages, rule sources, band bases, purification formulas,
 * the madhhab note) are the same in millions of snapshots. A snapshot's `result_json` stores
 * each as a reference — the string `"\u0000<12 hex>"` in place of the text — and the lake's
 * `methodology_texts` table stores each text once per (engine version, methodology version,
 * reason code, field). Expanding the references gives back, byte for byte, the JSON of the
 * engine's result (docs/warehouse.md, "Methodology texts").
 */

/** One row of the `methodology_texts` lake table. */
export interface MethodologyTextRow {
  engine_version: string;
  /** The framework's methodology version; `''` for texts outside a framework (data quality, madhhab note). */
  methodology_version: string;
  /** Reason code, `<framework>.purification` for a formula, `madhhab_views` for the note. */
  code: string;
  field: 'message' | 'source' | 'formula' | 'note';
  text_id: string;
  text: string;
}

/** What a reference looks like inside a stored `result_json` (the NUL is written `\u0000` by JSON). */
export const TEXT_REFERENCE = /"\\u0000([0-9a-f]{12})"/g;
/** The same pattern as a DuckDB regular expression (docs/warehouse.md: the `snapshots` view expands it). */
export const TEXT_REFERENCE_SQL_PATTERN = '"\\\\u0000([0-9a-f]{12})"';
const REFERENCE_MARK = '\\u0000';

const idCache = new Map<string, string>();

/** Content address of a text: its SHA-256, first 12 hex digits (cached: the same texts recur). */
export function textIdOf(text: string): string {
  let id = idCache.get(text);
  if (id === undefined) {
    id = createHash('sha256').update(text).digest('hex').slice(0, 12);
    if (idCache.size < 200_000) idCache.set(text, id);
  }
  return id;
}

/**
 * Texts one (methodology version, code, field) may reference. A rule's texts are a handful
 * (pass, fail, band, missing input); a text that carries a figure (`Alcohol is 3.2% of
 * revenue…`, a date) is new for almost every company: past this many, such texts stay inline,
 * so the table stays the size of the methodologies, not of the universe or the history.
 */
export const TEXTS_PER_CONTEXT = 16;

/**
 * The texts a thread has turned into references, each row once. Writers publish its rows to a
 * lake before snapshots that use them (`publishMethodologyTexts`), so a reader never meets a
 * reference it cannot expand.
 */
export class TextBook {
  /** engine version → methodology version → code → field → text → row and its reference (strings the engine reuses: lookups hash nothing new). */
  private readonly byContext = new Map<
    string,
    Map<string, Map<string, Map<string, Map<string, { row: MethodologyTextRow; reference: string }>>>>
  >();
  private readonly all: MethodologyTextRow[] = [];

  /** Every row seen, in first-seen order. */
  get rows(): readonly MethodologyTextRow[] {
    return this.all;
  }

  /** The reference to `text` in its context, registering it when new; the text itself once its context holds `TEXTS_PER_CONTEXT`. */
  reference(engineVersion: string, methodologyVersion: string, code: string, field: MethodologyTextRow['field'], text: string): string {
    const byText = child(child(child(child(this.byContext, engineVersion), methodologyVersion), code), field);
    const known = byText.get(text);
    if (known) return known.reference;
    if (byText.size >= TEXTS_PER_CONTEXT) return text;
    const row: MethodologyTextRow = {
      engine_version: engineVersion,
      methodology_version: methodologyVersion,
      code,
      field,
      text_id: textIdOf(text),
      text,
    };
    const reference = `\u0000${row.text_id}`;
    byText.set(text, { row, reference });
    this.all.push(row);
    return reference;
  }
}

function child<K, V>(map: Map<K, Map<string, V>>, key: K): Map<string, V> {
  let found = map.get(key);
  if (!found) map.set(key, (found = new Map()));
  return found;
}

/** The thread's book: every writer in a thread shares it (worker threads each have their own). */
export const threadTextBook = new TextBook();

function packReason(reason: Reason, engine: string, methodology: string, book: TextBook): Reason {
  const packed: Reason = { ...reason };
  if (typeof reason.message === 'string') packed.message = book.reference(engine, methodology, reason.code, 'message', reason.message);
  if (typeof reason.source === 'string') packed.source = book.reference(engine, methodology, reason.code, 'source', reason.source);
  return packed;
}

/** A copy of one framework's result with its methodology texts replaced by references (as `packResult` does for each). */
export function packFramework(framework: FrameworkResult, engine: string, book: TextBook): FrameworkResult {
  const methodology = framework.methodology_version;
  const packed: FrameworkResult = { ...framework, reasons: framework.reasons.map((r) => packReason(r, engine, methodology, book)) };
  if (framework.purification) {
    packed.purification = {
      ...framework.purification,
      formula: book.reference(engine, methodology, `${framework.id}.purification`, 'formula', framework.purification.formula),
    };
  }
  return packed;
}

/**
 * A copy of `result` with its methodology texts replaced by references registered in `book`;
 * `JSON.stringify` of it is what a snapshot stores. Keys keep their order, so expanding the
 * stored JSON gives exactly `JSON.stringify(result)`. The engine's result is not changed.
 */
export function packResult(result: ScreeningResult, book: TextBook = threadTextBook): ScreeningResult {
  const engine = result.engine_version;
  const frameworks: ScreeningResult['frameworks'] = {};
  for (const [id, framework] of Object.entries(result.frameworks) as Array<
    [keyof ScreeningResult['frameworks'], FrameworkResult | undefined]
  >) {
    if (framework) frameworks[id] = packFramework(framework, engine, book);
  }
  const packed: ScreeningResult = { ...result, frameworks, data_quality: result.data_quality.map((r) => packReason(r, engine, '', book)) };
  if (result.madhhab_views)
    packed.madhhab_views = {
      ...result.madhhab_views,
      note: book.reference(engine, '', 'madhhab_views', 'note', result.madhhab_views.note),
    };
  return packed;
}

/** Whether a stored `result_json` holds references (results stored before this format hold none). */
export function hasTextReferences(json: string): boolean {
  return json.includes(REFERENCE_MARK);
}

/**
 * The stored JSON with every reference replaced by its text, JSON-quoted (`quotedText(id)`
 * returns `JSON.stringify(text)`, or undefined when unknown). Throws on an unknown reference:
 * a report is never served with a text missing.
 */
export function expandResultJson(json: string, quotedText: (id: string) => string | undefined): string {
  if (!hasTextReferences(json)) return json;
  return json.replace(TEXT_REFERENCE, (_, id: string) => {
    const quoted = quotedText(id);
    if (quoted === undefined) throw new UnknownTextError(id);
    return quoted;
  });
}

/** A stored result references a text the reader has not loaded (or the lake does not hold). */
export class UnknownTextError extends Error {
  constructor(readonly textId: string) {
    super(`methodology text ${textId} is referenced by a snapshot but not in the lake's methodology_texts`);
    this.name = 'UnknownTextError';
  }
}

/** The text ids a stored JSON references (tests and tools). */
export function referencedTextIds(json: string): string[] {
  return [...json.matchAll(TEXT_REFERENCE)].map((m) => m[1]!);
}
