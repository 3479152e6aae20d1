import net from 'node:net';
import type { AddressInfo } from 'node:net';

/** One connection a slow receiver took: when it came, and when it was closed (by either side). */
export interface SlowConnection {
  path: string;
  openedAt: number;
  closedAt: number | null;
}

/**
 * A receiver on 127.0.0.1 that answers at a trickle, one byte every `everyMs`, for at most
 * `maxBytes` bytes (so a client that never gives up is still bounded). On `/trickle-head` the
 * status line itself trickles; on `/trickle-body` the status line and headers come at once and
 * the body trickles. Every connection is recorded, with when it was closed.
 */
export async function startSlowReceiver(everyMs: number, maxBytes = 40) {
  const connections: SlowConnection[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    const connection: SlowConnection = { path: '?', openedAt: Date.now(), closedAt: null };
    connections.push(connection);
    let timer: NodeJS.Timeout | undefined;
    let request = '';
    socket.on('close', () => {
      clearInterval(timer);
      connection.closedAt = Date.now();
      sockets.delete(socket);
    });
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      if (timer !== undefined) return;
      request += chunk.toString('latin1');
      if (!request.includes('\r\n\r\n')) return;
      connection.path = request.split(' ')[1] ?? '?';
      const head = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1000000\r\n\r\n';
      let pending = connection.path === '/trickle-body' ? '' : head;
      if (connection.path === '/trickle-body') socket.write(head);
      let sent = 0;
      timer = setInterval(() => {
        if (sent >= maxBytes) return clearInterval(timer);
        const byte = pending.length > 0 ? pending[0]! : 'x';
        pending = pending.slice(1);
        sent += 1;
        socket.write(byte);
      }, everyMs);
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connections,
    on: (path: string) => connections.filter((c) => c.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
