import http from 'node:http';
import zlib from 'node:zlib';
import type { AddressInfo, Socket } from 'node:net';
import { bodyFor } from '../support/raw-http-server';

export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  /** Body bytes written (after gzip, for `gzip=1`) and before any encoding. */
  wireBytes: number;
  plainBytes: number;
}

export interface TestOrigin {
  origin: string;
  port: number;
  /** TCP connections accepted so far. */
  accepted(): number;
  /** TCP connections open now. */
  open(): number;
  requests: SeenRequest[];
  /** From now on, responses wait until `release()`. */
  hold(): void;
  release(): void;
  /** Resolves once `open()` is 0; rejects with the count after `ms`. */
  drained(ms?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A local origin on 127.0.0.1, port 0. `GET /<anything>?size=N` answers N deterministic bytes
 * (`bodyFor(path, N)`, content-length set); with `&gzip=1` they are gzip-encoded when the request
 * accepts gzip. Every request (with the body bytes written) and connection is recorded, so tests
 * observe what reached the wire.
 */
export async function startTestOrigin(): Promise<TestOrigin> {
  const sockets = new Set<Socket>();
  const requests: SeenRequest[] = [];
  let accepted = 0;
  let gate: Promise<void> | undefined;
  let openGate: (() => void) | undefined;
  const server = http.createServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://x').searchParams;
    const size = Number(query.get('size') ?? '0');
    const plain = bodyFor(req.url ?? '/', Number.isSafeInteger(size) && size >= 0 ? size : 0);
    const gzip = query.get('gzip') === '1' && String(req.headers['accept-encoding'] ?? '').includes('gzip');
    const body = gzip ? zlib.gzipSync(plain) : plain;
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, wireBytes: body.length, plainBytes: plain.length });
    const answer = () => {
      if (res.destroyed) return;
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(body.length), ...(gzip ? { 'content-encoding': 'gzip' } : {}) });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (gate) void gate.then(answer);
    else answer();
  });
  server.on('connection', (s: Socket) => {
    accepted += 1;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    accepted: () => accepted,
    open: () => sockets.size,
    requests,
    hold: () => {
      gate = new Promise((resolve) => (openGate = resolve));
    },
    release: () => {
      openGate?.();
      gate = undefined;
    },
    drained: async (ms = 2000) => {
      const deadline = Date.now() + ms;
      while (sockets.size > 0) {
        if (Date.now() > deadline) throw new Error(`${sockets.size} connection(s) to ${port} still open after ${ms} ms`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    close: async () => {
      openGate?.();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
