import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

/**
 * A stand-in for www.sec.gov and data.sec.gov on 127.0.0.1: serves the real recorded EDGAR files
 * of test/fixtures/realdata (gzipped) at the SEC's URL paths, gzip-encoded when the client accepts
 * it, as the SEC does; 404 for any file not recorded. Scripted answers can be queued per path to
 * play 429s, 5xx, dropped connections or bodies that are not the SEC's.
 */

export const REALDATA = fileURLToPath(new URL('../fixtures/realdata', import.meta.url));

export interface SeenRequest {
  path: string;
  /** `performance.timeOrigin + performance.now()` on arrival, ms. */
  at: number;
  userAgent: string | undefined;
}

export type ScriptedAnswer =
  | { status: number; headers?: Record<string, string>; body?: string }
  /** Drop the connection without an answer (a network error for the client). */
  | { drop: true };

export interface SecReplayServer {
  url: string;
  requests: SeenRequest[];
  /** Answers given, in order, to the next requests for `urlPath` before the recorded file is served. */
  script(urlPath: string, ...answers: ScriptedAnswer[]): void;
  close(): Promise<void>;
}

/** The recorded file behind an SEC URL path, or null when the path is not one the SEC serves. */
function recordedFile(urlPath: string): string | null {
  if (urlPath === '/files/company_tickers_exchange.json') return 'company_tickers_exchange.json.gz';
  const submissions = /^\/submissions\/(CIK\d{10}\.json)$/.exec(urlPath);
  if (submissions) return `submissions/${submissions[1]}.gz`;
  const facts = /^\/api\/xbrl\/companyfacts\/(CIK\d{10}\.json)$/.exec(urlPath);
  if (facts) return `companyfacts/${facts[1]}.gz`;
  return null;
}

async function serveRecorded(req: IncomingMessage, res: ServerResponse, urlPath: string): Promise<void> {
  const file = recordedFile(urlPath);
  const gz = file ? await readFile(path.join(REALDATA, file)).catch(() => null) : null;
  if (!gz) {
    res.writeHead(404, { 'Content-Type': 'text/html' }).end('<html><body><h1>Not Found</h1></body></html>');
    return;
  }
  if (/\bgzip\b/.test(req.headers['accept-encoding'] ?? ''))
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }).end(gz);
  else res.writeHead(200, { 'Content-Type': 'application/json' }).end(gunzipSync(gz));
}

export async function startSecReplayServer(): Promise<SecReplayServer> {
  const requests: SeenRequest[] = [];
  const scripts = new Map<string, ScriptedAnswer[]>();
  const server = createServer((req, res) => {
    const urlPath = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    requests.push({ path: urlPath, at: performance.timeOrigin + performance.now(), userAgent: req.headers['user-agent'] });
    const answer = scripts.get(urlPath)?.shift();
    if (answer && 'drop' in answer) {
      req.socket.destroy();
      return;
    }
    if (answer) {
      res.writeHead(answer.status, { 'Content-Type': 'text/html', ...answer.headers }).end(answer.body ?? '');
      return;
    }
    serveRecorded(req, res, urlPath).catch((error: unknown) => res.writeHead(500).end(String(error)));
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script(urlPath, ...answers) {
      scripts.set(urlPath, [...(scripts.get(urlPath) ?? []), ...answers]);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The most requests that arrived within any window of `windowMs` (half-open). */
export function maxInWindow(times: readonly number[], windowMs = 1000): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; j < sorted.length; j += 1) {
    while (sorted[j]! - sorted[i]! >= windowMs) i += 1;
    most = Math.max(most, j - i + 1);
  }
  return most;
}
