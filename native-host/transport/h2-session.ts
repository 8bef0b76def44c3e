import http2, { type ClientHttp2Session, type Settings as Http2Settings } from 'node:http2';
import type { Client } from 'undici';
import { narrowStreamWindow } from './h2-flow-windows';

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

/** What the transport hears of an HTTP/2 session that undici keeps to itself. */
export interface H2SessionEvents {
  /** Each SETTINGS frame the server sends, from the first one on. */
  onSettings(settings: Http2Settings): void;
  /** The server sent GOAWAY with NO_ERROR; `lastStreamId` is the last stream it will answer. */
  onGoingAway(lastStreamId: number): void;
}

/**
 * Watches `client`'s HTTP/2 session from its `connect` event on (undici creates the session as it
 * connects and reads nothing before that event; nothing on HTTP/1.1):
 *
 * - its SETTINGS, which undici reads and keeps to itself (client-h2.js `onHttp2RemoteSettings`); the
 *   first of them also narrows the streams' windows (h2-flow-windows.ts);
 * - a GOAWAY with NO_ERROR (a graceful shutdown, a server's per-connection request limit), which
 *   RFC 9113 §6.8 lets the open streams survive: those up to its last stream id finish, nghttp2
 *   refuses those above it (REFUSED_STREAM, sent again by the scheduler), and no new stream opens.
 *   Node's session does exactly that on its own (it closes rather than destroys on NO_ERROR);
 *   undici's `goaway` listener destroys the socket at once and loses every open stream, so it
 *   hears only a GOAWAY with an error code.
 */
export function watchH2Session(client: Client, events: H2SessionEvents): void {
  client.once('connect', () => {
    const session = h2SessionOf(client);
    if (!session) return;
    session.once('remoteSettings', () => narrowStreamWindow(session));
    session.on('remoteSettings', (s) => events.onSettings(s));
    const undiciListeners = session.listeners('goaway') as Array<(...args: unknown[]) => void>;
    session.removeAllListeners('goaway');
    session.on('goaway', (code: number, lastStreamId: number, data: Buffer) => {
      if (code === http2.constants.NGHTTP2_NO_ERROR) events.onGoingAway(lastStreamId);
      else for (const l of undiciListeners) l.call(session, code, lastStreamId, data);
    });
  });
}
