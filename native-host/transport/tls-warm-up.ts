import { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';

/** The server name the warm-up's ClientHellos carry: a reserved name that never resolves (RFC 6761 §6.4). */
export const WARM_UP_SERVERNAME = 'warm-up.invalid';

/** A TLS client over `socket` for `servername`, made as the connector makes its own (timing-connector.ts). */
export type TlsClientOn = (socket: Duplex, servername: string) => TLSSocket;

/** Clients made: the first runs cold code, the second what the first left lazy. */
const CLIENTS = 2;

let warmed = false;

/**
 * Makes TLS clients over a stream that takes their ClientHellos and sends them nowhere, once per
 * process. A process's first `tls.connect` runs code nothing has run yet (Node's TLS socket set-up
 * and OpenSSL's first SSL object and key share), several times what a later one takes
 * (bench/README.md, "What a fresh process pays at a load's start"). Called in the turn after the first TLS
 * connection's SYN left (timing-connector.ts), with the trust context that connection will use,
 * that work is done while the handshake's round trip runs rather than between the connection
 * coming up and its ClientHello. Nothing leaves the process; a failure only leaves the real first
 * client to pay as before.
 */
export function warmUpTls(client: TlsClientOn): void {
  if (warmed) return;
  warmed = true;
  for (let i = 0; i < CLIENTS; i++) {
    const sink = new Duplex({
      read() {},
      write(_chunk, _encoding, done) {
        done();
      },
    });
    try {
      const c = client(sink, WARM_UP_SERVERNAME);
      c.on('error', () => undefined);
      c.destroy();
    } catch {
      return;
    } finally {
      sink.destroy();
    }
  }
}
