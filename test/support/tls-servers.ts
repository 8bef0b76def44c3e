import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { testCert } from './tls-cert';

/** One TLS connection as the server saw it. */
export interface ServerTlsConnection {
  remotePort: number | undefined;
  alpn: string | false | null;
  tlsVersion: string | null;
  /** `tlsSocket.isSessionReused()` on the server side: the client resumed a session. */
  resumed: boolean;
}

export interface TestServer<S> {
  server: S;
  port: number;
  /** The address the server listens on (what a client connecting to `host` must reach). */
  address: string;
  /** TCP connections accepted. */
  connections: () => number;
  /** TLS connections completed (https / http2 only), in accept order. */
  tls: ServerTlsConnection[];
  /**
   * Accept-side events in order: `tcp` when a TCP connection is accepted, `alpn` when the server
   * chose its protocol (https only: it answers the ClientHello next), `tls` when its handshake
   * completes (the client's Finished arrived, which a client may send with its first request).
   */
  events: ServerEvent[];
  close: () => Promise<void>;
}

type ServerEvent = 'tcp' | 'alpn' | 'tls';

type Handler = (req: http.IncomingMessage | http2.Http2ServerRequest, res: http.ServerResponse | http2.Http2ServerResponse) => void;

async function listen<S extends http.Server | https.Server | http2.Http2SecureServer>(server: S, host: string, events: ServerEvent[] = []): Promise<TestServer<S>> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const tls: ServerTlsConnection[] = [];
  server.on('connection', (s: Socket) => {
    accepted += 1;
    events.push('tcp');
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('secureConnection', (s: TLSSocket) => {
    events.push('tls');
    tls.push({ remotePort: s.remotePort, alpn: s.alpnProtocol, tlsVersion: s.getProtocol(), resumed: s.isSessionReused() });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const a = server.address() as AddressInfo;
  return {
    server,
    port: a.port,
    address: a.address,
    connections: () => accepted,
    tls,
    events,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Plain HTTP/1.1 on `host` (default `localhost`, so clients connecting to `localhost` reach it whatever it resolves to). */
export function startHttpServer(handler: Handler, host = 'localhost'): Promise<TestServer<http.Server>> {
  return listen(http.createServer(handler as http.RequestListener), host);
}

/** HTTPS (HTTP/1.1 only, ALPN `http/1.1`) with the test certificate. */
export function startHttpsServer(handler: Handler, host = 'localhost'): Promise<TestServer<https.Server>> {
  const { key, cert } = testCert();
  const events: ServerEvent[] = [];
  const ALPNCallback = ({ protocols }: { protocols: string[] }) => {
    events.push('alpn');
    return protocols.includes('http/1.1') ? 'http/1.1' : undefined;
  };
  return listen(https.createServer({ key, cert, ALPNCallback }, handler as http.RequestListener), host, events);
}

/**
 * HTTP/2 over TLS with HTTP/1.1 fallback (`allowHTTP1`), counting sessions and streams; `tls`
 * adds server options (versions, groups).
 */
export async function startHttp2Server(handler: Handler, host = 'localhost', tls: http2.SecureServerOptions = {}): Promise<TestServer<http2.Http2SecureServer> & { sessions: () => number; streams: () => number }> {
  const { key, cert } = testCert();
  const server = http2.createSecureServer({ ...tls, key, cert, allowHTTP1: true }, handler as (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void);
  let sessions = 0;
  let streams = 0;
  const live = new Set<http2.ServerHttp2Session>();
  server.on('session', (s) => {
    sessions += 1;
    live.add(s);
    s.on('close', () => live.delete(s));
  });
  server.on('stream', () => {
    streams += 1;
  });
  const t = await listen(server, host);
  return {
    ...t,
    sessions: () => sessions,
    streams: () => streams,
    close: async () => {
      for (const s of live) s.destroy();
      await t.close();
    },
  };
}
