import type { z } from 'zod';
import { FRAMEWORK_IDS, isFrameworkId, type FrameworkId } from '../engine/index.ts';
import { MARKET_KEYS } from '../common/markets.ts';
import { badRequest, unprocessable } from '../common/app-error.ts';
import { HISTORY_START, utcDay } from '../engine/dates.ts';
import { TICKER_PATTERN } from './schemas/requests.ts';

/** Issue codes that mean the request has the wrong shape (422); every other code is a bad value (400). */
const SHAPE_CODES = new Set(['invalid_type', 'unrecognized_keys', 'invalid_union', 'invalid_key', 'invalid_element']);

function describeIssue(where: string, issue: z.core.$ZodIssue): string {
  const name = issue.path.length > 0 ? `${where}.${issue.path.join('.')}` : where;
  if (issue.code === 'invalid_value' && issue.path.at(-1) === 'market') {
    return `${name}: unknown market${'input' in issue ? ` '${String(issue.input)}'` : ''}; valid markets: ${MARKET_KEYS.join(', ')}`;
  }
  if (issue.code === 'invalid_type') return `${name}: expected ${issue.expected}`;
  return `${name}: ${issue.message}`;
}

/**
 * Validates `value` against a request schema. Wrong types or shapes give 422, bad values 400;
 * the detail names every problem and what is accepted.
 */
export function parseRequest<S extends z.ZodType>(schema: S, value: unknown, where: 'query' | 'body' | 'path'): z.output<S> {
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues;
  const detail = issues.map((issue) => describeIssue(where, issue)).join('; ');
  throw issues.some((issue) => SHAPE_CODES.has(issue.code))
    ? unprocessable(detail, 'malformed_request')
    : badRequest(detail, 'invalid_value');
}

/** A market key, or 400 naming the valid keys. */
export function checkMarket(market: string, field = 'market'): string {
  const key = market.trim().toLowerCase();
  if (!MARKET_KEYS.includes(key))
    throw badRequest(`${field}: unknown market '${market}'; valid markets: ${MARKET_KEYS.join(', ')}`, 'unknown_market');
  return key;
}

/** The ticker in upper case, or 400 naming the accepted characters. */
export function normaliseTicker(ticker: string, field = 'ticker'): string {
  const upper = ticker.trim().toUpperCase();
  if (!TICKER_PATTERN.test(upper)) {
    throw badRequest(
      `${field}: invalid ticker '${ticker}'; use 1 to 20 letters, digits, '.' or '-', starting with a letter or digit`,
      'invalid_ticker',
    );
  }
  return upper;
}

/** Framework ids from a comma-separated string or an array; unknown ids give 400 listing the valid ones. */
export function parseFrameworks(value: string | readonly string[] | undefined, field = 'framework'): FrameworkId[] | null {
  if (value === undefined) return null;
  const ids = (typeof value === 'string' ? value.split(',') : [...value]).map((id) => id.trim()).filter((id) => id.length > 0);
  if (ids.length === 0)
    throw badRequest(`${field}: name at least one framework id; valid ids: ${FRAMEWORK_IDS.join(', ')}`, 'unknown_framework');
  const unknown = ids.filter((id) => !isFrameworkId(id));
  if (unknown.length > 0) {
    throw badRequest(
      `${field}: unknown framework id(s) ${unknown.join(', ')}; valid ids: ${FRAMEWORK_IDS.join(', ')}`,
      'unknown_framework',
    );
  }
  return FRAMEWORK_IDS.filter((id) => ids.includes(id));
}

/** `true`/`1` or `false`/`0` (already checked by the schema). */
export function parseFlag(value: string | undefined): boolean {
  return value === 'true' || value === '1';
}

/** A date of the history (`as_of`, `from`, `to`): a real calendar date from 2009-01-01 to today (UTC); otherwise 400 naming `field`. */
export function checkHistoryDate(date: string, now: Date, field = 'as_of'): string {
  const parsed = new Date(`${date}T00:00:00Z`);
  const code = `invalid_${field}`;
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== date) {
    throw badRequest(`${field}: '${date}' is not a calendar date; expected YYYY-MM-DD`, code);
  }
  if (date < HISTORY_START) throw badRequest(`${field}: ${date} is before ${HISTORY_START}, where compliance history starts`, code);
  const today = utcDay(now);
  if (date > today) throw badRequest(`${field}: ${date} is in the future; the latest valid date is today, ${today} (UTC)`, code);
  return date;
}

/** An `as_of` date: a real calendar date from 2009-01-01 to today (UTC); otherwise 400. */
export function checkAsOf(date: string, now: Date): string {
  return checkHistoryDate(date, now, 'as_of');
}

/** A `from`..`to` range of history dates (each checked as a history date; `to` defaults to today); from after to is 400. */
export function checkDateRange(from: string | undefined, to: string | undefined, now: Date): { from: string | null; to: string } {
  const checkedFrom = from === undefined ? null : checkHistoryDate(from, now, 'from');
  const checkedTo = to === undefined ? utcDay(now) : checkHistoryDate(to, now, 'to');
  if (checkedFrom !== null && checkedFrom > checkedTo)
    throw badRequest(`from: ${checkedFrom} is after to=${checkedTo}; from must be on or before to`, 'invalid_date_range');
  return { from: checkedFrom, to: checkedTo };
}
