/**
 * Fetches EDGAR files over the network, politely: every request carries the User-Agent the SEC
 * requires ("Company Name admin@example.com") and requests are spaced to stay under 10 per
 * second. Off by default: the embedded setup has no network access to sec.gov.
 */
export interface EdgarClientOptions {
  /** Required by the SEC: who you are and how to reach you. */
  userAgent: string;
  /** Requests per second, at most 10 (default 8). */
  maxPerSecond?: number;
  /** Injected in tests. */
  fetch?: typeof fetch;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export interface EdgarClient {
  getJson(url: string): Promise<unknown>;
}

export function createEdgarClient(options: EdgarClientOptions): EdgarClient {
  if (!/\S+@\S+/.test(options.userAgent)) throw new Error('EDGAR needs a User-Agent with a contact e-mail, e.g. "Example Corp ops@example.com"');
  const perSecond = Math.min(10, options.maxPerSecond ?? 8);
  const gap = 1000 / perSecond;
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let nextSlot = 0;
  return {
    async getJson(url) {
      const slot = Math.max(now(), nextSlot);
      nextSlot = slot + gap;
      const wait = slot - now();
      if (wait > 0) await sleep(wait);
      const response = await doFetch(url, { headers: { 'User-Agent': options.userAgent, 'Accept-Encoding': 'gzip, deflate', Accept: 'application/json' } });
      if (!response.ok) throw new Error(`EDGAR ${url}: HTTP ${response.status}`);
      return response.json();
    },
  };
}

export const EDGAR_URLS = {
  companyTickersExchange: 'https://www.sec.gov/files/company_tickers_exchange.json',
  submissions: (cik: string) => `https://data.sec.gov/submissions/CIK${cik}.json`,
  companyFacts: (cik: string) => `https://data.sec.gov/api/xbrl/companyfacts/CIK${cik}.json`,
};
