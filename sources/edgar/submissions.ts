import { EXCHANGE_MICS } from './edgar-concepts.ts';
import type { CompanyTickersExchange, Submissions } from './edgar-formats.ts';
import { paddedCik } from './edgar-formats.ts';
import { domicileOfEdgarIssuer } from './edgar-locations.ts';

/** A US listing as EDGAR describes it. */
export interface EdgarListing {
  cik: string;
  ticker: string;
  name: string;
  exchange_mic: string | null;
  sic: string | null;
  sic_description: string | null;
  /** ISO country of the issuer (docs/frameworks/jewish_halakhic.md, "The deciding fact"); null when unknown. */
  domicile: string | null;
}

const micOf = (exchange: string | null | undefined): string | null => (exchange ? (EXCHANGE_MICS[exchange] ?? null) : null);

/** Listings of `company_tickers_exchange.json`: one per ticker (SIC comes from submissions). */
export function listingsFromCompanyTickers(file: CompanyTickersExchange): EdgarListing[] {
  return file.data.map(([cik, name, ticker, exchange]) => ({
    cik: paddedCik(cik),
    ticker,
    name,
    exchange_mic: micOf(exchange),
    sic: null,
    sic_description: null,
    domicile: null,
  }));
}

/** Listings of one company's submissions file: each ticker with its exchange, SIC code and title. */
export function listingsFromSubmissions(file: Submissions): EdgarListing[] {
  return file.tickers.map((ticker, i) => ({
    cik: paddedCik(file.cik),
    ticker,
    name: file.name,
    exchange_mic: micOf(file.exchanges[i]),
    sic: /^\d{4}$/.test(file.sic) ? file.sic : null,
    sic_description: file.sicDescription || null,
    domicile: domicileOfEdgarIssuer(file.stateOfIncorporation, file.addresses?.business?.stateOrCountry),
  }));
}
