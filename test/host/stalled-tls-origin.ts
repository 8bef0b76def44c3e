import net from 'node:net';

export interface StalledTlsOrigin {
  /** `https://127.0.0.1:<port>`: a TLS handshake to it never completes. */
  origin: string;
  /** Resolves on the next connection accepted after the call. */
  nextConnection(): Promise<void>;
  /** Resolves once every accepted connection has been closed by the client; rejects after `ms`. */
  drained(ms?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A listener on 127.0.0.1, port 0, that accepts TCP connections and never answers: a TLS
 * client's handshake to it waits until it gives up. A request to it stays in flight for as long
 * as a test needs.
 */
export async function startStalledTlsOrigin(): Promise<StalledTlsOrigin> {
  const sockets = new Set<net.Socket>();
  let count = 0;
  let waiters: Array<() => boolean> = [];
  const changed = () => (waiters = waiters.filter((settled) => !settled()));
  const server = net.createServer((socket) => {
    count += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
    // The ClientHello is read and dropped: a socket left paused would never see the client's FIN.
    socket.resume();
    socket.once('close', () => {
      sockets.delete(socket);
      changed();
    });
    changed();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const until = (done: () => boolean) =>
    new Promise<void>((resolve) => {
      const settled = () => (done() ? (resolve(), true) : false);
      if (!settled()) waiters.push(settled);
    });
  return {
    origin: `https://127.0.0.1:${port}`,
    nextConnection: () => {
      const seen = count;
      return until(() => count > seen);
    },
    drained: (ms = 2000) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${sockets.size} connection(s) to ${port} still open after ${ms} ms`)), ms);
      });
      return Promise.race([until(() => sockets.size === 0), late]).finally(() => clearTimeout(timer));
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
