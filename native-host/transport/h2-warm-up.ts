import { createServer } from 'node:http2';
import { Duplex } from 'node:stream';
import { warmUpExchange, type HandedClient } from './warm-up-exchange';

/** How long the exchange may take before it is dropped: it is in memory, so only a fault is slower. */
export const H2_WARM_UP_GIVE_UP_MS = 2_000;

let warmed: Promise<boolean> | undefined;

/**
 * Sends one request through undici's HTTP/2 path to an in-memory HTTP/2 server, once per process:
 * the HTTP/2 counterpart of `warmUpH1`. A process's first HTTP/2 exchange loads Node's http2 module
 * and runs undici's HTTP/2 client, the session's set-up and the first stream for the first time,
 * all between the TLS handshake's end and the first request's write (bench/README.md, "What a
 * fresh process pays at a load's start"). Started in the turn after the first TLS SYN left
 * (undici-transport.ts), that work is done while the handshake's round trips run. Nothing leaves
 * the process; any failure only leaves the real first exchange to pay as before. Resolves true
 * once the answer was read whole, false if the exchange failed.
 *
 * undici speaks HTTP/2 on a socket whose `alpnProtocol` is `h2`, as the in-memory one says.
 */
export function warmUpH2(client: HandedClient): Promise<boolean> {
  // In a turn of its own: the SYNs asked for in the caller's turn go out first.
  warmed ??= new Promise<void>((turn) => setImmediate(turn)).then(async () => {
    const [near, far] = streamPair();
    // As a TLS socket that negotiated h2 looks to undici (which also refs and unrefs it).
    Object.assign(near, { alpnProtocol: 'h2', ref: () => near, unref: () => near });
    try {
      createServer((_req, res) => res.end()).emit('connection', far);
      return await warmUpExchange(client, 'https://warm-up.invalid', near, H2_WARM_UP_GIVE_UP_MS);
    } catch {
      return false;
    } finally {
      near.destroy();
      far.destroy();
    }
  });
  return warmed;
}

/** Two streams joined back to back: what one is written, the other reads. */
function streamPair(): [Duplex, Duplex] {
  const pair: Duplex[] = [];
  const side = (other: () => Duplex) => new Duplex({
    read() {},
    write(chunk, _encoding, done) {
      other().push(chunk);
      done();
    },
    final(done) {
      other().push(null);
      done();
    },
  });
  pair.push(side(() => pair[1] as Duplex), side(() => pair[0] as Duplex));
  return [pair[0] as Duplex, pair[1] as Duplex];
}
