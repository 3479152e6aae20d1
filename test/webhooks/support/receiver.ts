import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got: path, headers and the raw body exactly as received. */
export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A local webhook receiver on an ephemeral loopback port. `answer(path, countSoFarOnPath)`
 * decides each response's status (default 200), so a path can fail a given number of times.
 */
export async function startReceiver(answer: (path: string, count: number) => number = () => 200) {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const count = received.filter((r) => r.path === path).length;
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.statusCode = answer(path, count);
      response.end();
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    on: (path: string) => received.filter((r) => r.path === path),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
