import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { bodyFor } from './raw-http-server';
import { testCert } from './tls-cert';

/** What the origin does wrong, once or always (each fault names which stream it hits). */
export type H2Fault =
  /** Resets the stream of path `victim` with REFUSED_STREAM before answering it, the first time it comes. */
  | { kind: 'refuse-once'; victim: string }
  /** SETTINGS_MAX_CONCURRENT_STREAMS `max`; nghttp2 refuses the streams past it. */
  | { kind: 'max-streams'; max: number }
  /** Sends `after` bytes of `victim`'s body, then resets its stream with INTERNAL_ERROR, the first time it comes. */
  | { kind: 'reset-mid-body-once'; victim: string; after: number }
  /**
   * The first session sends every answer's head and first `after` bytes, then is destroyed (a TCP
   * close): every stream of it ends short of its `Content-Length`.
   */
  | { kind: 'close-mid-bodies-once'; after: number }
  /**
   * A per-connection request limit, as nginx's `keepalive_requests` applies to HTTP/2: the session's
   * `limit`-th stream is answered, and GOAWAY (NO_ERROR) names it the last; every stream above it is
   * refused unprocessed (RFC 9113 §6.8).
   */
  | { kind: 'goaway-after'; limit: number }
  /**
   * Writes every answer's whole body at once and ends its stream (an empty DATA frame with
   * END_STREAM) `holdMs` later, as Go's HTTP/2 server can: it sends the END_STREAM in a frame of its
   * own once the handler has returned, and that frame can come behind other streams' bodies.
   */
  | { kind: 'late-end'; holdMs: number };

export interface H2FaultOrigin {
  origin: string;
  /** Paths answered with a complete body, in order, over every session: the server's log. */
  answered: string[];
  /** When each path's END_STREAM was sent (`performance.now()`, the last time for a path answered more than once). */
  endedAt: Map<string, number>;
  /** Sessions opened. */
  sessions: () => number;
  close: () => Promise<void>;
}

/**
 * An HTTP/2 origin (TLS, the test certificate, `localhost`) answering every path with
 * `bodyFor(path, size(path))`, and misbehaving at the stream level as `fault` says: a fault injector
 * for what real servers do to streams (refuse them past their limits, reset them, go away).
 */
export async function startH2FaultOrigin(fault: H2Fault, size: (path: string) => number): Promise<H2FaultOrigin> {
  const { key, cert } = testCert();
  const settings = fault.kind === 'max-streams' ? { maxConcurrentStreams: fault.max } : {};
  const server = http2.createSecureServer({ key, cert, settings });
  const answered: string[] = [];
  const endedAt = new Map<string, number>();
  const sessions = new Set<http2.ServerHttp2Session>();
  const timers = new Set<NodeJS.Timeout>();
  let opened = 0;
  let fired = false;
  /** `f` `ms` from now (by default 20 ms: the partial answers are on the wire by then). */
  const later = (f: () => void, ms = 20) => {
    const t = setTimeout(() => {
      timers.delete(t);
      f();
    }, ms);
    timers.add(t);
  };
  server.on('session', (session) => {
    opened += 1;
    const first = opened === 1;
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
    let streams = 0;
    let lastProcessed: number | undefined;
    session.on('stream', (stream, headers) => {
      // A stream this side resets (or the client cancels) reports it as an error: expected here.
      stream.on('error', () => undefined);
      const path = String(headers[':path']);
      const id = stream.id ?? 0;
      // Past the GOAWAY's last stream: not processed, and not answered at all (the GOAWAY said so).
      if (lastProcessed !== undefined && id > lastProcessed) return;
      streams += 1;
      if (fault.kind === 'refuse-once' && path === fault.victim && !fired) {
        fired = true;
        stream.close(http2.constants.NGHTTP2_REFUSED_STREAM);
        return;
      }
      const body = bodyFor(path, size(path));
      stream.respond({ ':status': 200, 'content-type': 'application/octet-stream', 'content-length': String(body.length) });
      if (fault.kind === 'reset-mid-body-once' && path === fault.victim && !fired) {
        fired = true;
        stream.write(body.subarray(0, fault.after));
        later(() => stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR));
        return;
      }
      if (fault.kind === 'close-mid-bodies-once' && first) {
        stream.write(body.subarray(0, fault.after));
        if (!fired) later(() => session.destroy());
        fired = true;
        return;
      }
      if (fault.kind === 'late-end') {
        // Answered once the whole body is written; the client may close the session before the END_STREAM.
        stream.write(body, () => answered.push(path));
        later(() => {
          endedAt.set(path, performance.now());
          if (!stream.destroyed) stream.end();
        }, fault.holdMs);
        return;
      }
      endedAt.set(path, performance.now());
      stream.end(body, () => answered.push(path));
      if (fault.kind === 'goaway-after' && streams === fault.limit) {
        lastProcessed = id;
        session.goaway(http2.constants.NGHTTP2_NO_ERROR, id);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `https://localhost:${port}`,
    answered,
    endedAt,
    sessions: () => opened,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      for (const s of sessions) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
