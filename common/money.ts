/**
 * Money as people read it (docs/api.md, "Amounts"): the ISO 4217 code and a precision that
 * suits the amount. JSON responses keep the full number and name its currency beside it; this
 * is only for pages, the CLI and examples.
 */

const MAX_FRACTION_DIGITS = 20;

/** ISO 4217 codes the runtime knows (Intl would format any three letters, `XYZ` included). */
const KNOWN_CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** The currency's usual number of decimals: 2 for USD, 0 for JPY, 3 for KWD. */
function minorDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/**
 * `amount` with its currency code, e.g. `USD 1,234.57`, `JPY 1,235`. Amounts under one unit —
 * purification per share is often a fraction of a cent — keep three significant digits rather
 * than round to zero: `USD 0.0712`, `EUR 0.0000123`. A missing or unrecognised code is said, never
 * guessed: `0.0712 (currency unknown)`.
 */
export function formatMoney(amount: number, currency: string | null | undefined): string {
  const code = currency?.trim().toUpperCase() ?? '';
  if (!KNOWN_CURRENCIES.has(code))
    return `${new Intl.NumberFormat('en', { maximumSignificantDigits: 3 }).format(amount)} (currency unknown)`;
  const digits = minorDigits(code);
  const magnitude = Math.abs(amount);
  // Three significant digits below one unit: 0.0712 needs four decimals, 0.5 keeps the currency's usual two.
  const wanted = magnitude > 0 && magnitude < 1 ? Math.max(digits, 2 - Math.floor(Math.log10(magnitude))) : digits;
  return new Intl.NumberFormat('en', {
    style: 'currency',
    currency: code,
    currencyDisplay: 'code',
    minimumFractionDigits: digits,
    maximumFractionDigits: Math.min(wanted, MAX_FRACTION_DIGITS),
  }).format(amount);
}
