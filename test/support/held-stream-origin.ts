import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { bodyFor } from './raw-http-server';
import { testCert } from './tls-cert';

/** How the origin answers one path. */
export type HeldAnswer =
  /** The whole body at once. */
  | { kind: 'whole'; size: number }
  /**
   * The first `sentFirst` bytes, then nothing until a PING arrives on the connection: a server that
   * lost track of a stream it could send on and finds it again only when the connection is read, as
   * lighttpd 1.4.69 did in the zoo (bench/README.md, "What holds an HTTP/2 stream").
   * `releaseOnPing: false` holds the rest for good.
   */
  | { kind: 'held'; size: number; sentFirst: number; releaseOnPing: boolean }
  /** `chunk` bytes every `everyMs`: slow, but making progress the whole time. */
  | { kind: 'trickle'; size: number; chunk: number; everyMs: number };

export interface HeldStreamOrigin {
  origin: string;
  /** When each PING arrived (`performance.now()`), over every session. */
  pings: number[];
  /** When each held stream stopped sending (`performance.now()`), by path. */
  heldAt: Map<string, number>;
  close: () => Promise<void>;
}

/**
 * An HTTP/2 origin (TLS, the test certificate, `localhost`) whose answers are `bodyFor(path, size)`
 * and whose held streams wait for the client to speak: a fault injector for the HTTP/2 quiet probe.
 */
export async function startHeldStreamOrigin(answers: Readonly<Record<string, HeldAnswer>>): Promise<HeldStreamOrigin> {
  const { key, cert } = testCert();
  const server = http2.createSecureServer({ key, cert });
  const pings: number[] = [];
  const heldAt = new Map<string, number>();
  const sessions = new Set<http2.ServerHttp2Session>();
  const timers = new Set<NodeJS.Timeout>();
  server.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
    session.on('ping', () => pings.push(performance.now()));
  });
  server.on('stream', (stream, headers) => {
    const path = String(headers[':path'] ?? '/');
    const answer = answers[path];
    if (!answer) {
      stream.respond({ ':status': 404 });
      stream.end();
      return;
    }
    const body = bodyFor(path, answer.size);
    stream.respond({ ':status': 200, 'content-type': 'application/octet-stream', 'content-length': String(body.length) });
    if (answer.kind === 'whole') {
      stream.end(body);
    } else if (answer.kind === 'held') {
      stream.write(body.subarray(0, answer.sentFirst));
      heldAt.set(path, performance.now());
      if (answer.releaseOnPing) stream.session?.once('ping', () => stream.end(body.subarray(answer.sentFirst)));
    } else {
      let at = 0;
      const next = (): void => {
        if (stream.destroyed) return;
        const end = Math.min(body.length, at + answer.chunk);
        const part = body.subarray(at, end);
        at = end;
        if (at >= body.length) {
          stream.end(part);
          return;
        }
        stream.write(part);
        const t = setTimeout(() => {
          timers.delete(t);
          next();
        }, answer.everyMs);
        timers.add(t);
      };
      next();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  return {
    origin: `https://localhost:${(server.address() as AddressInfo).port}`,
    pings,
    heldAt,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      for (const s of sessions) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
