import { inLanes } from '../../common/lanes.ts';
import { ZAKAT_RATES, type ZakatMethod, type ZakatYear } from '../../engine/zakat/zakat-due.ts';
import type { Listing } from '../../reads/api-reads-types.ts';
import type { ZakatLake } from '../../warehouse/zakat-reads.ts';
import type { SizeUnit } from './portfolio-holdings.ts';
import { zakatAnswer } from './zakat-holding.ts';

/** A stock held directly, with its size as sent. */
export interface ZakatStock {
  market: string;
  ticker: string;
  shares?: number | undefined;
  value?: number | undefined;
  listing: Listing;
}

/** Filings and closes read at once: each is two point-in-time lake reads. */
const CONCURRENCY = 4;

interface ZakatLine {
  market: string;
  ticker: string;
  currency: string;
  status: 'computed' | 'insufficient_data';
  zakat_due: number | null;
  missing: string[];
  filing: string | null;
}

/** Totals by currency: the sum only when every holding in it was computed (fail closed), else null with the known part. */
function totalsOf(lines: readonly ZakatLine[]): Array<Record<string, unknown>> {
  const currencies = [...new Set(lines.map((l) => l.currency))].sort();
  return currencies.map((currency) => {
    const mine = lines.filter((l) => l.currency === currency);
    const complete = mine.every((l) => l.status === 'computed');
    const known = Math.round(mine.reduce((sum, l) => sum + (l.zakat_due ?? 0), 0) * 100) / 100;
    return { currency, zakat_due: complete ? known : null, zakat_due_known: known, complete };
  });
}

/**
 * Zakat due today on each stock held directly, by the per-holding computation
 * (docs/frameworks/zakat.md), and in total per currency. Needs shares or values: holdings sized
 * by weight, and funds (zakat is a company's own balance sheet), get a note instead.
 */
export async function portfolioZakat(
  lake: ZakatLake,
  input: { stocks: readonly ZakatStock[]; funds: number; unit: SizeUnit; method: ZakatMethod; year: ZakatYear; today: string },
): Promise<Record<string, unknown>> {
  const base = { as_of: input.today, method: input.method, year: input.year, rate: ZAKAT_RATES[input.year] };
  if (input.unit === 'weight')
    return { ...base, computed: false, note: 'zakat needs shares or values; these holdings are sized by weight', totals: [], holdings: [] };
  const lines = new Array<ZakatLine>(input.stocks.length);
  await inLanes(input.stocks.length, CONCURRENCY, async (i) => {
    const stock = input.stocks[i]!;
    const holding = stock.shares !== undefined ? { shares: stock.shares } : { value: stock.value! };
    const request = { market: stock.market, ticker: stock.ticker, method: input.method, year: input.year, holding, asOf: input.today };
    const answer = zakatAnswer(request, stock.listing, await lake.zakatInputs(stock.market, stock.ticker, input.today)) as {
      currency: string;
      status: ZakatLine['status'];
      zakat_due: number | null;
      missing: string[];
      filing: { source_ref: string } | null;
    };
    lines[i] = {
      market: stock.market,
      ticker: stock.ticker,
      currency: answer.currency,
      status: answer.status,
      zakat_due: answer.zakat_due,
      missing: answer.missing,
      filing: answer.filing?.source_ref ?? null,
    };
  });
  const note =
    input.funds > 0 ? `${input.funds} fund(s) not included: zakat is computed on the balance sheets of stocks held directly` : null;
  return { ...base, computed: true, note, totals: totalsOf(lines), holdings: lines };
}
