import { addDays } from '../../engine/dates.ts';
import { SHARIAH_FRAMEWORK_IDS, type FrameworkId, type ShariahFrameworkId } from '../../engine/index.ts';
import { inLanes } from '../../common/lanes.ts';
import { AppError } from '../../common/app-error.ts';
import type { PurificationReads } from '../../warehouse/purification-reads.ts';
import type { ScreenService } from '../screen-service.ts';
import { purificationMethodOf, purifyHolding } from './purify-holding.ts';
import type { SizeUnit } from './portfolio-holdings.ts';
import { round6 } from './portfolio-exposures.ts';

/** A stock held for the whole period. */
export interface HeldStock {
  market: string;
  ticker: string;
  shares: number;
}

export interface Period {
  from: string;
  /** Last day held, `YYYY-MM-DD`. */
  to: string;
}

/** History walks run at once: each is a DuckDB read, and the API serves other requests meanwhile. */
const CONCURRENCY = 4;

/** The Shariah frameworks of a request: the ones purification is computed for. */
export function purificationFrameworks(frameworks: readonly FrameworkId[]): ShariahFrameworkId[] {
  return SHARIAH_FRAMEWORK_IDS.filter((id) => frameworks.includes(id));
}

interface HoldingAmount {
  market: string;
  ticker: string;
  currency: string | null;
  amount: number | null;
  amount_known: number;
  complete: boolean;
  error: string | null;
}

/** One holding under one framework, by the per-holding computation; an expected failure is that holding's error. */
async function amountOf(
  service: ScreenService,
  lake: PurificationReads,
  stock: HeldStock,
  framework: ShariahFrameworkId,
  period: Period,
  today: string,
): Promise<HoldingAmount> {
  const base = { market: stock.market, ticker: stock.ticker };
  // A lot is held up to, not including, sold_on; held through today means unsold.
  const soldOn = period.to >= today ? undefined : addDays(period.to, 1);
  try {
    const answer = (await purifyHolding(service, lake, {
      market: stock.market,
      ticker: stock.ticker,
      framework,
      lots: [{ shares: stock.shares, bought_on: period.from, ...(soldOn ? { sold_on: soldOn } : {}) }],
    })) as { currency: string; amount_to_purify: number | null; complete: boolean; totals: { framework_method: { amount_known: number } } };
    return {
      ...base,
      currency: answer.currency,
      amount: answer.amount_to_purify,
      amount_known: answer.totals.framework_method.amount_known,
      complete: answer.complete,
      error: null,
    };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const detail = typeof error.detail === 'string' ? error.detail : error.detail.message;
    return { ...base, currency: null, amount: null, amount_known: 0, complete: false, error: detail };
  }
}

/** Totals by currency: an amount only when every holding in it is complete and none failed (fail closed). */
function totalsOf(amounts: readonly HoldingAmount[]): Array<Record<string, unknown>> {
  const currencies = [...new Set(amounts.map((a) => a.currency).filter((c): c is string => c !== null))].sort();
  const failed = amounts.some((a) => a.currency === null);
  return currencies.map((currency) => {
    const inCurrency = amounts.filter((a) => a.currency === currency);
    const complete = !failed && inCurrency.every((a) => a.complete);
    const known = round6(inCurrency.reduce((sum, a) => sum + a.amount_known, 0));
    return { currency, amount: complete ? known : null, amount_known: known, complete };
  });
}

/**
 * Purification owed for the period per Shariah framework and stock holding (the per-holding
 * computation, `POST /api/purification`, for one lot held the whole period). Needs share counts:
 * holdings sized by value or weight, and funds, get a note instead.
 */
export async function purifyPortfolio(
  service: ScreenService,
  lake: PurificationReads,
  input: { stocks: readonly HeldStock[]; funds: number; frameworks: readonly FrameworkId[]; period: Period; unit: SizeUnit; today: string },
): Promise<Record<string, unknown>> {
  const { period, today } = input;
  const frameworks = purificationFrameworks(input.frameworks);
  const base = { from: period.from, to: period.to };
  if (input.unit !== 'shares')
    return { ...base, computed: false, note: `purification needs share counts; these holdings are sized by ${input.unit}`, frameworks: {} };
  if (frameworks.length === 0)
    return { ...base, computed: false, note: 'no Shariah framework requested: only Shariah frameworks have purification', frameworks: {} };
  const jobs = frameworks.flatMap((framework) => input.stocks.map((stock) => ({ framework, stock })));
  const amounts = new Array<HoldingAmount>(jobs.length);
  await inLanes(jobs.length, CONCURRENCY, async (i) => {
    amounts[i] = await amountOf(service, lake, jobs[i]!.stock, jobs[i]!.framework, period, today);
  });
  const note = input.funds > 0 ? `${input.funds} fund(s) not included: purification is computed for stocks held directly` : null;
  return {
    ...base,
    computed: true,
    note,
    frameworks: Object.fromEntries(
      frameworks.map((framework) => {
        const mine = amounts.filter((_, i) => jobs[i]!.framework === framework);
        const holdings = mine.map((a) => ({
          market: a.market,
          ticker: a.ticker,
          currency: a.currency,
          amount: a.amount,
          complete: a.complete,
          error: a.error,
        }));
        return [framework, { method: purificationMethodOf(framework), totals: totalsOf(mine), holdings }];
      }),
    ),
  };
}
