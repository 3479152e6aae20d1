/**
 * Plain words for the parts of a screening check, for explaining why two frameworks disagree:
 * what a ratio divides by what (its numerator, denominator and averaging window), how a value
 * stands against its limit, and the short names users know the frameworks by.
 */
import type { FrameworkId } from '../frameworks.ts';
import { activityLabel } from '../format.ts';
import type { CheckResult } from '../result-types.ts';

export const SHORT_NAMES: Readonly<Record<FrameworkId, string>> = Object.freeze({
  shariah_aaoifi: 'AAOIFI',
  shariah_djim: 'DJIM',
  shariah_sp: 'S&P',
  shariah_ftse: 'FTSE',
  shariah_msci: 'MSCI',
  christian_bri: 'BRI',
  catholic_usccb: 'USCCB',
  jewish_halakhic: 'Halakhic',
  lds_mormon: 'Word of Wisdom',
  service_consensus: 'Consensus',
});

/** A ratio metric taken apart: `debt_to_market_cap_36m` → debt, market_cap, 36m. */
export interface MetricParts {
  numerator: string;
  denominator: string;
  /** `spot` (today's value), `24m` or `36m` (a trailing average); null when the denominator is not averaged. */
  window: 'spot' | '24m' | '36m' | null;
}

const RATIO_METRIC = /^(.+)_to_(market_cap|assets|total_income)(?:_(spot|24m|36m))?$/;

/** The parts of a ratio metric, or null for a metric that is not a ratio (`activity.alcohol`). */
export function metricParts(metric: string | undefined): MetricParts | null {
  const m = metric === undefined ? null : RATIO_METRIC.exec(metric);
  if (m === null) return null;
  return { numerator: m[1]!, denominator: m[2]!, window: (m[3] as MetricParts['window'] | undefined) ?? null };
}

const NUMERATORS: Record<string, string> = {
  debt: 'interest-bearing debt',
  cash_and_securities: 'cash and interest-bearing securities',
  receivables: 'receivables',
  receivables_and_cash: 'receivables and cash',
  non_permissible_income: 'non-permissible income',
};

/** The numerator in words. */
export function numeratorWords(parts: MetricParts): string {
  return NUMERATORS[parts.numerator] ?? parts.numerator.replaceAll('_', ' ');
}

/** The denominator with its window in words: "today's market value", "the 36-month average market value", "total assets". */
export function denominatorWords(parts: MetricParts): string {
  if (parts.denominator === 'assets') return 'total assets';
  if (parts.denominator === 'total_income') return 'total income';
  if (parts.window === '24m' || parts.window === '36m') return `the ${parts.window === '24m' ? 24 : 36}-month average market value`;
  return "today's market value";
}

/** A ratio as a percentage, with as many decimals (1 to 4) as it takes to tell it apart from `other`. */
export function percentBeside(value: number, other: number): string {
  for (let decimals = 1; decimals < 4; decimals++) {
    const a = (value * 100).toFixed(decimals);
    // Number() drops trailing zeros: 33.0 → 33.
    if (a !== (other * 100).toFixed(decimals) || value === other) return `${Number(a)}%`;
  }
  return `${Number((value * 100).toFixed(4))}%`;
}

/** A published limit as a percentage, exactly as published (0.33333 → "33.333%"). */
export function limitPercent(threshold: number): string {
  return `${Number((threshold * 100).toPrecision(10))}%`;
}

/** How a value stands against its limit, as a sign: 31.2% > 30%. */
export function relation(value: number, threshold: number): '<' | '=' | '>' {
  return value < threshold ? '<' : value > threshold ? '>' : '=';
}

const RESULT_WORDS: Record<CheckResult, string> = {
  pass: 'passes',
  fail: 'fails',
  questionable: 'in doubt',
  insufficient_data: 'cannot be decided',
  info: 'noted',
};

/** The outcome of a check in a word or two. */
export function resultWords(result: CheckResult): string {
  return RESULT_WORDS[result];
}

/** A business topic in words: `business.alcohol` → "alcohol revenue"; `business` → "prohibited activities". */
export function topicWords(topic: string): string {
  if (topic === 'business') return 'screened activities';
  if (topic.startsWith('business.')) return `${activityLabel(topic.slice('business.'.length))} revenue`;
  return topic.replaceAll('_', ' ');
}
