import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';

/** A DNS server on 127.0.0.1 that takes every query and never answers: a name server that hangs. */
export async function startSilentDns() {
  let queries = 0;
  const socket = dgram.createSocket('udp4');
  socket.on('message', () => {
    queries += 1;
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address() as AddressInfo;
  return {
    server: `127.0.0.1:${port}`,
    queries: () => queries,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
