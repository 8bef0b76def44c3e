/**
 * The HTTP version a connection speaks, named by its ALPN protocol id (RFC 7301 §6, the IANA
 * "TLS Application-Layer Protocol Negotiation (ALPN) Protocol IDs" registry): `http/1.1` or `h2`.
 * The same ids the timing connector reads off the TLS socket, handshake records store, exports
 * label and the browser's `nextHopProtocol` reports, so a protocol is spelled one way from the
 * socket to the popup. Not known yet (no connection has answered) is `undefined`, never a third id.
 *
 * A plain-http connection has no ALPN; it speaks `http/1.1` (getlist never tries h2c).
 */
export const HTTP_PROTOCOLS = ['http/1.1', 'h2'] as const;

export type HttpProtocol = (typeof HTTP_PROTOCOLS)[number];

export function isHttpProtocol(value: unknown): value is HttpProtocol {
  return value === 'http/1.1' || value === 'h2';
}
