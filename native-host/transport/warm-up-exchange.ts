import type { Duplex } from 'node:stream';
import type { Dispatcher } from 'undici';

/** A client on the one socket `connect` hands it (the transport's own factory: it dials nothing). */
export type HandedClient = (origin: string, socket: Duplex) => Dispatcher;

/**
 * The warm-ups' one exchange (h1-warm-up.ts, h2-warm-up.ts): a GET of `origin` by the client
 * `client` makes on `socket`, an in-memory stream whose other end answers. Resolves true once the
 * answer was read whole, false if the client could not be made, the exchange failed, or
 * `giveUpMs` passed first; the client is destroyed then, whatever the outcome. Never rejects.
 */
export function warmUpExchange(client: HandedClient, origin: string, socket: Duplex, giveUpMs?: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    let c: Dispatcher | undefined;
    let done = false;
    const end = (read: boolean) => {
      if (done) return;
      done = true;
      if (timer !== undefined) clearTimeout(timer);
      void c?.destroy().catch(() => undefined);
      resolve(read);
    };
    const timer = giveUpMs === undefined ? undefined : setTimeout(() => end(false), giveUpMs);
    timer?.unref();
    try {
      c = client(origin, socket);
      c.dispatch({ origin, path: '/', method: 'GET' }, {
        onConnect() {},
        onHeaders: () => true,
        onData: () => true,
        onComplete: () => end(true),
        onError: () => end(false),
      });
    } catch {
      end(false);
    }
  });
}
