import { parse } from 'csv-parse/sync';
import { badRequest } from '../../common/app-error.ts';
import { TICKER_PATTERN } from '../schemas/requests.ts';

/**
 * Broker export columns (docs/api.md, "Portfolio from CSV"), matched case-insensitively after
 * trimming; the first header found in each list is read.
 */
export const CSV_COLUMNS = {
  ticker: ['symbol', 'ticker', 'ticker symbol'],
  market: ['market'],
  value: ['market value', 'marketvalue', 'current value', 'value'],
  shares: ['quantity', 'shares', 'qty'],
  weight: ['weight', '% of account', '% of portfolio', 'percent of account', 'allocation'],
} as const;

/** Sizing columns in the order one is chosen when an export has several. */
const SIZE_ORDER = ['value', 'shares', 'weight'] as const;

/** Rows brokers add around the positions (cash sweep, totals): skipped and listed, never screened. */
const NOT_A_POSITION = /^(cash|pending|account total|total)\b/i;

export interface CsvHoldings {
  holdings: Array<{ market: string; ticker: string } & Partial<Record<'shares' | 'value' | 'weight', number>>>;
  summary: { rows: number; columns: Record<string, string>; skipped: Array<{ row: number; symbol: string; why: string }> };
}

/** `$1,234.50`, `12.5%`, ` 300 ` → a number; null for an empty cell; NaN for anything else. */
function numberOf(cell: string | undefined): number | null {
  const text = (cell ?? '').trim().replace(/[$€£,\s]/g, '');
  if (text === '' || text === '--') return null;
  return Number(text.endsWith('%') ? text.slice(0, -1) : text);
}

function columnOf(headers: readonly string[], names: readonly string[]): number {
  for (const name of names) {
    const i = headers.indexOf(name);
    if (i >= 0) return i;
  }
  return -1;
}

/**
 * Holdings from a broker's CSV export: a header row, then one position a row. `defaultMarket`
 * applies when there is no Market column. Weights that add up to about 100 are percentages.
 * 400 naming the rows and columns that are wrong and the headers accepted.
 */
export function holdingsFromCsv(text: string, defaultMarket: string): CsvHoldings {
  let records: string[][];
  try {
    records = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true, trim: true });
  } catch (error) {
    throw badRequest(`CSV: ${(error as Error).message}; send comma-separated values with a header row`, 'invalid_csv');
  }
  const headers = (records[0] ?? []).map((h) => h.trim().toLowerCase());
  const at = Object.fromEntries(Object.entries(CSV_COLUMNS).map(([field, names]) => [field, columnOf(headers, names)])) as Record<
    keyof typeof CSV_COLUMNS,
    number
  >;
  const size = SIZE_ORDER.find((field) => at[field] >= 0);
  if (at.ticker < 0 || size === undefined) {
    throw badRequest(
      `CSV: the header row needs a ticker column (${CSV_COLUMNS.ticker.join(', ')}) and one of value (${CSV_COLUMNS.value.join(', ')}), ` +
        `shares (${CSV_COLUMNS.shares.join(', ')}) or weight (${CSV_COLUMNS.weight.join(', ')}), any case; got: ${headers.join(', ') || 'nothing'}`,
      'invalid_csv',
    );
  }
  const columns: Record<string, string> = { ticker: records[0]![at.ticker]!, [size]: records[0]![at[size]]! };
  if (at.market >= 0) columns.market = records[0]![at.market]!;
  const skipped: CsvHoldings['summary']['skipped'] = [];
  const problems: string[] = [];
  const holdings: CsvHoldings['holdings'] = [];
  records.slice(1).forEach((record, i) => {
    const row = i + 2;
    const symbol = (record[at.ticker] ?? '').trim();
    if (symbol === '' || NOT_A_POSITION.test(symbol)) {
      skipped.push({ row, symbol, why: symbol === '' ? 'no symbol' : 'not a position (cash or a total)' });
      return;
    }
    const ticker = symbol.toUpperCase();
    const amount = numberOf(record[at[size]]);
    if (!TICKER_PATTERN.test(ticker)) problems.push(`row ${row}: '${symbol}' is not a ticker (letters, digits, '.' or '-')`);
    else if (amount === null || !Number.isFinite(amount) || amount <= 0)
      problems.push(`row ${row}: ${columns[size]} '${record[at[size]] ?? ''}' is not a number greater than 0`);
    const market = at.market >= 0 && (record[at.market] ?? '').trim() !== '' ? record[at.market]!.trim().toLowerCase() : defaultMarket;
    holdings.push({ market, ticker, [size]: amount ?? 0 });
  });
  if (problems.length > 0) throw badRequest(`CSV: ${problems.slice(0, 20).join('; ')}${problems.length > 20 ? '; …' : ''}`, 'invalid_csv');
  if (size === 'weight') {
    const sum = holdings.reduce((total, h) => total + h.weight!, 0);
    // A broker's "% of account" column: 100-based.
    if (sum > 1.5) for (const h of holdings) h.weight = h.weight! / 100;
  }
  return { holdings, summary: { rows: records.length - 1, columns, skipped } };
}
