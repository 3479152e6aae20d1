/**
 * Zakat on a holding of shares (docs/frameworks/zakat.md). Two methods:
 * - `long_term` (AAOIFI Shari'ah Standard No. 35, Zakah): the investor pays on their share of
 *   the company's zakatable assets — cash, receivables and inventory less current liabilities —
 *   per share, from the filing in force on the date;
 * - `trading`: shares held for trade pay on their market value.
 * The rate is 2.5% a lunar year, 2.5775% a solar year. A figure the method needs and the filing
 * lacks makes the answer `insufficient_data` naming it: never a guess. Amounts are in the
 * listing's currency; every step is exact (engine/zakat/exact-amount.ts) and rounded once.
 */
import { dividedBy, exactOf, isNegative, minus, plus, roundTo, times, ZERO, type Exact } from './exact-amount.ts';

export const ZAKAT_METHODS = ['long_term', 'trading'] as const;
export type ZakatMethod = (typeof ZAKAT_METHODS)[number];

export const ZAKAT_YEARS = ['lunar', 'solar'] as const;
export type ZakatYear = (typeof ZAKAT_YEARS)[number];

/** Rate per year held: 2.5% of a lunar year; a solar year is longer by 365.25 ÷ 354.37, so 2.5775%. */
export const ZAKAT_RATES: Readonly<Record<ZakatYear, number>> = Object.freeze({ lunar: 0.025, solar: 0.025775 });

/** The filing's figures the long-term method reads, by lake column. */
export const ZAKATABLE_ASSETS = ['cash_and_equivalents', 'accounts_receivable', 'inventory'] as const;
export const ZAKAT_DEDUCTIONS = ['current_liabilities'] as const;
export type ZakatFigureName = (typeof ZAKATABLE_ASSETS)[number] | (typeof ZAKAT_DEDUCTIONS)[number] | 'shares_outstanding';

/** Decimal places of money amounts (cents) and of per-share figures in the answer. */
export const MONEY_DECIMALS = 2;
export const PER_SHARE_DECIMALS = 6;

/** The holding: a number of shares on the as-of date's share basis, or its market value. */
export type ZakatHolding = { shares: number } | { value: number };

export interface ZakatInput {
  method: ZakatMethod;
  year: ZakatYear;
  holding: ZakatHolding;
  /** Close per share on the as-of date's share basis; null when none is known. */
  price: number | null;
  /** The filing in force's figures (null = not reported); null when no filing is in force. */
  figures: Readonly<Record<ZakatFigureName, number | null>> | null;
  /** Product of the ratios of the splits between the filing and the as-of date (1 when none). */
  splitsSinceFiling: number;
}

export interface ZakatOutcome {
  status: 'computed' | 'insufficient_data';
  rate: number;
  /** Shares held (given, or value ÷ price). */
  shares: number | null;
  /** Shares × price, or the value given. */
  marketValue: number | null;
  /** Long-term: cash + receivables + inventory − current liabilities of the whole company. */
  netZakatableAssets: number | null;
  /** Long-term: net zakatable assets per share on the as-of basis, at least 0. */
  zakatableAssetsPerShare: number | null;
  /** The amount zakat is due on: the holding's zakatable assets, or its market value. */
  zakatBase: number | null;
  zakatDue: number | null;
  /** Each missing input, said plainly; empty when computed. */
  missing: string[];
  notes: string[];
}

const LABELS: Record<ZakatFigureName, string> = {
  cash_and_equivalents: 'cash and cash equivalents',
  accounts_receivable: 'receivables',
  inventory: 'inventory',
  current_liabilities: 'current liabilities',
  shares_outstanding: 'shares outstanding',
};

/** Plain words for a figure of the filing (for messages). */
export function zakatFigureLabel(name: ZakatFigureName): string {
  return LABELS[name];
}

function sharesHeld(holding: ZakatHolding, price: Exact | null): Exact | null {
  if ('shares' in holding) return exactOf(holding.shares);
  return price === null ? null : dividedBy(exactOf(holding.value), price);
}

function marketValueOf(holding: ZakatHolding, price: Exact | null): Exact | null {
  if ('value' in holding) return exactOf(holding.value);
  return price === null ? null : times(exactOf(holding.shares), price);
}

/** Zakat due on one holding by one method, with each step's figure (amounts in the listing's currency). */
export function zakatDue(input: ZakatInput): ZakatOutcome {
  const rate = exactOf(ZAKAT_RATES[input.year]);
  const price = input.price !== null && input.price > 0 ? exactOf(input.price) : null;
  const shares = sharesHeld(input.holding, price);
  const value = marketValueOf(input.holding, price);
  const missing: string[] = [];
  const notes: string[] = [];
  const base = {
    rate: ZAKAT_RATES[input.year],
    shares: shares === null ? null : roundTo(shares, PER_SHARE_DECIMALS),
    marketValue: value === null ? null : roundTo(value, MONEY_DECIMALS),
  };
  const priceMissing = 'close price on the as-of date (needed to turn the value held into shares, or shares into a value)';
  if (input.method === 'trading') {
    if (value === null) missing.push(priceMissing);
    const due = value === null ? null : roundTo(times(value, rate), MONEY_DECIMALS);
    return {
      status: value === null ? 'insufficient_data' : 'computed',
      ...base,
      netZakatableAssets: null,
      zakatableAssetsPerShare: null,
      zakatBase: base.marketValue,
      zakatDue: due,
      missing,
      notes,
    };
  }
  const figures = input.figures;
  if (figures === null) missing.push('a filing in force on the as-of date (no balance sheet to read the zakatable assets from)');
  else {
    for (const name of [...ZAKATABLE_ASSETS, ...ZAKAT_DEDUCTIONS, 'shares_outstanding'] as const) {
      const v = figures[name];
      if (v === null) missing.push(`${name} (${LABELS[name]}): not reported in the filing in force`);
      else if (name === 'shares_outstanding' && v <= 0) missing.push(`shares_outstanding: ${v} is not a share count`);
    }
  }
  if (shares === null) missing.push(priceMissing);
  if (missing.length > 0 || figures === null || shares === null) {
    return {
      status: 'insufficient_data',
      ...base,
      netZakatableAssets: null,
      zakatableAssetsPerShare: null,
      zakatBase: null,
      zakatDue: null,
      missing,
      notes,
    };
  }
  const assets = ZAKATABLE_ASSETS.reduce((sum, name) => plus(sum, exactOf(figures[name]!)), ZERO);
  const net = minus(assets, exactOf(figures.current_liabilities!));
  const sharesOnAsOfBasis = times(exactOf(figures.shares_outstanding!), exactOf(input.splitsSinceFiling));
  let perShare = dividedBy(net, sharesOnAsOfBasis);
  if (isNegative(perShare)) {
    notes.push(
      'current liabilities exceed cash, receivables and inventory: the company holds no net zakatable assets, so none is due on them',
    );
    perShare = ZERO;
  }
  if (input.splitsSinceFiling !== 1)
    notes.push(
      `per-share figures are on the as-of date's share basis: the filing's share count × ${input.splitsSinceFiling} (splits since it was filed)`,
    );
  const zakatBase = times(perShare, shares);
  return {
    status: 'computed',
    ...base,
    netZakatableAssets: roundTo(net, MONEY_DECIMALS),
    zakatableAssetsPerShare: roundTo(perShare, PER_SHARE_DECIMALS),
    zakatBase: roundTo(zakatBase, MONEY_DECIMALS),
    zakatDue: roundTo(times(zakatBase, rate), MONEY_DECIMALS),
    missing,
    notes,
  };
}
