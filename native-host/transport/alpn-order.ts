import type { TLSSocket } from 'node:tls';

/**
 * The ALPN list a connection that may speak h2 offers: `h2` first, as Chromium and Firefox offer
 * it. RFC 7301 §3.2 lets the server pick by its own preference or by the client's order; servers
 * that follow the client's order (lighttpd's `mod_openssl`) answer the first protocol offered that
 * they speak, so the order decides the protocol there.
 */
export const H2_FIRST_ALPN: readonly string[] = ['h2', 'http/1.1'];

/** RFC 7301 §3.1's wire form: each protocol name prefixed with its length in one byte. */
export function alpnWireList(protocols: readonly string[]): Buffer {
  return Buffer.concat(protocols.map((p) => {
    const name = Buffer.from(p, 'latin1');
    if (name.length === 0 || name.length > 255) throw new RangeError(`an ALPN protocol name is 1 to 255 bytes, got ${JSON.stringify(p)}`);
    return Buffer.concat([Buffer.from([name.length]), name]);
  }));
}

interface AlpnHandle {
  setALPNProtocols?: (wire: Buffer) => void;
}

/**
 * Re-orders the ALPN list of a TLS socket whose handshake has not started. undici's connector
 * fixes its list to `http/1.1` before `h2` and takes no option for it; Node's `TLSSocket` sends the
 * list its TLS handle holds when the handshake starts (on the TCP `connect`), so setting it on the
 * handle before then is what the ClientHello carries. Returns false where the handle takes no list
 * (the offer then stays undici's).
 */
export function offerAlpn(socket: TLSSocket, protocols: readonly string[] = H2_FIRST_ALPN): boolean {
  const handle = (socket as unknown as { _handle?: AlpnHandle | null })._handle;
  if (typeof handle?.setALPNProtocols !== 'function') return false;
  handle.setALPNProtocols(alpnWireList(protocols));
  return true;
}
