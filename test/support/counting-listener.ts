import net, { type AddressInfo, type Socket } from 'node:net';
import { isBadPort } from '../../src/targets/bad-ports';

/**
 * A TCP listener that only counts: every accepted connection and the bytes it sent (a TLS
 * ClientHello, a request line). It never answers, so a test can tell "refused before the SYN"
 * (0 accepts) from "connected, then dropped".
 */
export interface CountingListener {
  readonly host: string;
  readonly port: number;
  /** `scheme://host:port` */
  origin(scheme?: 'http' | 'https'): string;
  accepts(): number;
  bytes(): number;
  close(): Promise<void>;
}

/**
 * Bad ports above 1023, so no privilege is needed to listen on them (the Fetch standard's list,
 * https://fetch.spec.whatwg.org/#port-blocking).
 */
const UNPRIVILEGED_BAD_PORTS = [6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080, 6000, 6566, 5060, 5061, 4190, 4045, 3659, 2049, 1719, 1720, 1723];

export async function startCountingListener(port = 0, host = '127.0.0.1'): Promise<CountingListener> {
  const sockets = new Set<Socket>();
  let accepts = 0;
  let bytes = 0;
  const server = net.createServer((s) => {
    accepts += 1;
    sockets.add(s);
    s.on('data', (d: Buffer) => (bytes += d.length));
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  const hostPart = host.includes(':') ? `[${host}]` : host;
  return {
    host,
    port: bound,
    origin: (scheme = 'http') => `${scheme}://${hostPart}:${bound}`,
    accepts: () => accepts,
    bytes: () => bytes,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A counting listener on the first free bad port (so no privilege is needed). */
export async function startBadPortListener(host = '127.0.0.1'): Promise<CountingListener> {
  for (const port of UNPRIVILEGED_BAD_PORTS) {
    if (!isBadPort(port)) throw new Error(`${port} is not on the Fetch standard's bad-port list`);
    try {
      return await startCountingListener(port, host);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    }
  }
  throw new Error(`every candidate bad port is in use on ${host}: ${UNPRIVILEGED_BAD_PORTS.join(', ')}`);
}
