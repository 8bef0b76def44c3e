import type { ClientHttp2Session } from 'node:http2';
import type { Client } from 'undici';

/**
 * The HTTP/2 session undici drives for `client`; undefined before it connected, after it closed,
 * and on HTTP/1.1. undici sends PINGs only on its own interval and has no call to send one now, so
 * the transport reads the session undici keeps under a symbol described `http2Session`
 * (undici's lib/core/symbols.js); test/integration/h2-quiet-probe.test.ts fails if that moves.
 */
export function h2SessionOf(client: Client): ClientHttp2Session | undefined {
  const key = Object.getOwnPropertySymbols(client).find((s) => s.description === 'http2Session');
  const session = key === undefined ? undefined : (client as unknown as Record<symbol, unknown>)[key];
  if (typeof session !== 'object' || session === null || typeof (session as ClientHttp2Session).ping !== 'function') return undefined;
  const s = session as ClientHttp2Session;
  return s.closed || s.destroyed ? undefined : s;
}

/**
 * Sends one PING on `client`'s HTTP/2 session (RFC 9113 §6.7); false when there is no open
 * session or Node refused it (too many unacknowledged PINGs). The answer is not waited for: what
 * the PING is for shows as response bytes, and a connection that died fails its requests anyway.
 */
export function pingH2(client: Client): boolean {
  const session = h2SessionOf(client);
  if (!session) return false;
  try {
    return session.ping(() => undefined);
  } catch {
    return false;
  }
}
