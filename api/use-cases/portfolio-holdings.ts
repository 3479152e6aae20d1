import { badRequest, notFound, unprocessable } from '../../common/app-error.ts';
import type { FundHoldings, Listing } from '../../reads/api-reads-types.ts';
import { FUND_LOOK_THROUGH_MAX, PORTFOLIO_HOLDINGS_MAX, WEIGHT_TOLERANCE } from '../schemas/portfolio.ts';
import type { ScreenService } from '../screen-service.ts';

/** One holding as the client sent it (shape checked by the schema, ticker upper-cased). */
export interface HoldingInput {
  market: string;
  ticker: string;
  shares?: number | undefined;
  value?: number | undefined;
  weight?: number | undefined;
}

export type SizeUnit = 'shares' | 'value' | 'weight';
const UNITS: readonly SizeUnit[] = ['shares', 'value', 'weight'];

/** A holding found in the universe: a stock, or a fund with its latest report. */
export interface ResolvedHolding {
  input: HoldingInput;
  listing: Listing | undefined;
  kind: 'stock' | 'fund';
  fund: FundHoldings | null;
}

const label = (h: HoldingInput) => `${h.market}:${h.ticker}`;

/** 400 when a portfolio has more lines than a request may carry. */
export function checkHoldingCount(count: number): void {
  if (count > PORTFOLIO_HOLDINGS_MAX) {
    throw badRequest(
      `holdings: ${count} holdings; a portfolio takes at most ${PORTFOLIO_HOLDINGS_MAX}: split it into several requests`,
      'too_many_holdings',
    );
  }
}

/** The one unit every holding is sized in; 400 naming the lines that give none, several, or another unit. */
export function sizeUnitOf(holdings: readonly HoldingInput[]): SizeUnit {
  checkHoldingCount(holdings.length);
  const unitsOf = holdings.map((h) => UNITS.filter((unit) => h[unit] !== undefined));
  const wrong = unitsOf.flatMap((units, i) =>
    units.length === 1 ? [] : [`holdings.${i} (${label(holdings[i]!)}) gives ${units.join(' and ') || 'none'}`],
  );
  if (wrong.length > 0)
    throw badRequest(`each holding gives exactly one of shares, value or weight: ${wrong.join('; ')}`, 'invalid_holding');
  const byUnit = UNITS.map((unit) => ({ unit, lines: unitsOf.flatMap((units, i) => (units[0] === unit ? [i] : [])) })).filter(
    (u) => u.lines.length > 0,
  );
  if (byUnit.length > 1) {
    const counts = byUnit.map(
      (u) => `${u.unit} on ${u.lines.length} (holdings ${u.lines.slice(0, 10).join(', ')}${u.lines.length > 10 ? ', …' : ''})`,
    );
    throw badRequest(
      `mixed units: every holding must be sized the same way, all by shares, all by value or all by weight; got ${counts.join('; ')}`,
      'mixed_units',
    );
  }
  return byUnit[0]!.unit;
}

/** 400 naming every ticker given twice, and, for weights, 400 when they do not add up to 1 within the tolerance. */
export function checkHoldings(holdings: readonly HoldingInput[], unit: SizeUnit): void {
  const seen = new Map<string, number>();
  const repeated: string[] = [];
  holdings.forEach((h, i) => {
    const first = seen.get(label(h));
    if (first === undefined) seen.set(label(h), i);
    else repeated.push(`${label(h)} (holdings ${first} and ${i})`);
  });
  if (repeated.length > 0)
    throw badRequest(`each ticker once: add up its lines into one; repeated: ${repeated.join(', ')}`, 'duplicate_holdings');
  if (unit !== 'weight') return;
  const sum = holdings.reduce((total, h) => total + h.weight!, 0);
  if (Math.abs(sum - 1) > WEIGHT_TOLERANCE) {
    throw badRequest(
      `weights add up to ${Math.round(sum * 1e6) / 1e6}; they must add up to 1 within ±${WEIGHT_TOLERANCE} ` +
        `(${1 - WEIGHT_TOLERANCE} to ${1 + WEIGHT_TOLERANCE}); give weights as fractions (0.25 for 25%)`,
      'weights_do_not_add_up',
    );
  }
}

/**
 * Each holding with its listing and, for a fund, its latest holdings report. 404 naming every
 * ticker not in the universe; 422 naming every fund without a holdings report.
 */
export async function resolveHoldings(service: ScreenService, holdings: readonly HoldingInput[]): Promise<ResolvedHolding[]> {
  const listings = holdings.map((h) => service.reads.listing(h.market, h.ticker));
  const unknown = holdings.filter((h, i) => listings[i] === undefined && service.reads.current(h.market, h.ticker) === undefined);
  if (unknown.length > 0) {
    throw notFound(
      {
        message:
          `${unknown.length} ticker(s) not listed: ${unknown.map(label).join(', ')}; ` +
          'look each up with GET /api/universe/search?q=<ticker>',
        unknown_tickers: unknown.map((h) => ({ market: h.market, ticker: h.ticker })),
      },
      'unknown_tickers',
    );
  }
  const resolved = await Promise.all(
    holdings.map(async (input, i): Promise<ResolvedHolding> => {
      const listing = listings[i];
      if (listing?.kind !== 'fund') return { input, listing, kind: 'stock', fund: null };
      const fund = (await service.reads.fundHoldings(input.market, input.ticker, FUND_LOOK_THROUGH_MAX)) ?? null;
      return { input, listing, kind: 'fund', fund };
    }),
  );
  const empty = resolved.filter((r) => r.kind === 'fund' && r.fund === null);
  if (empty.length > 0) {
    throw unprocessable(
      {
        message:
          `${empty.length} fund(s) with no holdings report to look through: ${empty.map((r) => label(r.input)).join(', ')}; ` +
          'remove them or give the fund’s holdings as lines of their own',
        funds_without_holdings: empty.map((r) => ({ market: r.input.market, ticker: r.input.ticker })),
      },
      'fund_without_holdings',
    );
  }
  return resolved;
}
