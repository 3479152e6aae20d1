import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portfolioResponseSchema } from '../../api/schemas/portfolio.ts';
import { holdingsFromCsv } from '../../api/use-cases/portfolio-csv.ts';
import { type FixtureTickers, type ServedLakeApi, serveLakeApi } from './support/lake-fixture.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response JSON under test
type Json = Record<string, any>;

describe('holdingsFromCsv: a broker export read by its documented column mapping', () => {
  it('reads a Fidelity-style export: BOM, mixed-case headers, quoted values with thousands commas, cash and total rows skipped', () => {
    const csv =
      '\uFEFFAccount Number,Symbol,Description,Quantity,Last Price,"Current Value",% Of Account\r\n' +
      'X1,AAPL,"APPLE INC, COM",100,"$190.10","$19,010.00",61.3%\r\n' +
      'X1,brk.b,"BERKSHIRE HATHAWAY, CL B",20,$400.00,"$8,000.00",25.8%\r\n' +
      'X1,SPAXX**,HELD IN MONEY MARKET,,,"$4,000.00",12.9%\r\n' +
      'X1,Pending Activity,,,,"$12.00",\r\n' +
      ',,,,,,\r\n' +
      'X1,Account Total,,,,"$31,022.00",\r\n';
    expect(() => holdingsFromCsv(csv, 'us')).toThrow(/row 4: 'SPAXX\*\*' is not a ticker/);
    const { holdings, summary } = holdingsFromCsv(csv.replace('SPAXX**', 'Cash'), 'us');
    expect(holdings).toEqual([
      { market: 'us', ticker: 'AAPL', value: 19010 },
      { market: 'us', ticker: 'BRK.B', value: 8000 },
    ]);
    expect(summary.columns).toEqual({ ticker: 'Symbol', value: 'Current Value' });
    expect(summary.skipped).toEqual([
      { row: 4, symbol: 'Cash', why: 'not a position (cash or a total)' },
      { row: 5, symbol: 'Pending Activity', why: 'not a position (cash or a total)' },
      { row: 6, symbol: '', why: 'no symbol' },
      { row: 7, symbol: 'Account Total', why: 'not a position (cash or a total)' },
    ]);
    expect(summary.rows).toBe(6);
  });

  it('uses shares when there is no value column, reads a Market column, and turns percentage weights into fractions', () => {
    expect(holdingsFromCsv('TICKER,SHARES,MARKET\nvod,10,gb\nAAPL,2.5,\n', 'us').holdings).toEqual([
      { market: 'gb', ticker: 'VOD', shares: 10 },
      { market: 'us', ticker: 'AAPL', shares: 2.5 },
    ]);
    expect(holdingsFromCsv('Symbol,Weight\nAAPL,60%\nMSFT,40\n', 'us').holdings).toEqual([
      { market: 'us', ticker: 'AAPL', weight: 0.6 },
      { market: 'us', ticker: 'MSFT', weight: 0.4 },
    ]);
    expect(holdingsFromCsv('Symbol,Weight\nAAPL,0.6\nMSFT,0.4\n', 'us').holdings[0]).toEqual({ market: 'us', ticker: 'AAPL', weight: 0.6 });
  });

  it('400 naming the accepted headers when a column is missing, and the rows whose amount is not a positive number', () => {
    expect(() => holdingsFromCsv('Name,Price\nApple,190\n', 'us')).toThrow(
      /^CSV: the header row needs a ticker column \(symbol, ticker, ticker symbol\) and one of value .*; got: name, price$/,
    );
    expect(() => holdingsFromCsv('Symbol,Quantity\nAAPL,ten\nMSFT,-3\nIBM,\n', 'us')).toThrow(
      "CSV: row 2: Quantity 'ten' is not a number greater than 0; row 3: Quantity '-3' is not a number greater than 0; " +
        "row 4: Quantity '' is not a number greater than 0",
    );
    expect(() => holdingsFromCsv('Symbol,Quantity\n"AAPL,10\n', 'us')).toThrow(/^CSV: .*send comma-separated values with a header row$/);
  });
});

describe('POST /api/portfolio with a CSV body over real HTTP', () => {
  let lake: ServedLakeApi;
  let t: FixtureTickers;
  const postCsv = async (csv: string, query = '') => {
    const response = await fetch(`${lake.server.url}/api/portfolio${query}`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
      body: csv,
    });
    return { status: response.status, body: (await response.json()) as Json };
  };

  beforeAll(async () => {
    lake = await serveLakeApi();
    t = lake.t;
  }, 180_000);
  afterAll(() => lake?.close());

  it('when a broker export is uploaded, then the answer is that of the same holdings sent as JSON, with what was read', async () => {
    const [a, b] = t.fresh as [string, string];
    const csv =
      `\uFEFFSymbol,Description,Market Value\r\n${a.toLowerCase()},"ONE, INC","$1,500.00"\r\n` +
      `${b},TWO,500\r\n${t.fund.ticker},FUND,"2,000"\r\nCash,,10\r\n`;
    const fromCsv = await postCsv(csv, '?frameworks=shariah_aaoifi,christian_bri&zakat=trading');
    expect(fromCsv.status).toBe(200);
    expect(portfolioResponseSchema.safeParse(fromCsv.body).error?.issues ?? []).toEqual([]);
    const json = await fetch(`${lake.server.url}/api/portfolio`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        holdings: [
          { ticker: a, value: 1500 },
          { ticker: b, value: 500 },
          { ticker: t.fund.ticker, value: 2000 },
        ],
        frameworks: ['shariah_aaoifi', 'christian_bri'],
        zakat: { method: 'trading' },
      }),
    });
    const { csv: read, ...rest } = fromCsv.body;
    expect(rest).toEqual(await json.json());
    expect(read).toEqual({
      rows: 4,
      columns: { ticker: 'Symbol', value: 'Market Value' },
      skipped: [{ row: 5, symbol: 'Cash', why: 'not a position (cash or a total)' }],
    });
    expect(rest.holdings.map((h: Json) => h.weight)).toEqual([0.375, 0.125, 0.5]);
  });

  it('400 for a CSV without the needed columns, 400 for an unknown market in the query, 413 for an upload over 64 kB', async () => {
    const headers = await postCsv('Name,Price\nApple,190\n');
    expect(headers.status).toBe(400);
    expect(headers.body.detail).toMatch(/^CSV: the header row needs a ticker column/);
    const market = await postCsv(`Symbol,Shares\n${t.fresh[0]},1\n`, '?market=mars');
    expect(market.status).toBe(400);
    expect(market.body.detail).toMatch(/^market: unknown market 'mars'; valid markets: /);
    const big = await postCsv(`Symbol,Shares\n${'AAPL,1\n'.repeat(10_000)}`);
    expect(big.status).toBe(413);
    expect(big.body.detail).toBe('request body too large: the limit is 64 kB');
  });
});
