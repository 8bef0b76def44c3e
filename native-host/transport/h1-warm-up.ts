import { Duplex } from 'node:stream';
import { warmUpExchange, type HandedClient } from './warm-up-exchange';

/** The answer the in-memory server gives its one request. */
const NO_CONTENT = 'HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n';

let warmed: Promise<boolean> | undefined;

/**
 * Sends one request through undici's HTTP/1.1 path to an in-memory socket that answers it, once
 * per process. A process's first HTTP/1.1 exchange pays for what every later one reuses: undici
 * compiles its llhttp WebAssembly on its first connection, and the request and response paths run
 * for the first time. Started in the turn after the first plain-HTTP SYN left (undici-transport.ts),
 * that work is done while the handshake's round trip runs rather than after it, between the
 * connection coming up and the first request being written. Nothing leaves the process; any
 * failure only leaves the real first request to pay as before. Resolves true once the answer was
 * read whole, false if the exchange failed.
 */
export function warmUpH1(client: HandedClient): Promise<boolean> {
  // In a turn of its own: the SYNs asked for in the caller's turn go out first.
  warmed ??= new Promise<void>((turn) => setImmediate(turn)).then(() => {
    let answered = false;
    const socket = new Duplex({
      read() {},
      write(_chunk, _encoding, done) {
        done();
        if (answered) return;
        answered = true;
        setImmediate(() => socket.push(NO_CONTENT));
      },
    });
    return warmUpExchange(client, 'http://warm-up.invalid', socket);
  });
  return warmed;
}
