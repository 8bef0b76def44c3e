import type { AddressInfo, Server } from 'node:net';

export interface Listening {
  port: number;
  /** `http://<host>:<port>`, an IPv6 host in brackets (RFC 3986 §3.2.2). */
  origin: string;
  /** Closes the server with `closeAll` (which ends its connections); repeated calls share the first's promise. */
  close(): Promise<void>;
}

/**
 * Starts `server` listening on `host:port` (0: a free ephemeral port); rejects with the listen
 * error (EADDRINUSE, EACCES) instead of leaving it to an `error` event nobody hears.
 */
export function listen(server: Server, host: string, port: number, closeAll: () => void): Promise<Listening> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const bound = (server.address() as AddressInfo).port;
      let closing: Promise<void> | undefined;
      resolve({
        port: bound,
        origin: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
        close() {
          closing ??= new Promise<void>((done) => {
            server.close(() => done());
            closeAll();
          });
          return closing;
        },
      });
    });
  });
}
