/**
 * The one way an MCP tool reaches faithscreen: a REST request with the caller's API key. A tool
 * call is therefore the REST call itself, authenticated, scoped, metered and refused by the same
 * code, and costs what that call costs (docs/mcp.md, "How a tool call is served").
 */

/** One REST request: the path below the API's base URL, its query (absent values left out) and a JSON body. */
export interface RestRequest {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
}

/** The REST answer as the tools see it: status and the parsed JSON body. */
export interface RestResponse {
  status: number;
  body: unknown;
}

export type RestCall = (request: RestRequest) => Promise<RestResponse>;

export interface RestClientOptions {
  /** Where the API is served, e.g. `http://127.0.0.1:8080` (no trailing slash needed). */
  baseUrl: string;
  /** Sent as `X-API-Key`; null sends no key (an open API, or a public tool). Never logged. */
  apiKey: string | null;
  /** Extra headers for every request (the MCP request's id, so both log lines correlate). */
  headers?: Record<string, string>;
  /** Per request, in ms (default 120,000: a re-screen may take a while). */
  timeoutMs?: number;
}

/** The URL of `request` under `baseUrl`, with each defined query value encoded. */
export function restUrl(baseUrl: string, request: RestRequest): string {
  const url = new URL(request.path, `${baseUrl.replace(/\/$/, '')}/`);
  for (const [name, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  return url.toString();
}

/** A RestCall over HTTP to `baseUrl`. A transport failure is thrown, naming the URL; any HTTP status is returned. */
export function restClient(options: RestClientOptions): RestCall {
  return async (request) => {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'faithscreen-mcp', ...options.headers };
    if (options.apiKey !== null) headers['x-api-key'] = options.apiKey;
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(restUrl(options.baseUrl, request), {
        method: request.method,
        headers,
        ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
        signal: AbortSignal.timeout(options.timeoutMs ?? 120_000),
      });
    } catch (error) {
      // The tool error the assistant sees: where it tried and why, not a bare "fetch failed".
      const cause = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
      throw new Error(`the faithscreen API at ${options.baseUrl} did not answer (${cause}); check that it runs and its URL`);
    }
    const text = await response.text();
    return { status: response.status, body: parseBody(text) };
  };
}

/** JSON when the body is JSON; otherwise the text as it came (a proxy's HTML error page), so it can still be shown. */
function parseBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
