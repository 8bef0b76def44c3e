import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface DelayProxy {
  port: number;
  /** TCP connections it accepted. */
  connections: () => number;
  close: () => Promise<void>;
}

/**
 * A TCP relay on port 0 that holds every chunk `oneWayMs` in each direction, so a client on
 * loopback sees a path with a round trip of `2 × oneWayMs` in everything it sends (a TLS
 * handshake, a request's answer) — though not in the TCP connect, which the relay accepts at once.
 * Order is kept: timers of one duration fire in the order they were set.
 */
export async function startDelayProxy(targetPort: number, oneWayMs: number, host = 'localhost'): Promise<DelayProxy> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const relay = (from: net.Socket, to: net.Socket): void => {
    from.on('data', (chunk) => setTimeout(() => to.destroyed || to.write(chunk), oneWayMs));
    from.on('end', () => setTimeout(() => to.end(), oneWayMs));
    from.on('error', () => to.destroy());
    from.on('close', () => setTimeout(() => to.destroy(), oneWayMs));
  };
  const server = net.createServer((client) => {
    accepted += 1;
    const upstream = net.connect(targetPort, host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    }
    relay(client, upstream);
    relay(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => accepted,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
