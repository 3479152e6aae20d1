/**
 * Fetches EDGAR files over the network, politely (docs/data/sources.md, "Fetching from EDGAR"):
 * every request carries the User-Agent the SEC requires ("Company Name admin@example.com"),
 * request starts are spaced to stay under 10 per second, and 429/5xx answers and network errors
 * are retried a bounded number of times with exponential backoff and jitter, honouring
 * Retry-After. Base URLs are options so tests can point the client at a local server.
 */
export interface EdgarClientOptions {
  /** Required by the SEC: who you are and how to reach you. */
  userAgent: string;
  /** Requests per second, at most 10 (default 8). */
  maxPerSecond?: number;
  /** `https://www.sec.gov` and `https://data.sec.gov` unless overridden. */
  baseUrls?: Partial<EdgarBaseUrls>;
  /** Attempts per request, including the first (default 5). */
  maxTries?: number;
  /** First backoff in ms, doubled on each retry (default 1000). */
  backoffMs?: number;
  /** Longest backoff in ms (default 30000). */
  maxBackoffMs?: number;
  /** A Retry-After longer than this (ms) ends the retries instead of stalling the run (default 120000). */
  maxRetryAfterMs?: number;
  /** Per attempt, headers and body (default 120000). */
  timeoutMs?: number;
  /** Injected in tests. */
  fetch?: typeof fetch;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export interface EdgarBaseUrls {
  /** Serves `/files/company_tickers_exchange.json`. */
  www: string;
  /** Serves `/submissions/…` and `/api/xbrl/companyfacts/…`. */
  data: string;
}

export const SEC_BASE_URLS: EdgarBaseUrls = { www: 'https://www.sec.gov', data: 'https://data.sec.gov' };

/** A request that failed for good: an HTTP status that is not retried, or retries exhausted. */
export class EdgarFetchError extends Error {
  constructor(
    readonly url: string,
    readonly status: number | null,
    message: string,
  ) {
    super(message);
    this.name = 'EdgarFetchError';
  }
}

export interface EdgarClient {
  readonly urls: EdgarUrls;
  /** The response body as text; throws EdgarFetchError when the file cannot be had. */
  getText(url: string): Promise<string>;
  getJson(url: string): Promise<unknown>;
}

export interface EdgarUrls {
  companyTickersExchange: string;
  submissions(cik: string): string;
  companyFacts(cik: string): string;
  /** The file list of one filing (`index.json` of its archive folder). */
  filingIndex(cik: string, accession: string): string;
  /** One file of a filing's archive folder. */
  filingFile(cik: string, accession: string, name: string): string;
}

/** A filing's archive folder: the CIK without leading zeros, the accession without dashes. */
const archive = (www: string, cik: string, accession: string): string =>
  `${www}/Archives/edgar/data/${Number(cik)}/${accession.replace(/-/g, '')}`;

/** URLs of the EDGAR files faithscreen reads, `cik` zero-padded to 10 digits, accessions as `0000320193-24-000123`. */
export function edgarUrls(bases: EdgarBaseUrls = SEC_BASE_URLS): EdgarUrls {
  const www = bases.www.replace(/\/+$/, '');
  const data = bases.data.replace(/\/+$/, '');
  return {
    companyTickersExchange: `${www}/files/company_tickers_exchange.json`,
    submissions: (cik) => `${data}/submissions/CIK${cik}.json`,
    companyFacts: (cik) => `${data}/api/xbrl/companyfacts/CIK${cik}.json`,
    filingIndex: (cik, accession) => `${archive(www, cik, accession)}/index.json`,
    filingFile: (cik, accession, name) => `${archive(www, cik, accession)}/${encodeURIComponent(name)}`,
  };
}

export const EDGAR_URLS = edgarUrls();

const USER_AGENT_HINT = 'a name and a contact e-mail, e.g. "Example Corp ops@example.com"';

/** Why a User-Agent does not meet the SEC's rule (a name and a contact e-mail), or null when it does. */
export function userAgentProblem(userAgent: string | undefined): string | null {
  const words = (userAgent ?? '').trim().split(/\s+/).filter(Boolean);
  const hasEmail = words.some((w) => /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(w.replace(/^<|>$/g, '')));
  const hasName = words.some((w) => !w.includes('@'));
  if (words.length === 0) return `the SEC requires a User-Agent with ${USER_AGENT_HINT}`;
  if (!hasEmail) return `the User-Agent '${userAgent}' has no contact e-mail: the SEC requires ${USER_AGENT_HINT}`;
  if (!hasName) return `the User-Agent '${userAgent}' has no name: the SEC requires ${USER_AGENT_HINT}`;
  return null;
}

const RETRIED_STATUS = (status: number): boolean => status === 429 || status >= 500;

/** Retry-After as ms: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Starts requests one at a time, each at least `gap` ms after the previous start, by the same clock. */
function createPacer(gap: number, now: () => number, sleep: (ms: number) => Promise<void>): () => Promise<void> {
  let lastStart = -Infinity;
  let queue: Promise<void> = Promise.resolve();
  return () => {
    const turn = queue.then(async () => {
      for (let wait = lastStart + gap - now(); wait > 0; wait = lastStart + gap - now()) await sleep(wait);
      lastStart = now();
    });
    queue = turn;
    return turn;
  };
}

// A few ms more than 1000/rate between starts, so response-time jitter cannot put more than the
// rate's worth of requests into one second as the server counts them.
const PACING_MARGIN_MS = 10;

export function createEdgarClient(options: EdgarClientOptions): EdgarClient {
  const problem = userAgentProblem(options.userAgent);
  if (problem) throw new Error(problem);
  const perSecond = Math.min(10, Math.max(0.1, options.maxPerSecond ?? 8));
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = options.random ?? Math.random;
  const maxTries = Math.max(1, options.maxTries ?? 5);
  const backoffMs = options.backoffMs ?? 1000;
  const maxBackoffMs = options.maxBackoffMs ?? 30_000;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 120_000;
  const timeoutMs = options.timeoutMs ?? 120_000;
  const pace = createPacer(1000 / perSecond + PACING_MARGIN_MS, now, sleep);
  const headers = { 'User-Agent': options.userAgent, 'Accept-Encoding': 'gzip, deflate', Accept: 'application/json' };

  /** Exponential backoff with "equal jitter": half fixed, half random. */
  const backoff = (attempt: number): number => {
    const ceiling = Math.min(maxBackoffMs, backoffMs * 2 ** (attempt - 1));
    return ceiling / 2 + random() * (ceiling / 2);
  };

  async function getText(url: string): Promise<string> {
    for (let attempt = 1; ; attempt += 1) {
      await pace();
      let status: number | null = null;
      let reason: string;
      let wait: number;
      try {
        const response = await doFetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
        status = response.status;
        if (response.ok) return await response.text();
        await response.body?.cancel();
        if (!RETRIED_STATUS(status)) throw new EdgarFetchError(url, status, `HTTP ${status}`);
        reason = `HTTP ${status}`;
        const asked = retryAfterMs(response.headers.get('Retry-After'), now());
        if (asked !== null && asked > maxRetryAfterMs)
          throw new EdgarFetchError(
            url,
            status,
            `HTTP ${status}, Retry-After ${Math.round(asked / 1000)} s is longer than the ${Math.round(maxRetryAfterMs / 1000)} s this run waits`,
          );
        wait = asked ?? backoff(attempt);
      } catch (error) {
        if (error instanceof EdgarFetchError) throw error;
        reason = networkReason(error);
        wait = backoff(attempt);
      }
      if (attempt >= maxTries) throw new EdgarFetchError(url, status, `${reason} after ${attempt} tries`);
      await sleep(wait);
    }
  }

  return {
    urls: edgarUrls({ ...SEC_BASE_URLS, ...options.baseUrls }),
    getText,
    async getJson(url) {
      return JSON.parse(await getText(url)) as unknown;
    },
  };
}

function networkReason(error: unknown): string {
  const err = error as Error & { cause?: { code?: string; message?: string } };
  if (err.name === 'TimeoutError') return 'timed out';
  const detail = err.cause?.code ?? err.cause?.message ?? err.message;
  return `network error (${detail})`;
}
