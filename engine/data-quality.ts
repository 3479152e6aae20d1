/** Top-level notes on inputs that limited the screen (empty for a clean input). */
import { ACTIVITY_CODES } from './inputs.ts';
import { describeExposureState } from './exposures.ts';
import { STALENESS_LIMITS } from './input-quality.ts';
import { formatMonthRuns } from './format.ts';
import type { Reason } from './result-types.ts';
import type { ScreenContext } from './screen-context.ts';

const FUNDAMENTALS_TEXT: Record<string, string> = {
  missing: 'No filing on or before the screening date: every ratio screen is insufficient_data.',
  stale:
    `The latest filing's period ended more than ${STALENESS_LIMITS.fundamentalsPeriodEndMonths} months before the screening ` +
    `date: ratio screens are insufficient_data.`,
  after_screening_date: 'The filing is dated after the screening date (look-ahead): it is not used.',
  bad_date: 'The filing dates are malformed: the filing is not used.',
};

const PRICE_TEXT: Record<string, string> = {
  missing: 'No spot market cap: spot-based screens are insufficient_data.',
  stale: `The spot price is more than ${STALENESS_LIMITS.spotPriceDays} days old: spot-based screens are insufficient_data.`,
  after_screening_date: 'The spot price is dated after the screening date (look-ahead): it is not used.',
  bad_date: 'The spot price date is malformed: it is not used.',
};

/** Adds one note. A module function, not a closure: tsx names a closure bound to a name each time it is made (a hot-path cost). */
function note(notes: Reason[], code: string, message: string): void {
  notes.push({ code: `data_quality.${code}`, result: 'info', message });
}

function incompleteText(window: 24 | 36, missing: readonly string[]): string {
  return (
    `The ${window}-month average market cap has no month-end price for ${formatMonthRuns(missing)} (it needs the month-end ` +
    `before the screening date's month and misses at most ${STALENESS_LIMITS.maxMissingMonths} months): ratios on it are insufficient_data.`
  );
}

/** Collect the input problems of one screen as `info` Reasons. */
export function dataQualityNotes(ctx: ScreenContext): Reason[] {
  const q = ctx.quality;
  const notes: Reason[] = [];
  if (q.fundamentals !== 'ok') note(notes, `fundamentals_${q.fundamentals}`, FUNDAMENTALS_TEXT[q.fundamentals]!);
  if (q.price !== 'ok') note(notes, `price_${q.price}`, PRICE_TEXT[q.price]!);
  if (q.currencyMismatch) {
    note(notes, 'currency_mismatch', 'The filing currency differs from the listing currency: market-cap ratios are insufficient_data.');
  }
  if (q.avg24 === 'incomplete') note(notes, 'avg24_incomplete', incompleteText(24, q.missing24));
  else if (q.avg24 !== 'ok')
    note(
      notes,
      `avg24_${q.avg24}`,
      `The 24-month average market cap rests on ${ctx.input.marketCap.months24} month-end prices (minimum ${STALENESS_LIMITS.minMonths24}).`,
    );
  if (q.avg36 === 'incomplete') note(notes, 'avg36_incomplete', incompleteText(36, q.missing36));
  else if (q.avg36 !== 'ok')
    note(
      notes,
      `avg36_${q.avg36}`,
      `The 36-month average market cap rests on ${ctx.input.marketCap.months36} month-end prices (minimum ${STALENESS_LIMITS.minMonths36}).`,
    );
  const ex = ctx.exposures;
  for (let i = 0; i < ACTIVITY_CODES.length; i++) {
    const s = ex.states[i]!;
    if (s !== 'none' && s !== 'ok') note(notes, `exposure_${s}`, `${ACTIVITY_CODES[i]}: ${describeExposureState(s)}.`);
  }
  return notes;
}
