import type { FundHoldings, LakeFileRows, ServingListing, StoredReport, StoredReportStamp } from './serving-types.ts';

/**
 * The rows of the lake tables the store holds besides snapshots (listings, fund holdings,
 * methodology texts), as both engines write and read them. Orders are by code unit, as the
 * lake's and the API's, whatever the engine's collation.
 */

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The statement values of a lake file's rows: `file` first for listings and holdings (the rows are the file's). */
export function lakeFileValues(file: string, content: LakeFileRows): Array<Array<string | number>> {
  switch (content.table) {
    case 'methodology_texts':
      return content.rows.map((r) => [r.textId, r.text]);
    case 'listings':
      return content.rows.map((r) => [file, r.market, r.ticker, r.name, r.exchange, r.kind, r.currency, r.dataSource]);
    case 'fund_holdings':
      return content.rows.map((r) => [file, r.fundMarket, r.fundTicker, r.asOf, r.market, r.ticker, r.weight]);
  }
}

/** A `serving_reports` record read back by either engine. */
export function storedReportOf(market: string, ticker: string, record: Record<string, unknown> | undefined): StoredReport | undefined {
  const stamp = reportStampOf(market, ticker, record);
  return stamp && { ...stamp, report: Buffer.from(record!.report as Uint8Array) };
}

export function reportStampOf(market: string, ticker: string, record: Record<string, unknown> | undefined): StoredReportStamp | undefined {
  if (record === undefined) return undefined;
  return {
    market,
    ticker,
    snapshotDate: String(record.snapshot_date),
    screenedAt: String(record.screened_at),
    companyName: String(record.company_name),
    version: String(record.version),
  };
}

/** The statement values of a stored report, in `UPSERT_REPORT` order. */
export function reportValues(r: StoredReport): Array<string | Buffer> {
  return [r.market, r.ticker, r.snapshotDate, r.screenedAt, r.companyName, r.version, r.report];
}

/** Whether releasing or writing `file` changes the listings (a reader then rebuilds its universe). */
export function isListingsFile(file: string): boolean {
  return file.startsWith('listings/') || file.startsWith('listings\\');
}

export function listingsOf(records: ReadonlyArray<Record<string, unknown>>): ServingListing[] {
  return records
    .map((r) => ({
      market: String(r.market),
      ticker: String(r.ticker),
      name: String(r.name),
      exchange: String(r.exchange),
      kind: String(r.kind),
      currency: String(r.currency),
    }))
    .sort((a, b) => byCodeUnit(a.market, b.market) || byCodeUnit(a.ticker, b.ticker));
}

/** A fund's holdings of its latest report (the records of `SELECT_FUND_HOLDINGS`), heaviest first, at most `limit`. */
export function fundHoldingsOf(
  fundMarket: string,
  fundTicker: string,
  records: ReadonlyArray<Record<string, unknown>>,
  limit: number,
): FundHoldings | undefined {
  if (records.length === 0) return undefined;
  const holdings = records
    .map((r) => ({ market: String(r.market), ticker: String(r.ticker), weight: Number(r.weight) }))
    .sort((a, b) => b.weight - a.weight || byCodeUnit(a.market, b.market) || byCodeUnit(a.ticker, b.ticker));
  return { fundMarket, fundTicker, asOf: String(records[0]!.as_of), totalHoldings: holdings.length, holdings: holdings.slice(0, limit) };
}
