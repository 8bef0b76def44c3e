import net from 'node:net';
import { RequestHeads } from './request-heads';

/** One request as the server saw it on the wire. */
export interface WireRequest {
  connection: number;
  /** Index of this request on its connection (0-based). */
  index: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Responses already fully written on this connection when this request's head arrived. */
  responsesSentBefore: number;
  at: number;
  /** When its response was written (undefined: not answered). */
  answeredAt?: number;
}

export interface RawResponse {
  status?: number;
  version?: '1.0' | '1.1';
  headers?: Record<string, string>;
  body: Buffer;
  /** Wait this long before writing the response. */
  delayMs?: number;
  /** After writing this response, close the connection (FIN) — with or without `Connection: close`. */
  closeAfter?: boolean;
  /** Destroy the socket instead of answering (abrupt close with requests outstanding). */
  destroy?: boolean;
}

export type Respond = (req: WireRequest) => RawResponse;

/**
 * A minimal HTTP/1.1 server on a raw `net` socket, for tests where exact wire behaviour matters:
 * it parses pipelined requests as they arrive, answers strictly in order, and records on which
 * connection each request arrived and how many responses had been sent before it.
 */
export async function startRawServer(respond: Respond): Promise<{ origin: string; port: number; requests: WireRequest[]; connections: () => number; close: () => Promise<void> }> {
  const requests: WireRequest[] = [];
  const sockets = new Set<net.Socket>();
  let nextConn = 0;
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    const conn = nextConn++;
    const heads = new RequestHeads();
    let index = 0;
    let sent = 0;
    let chain = Promise.resolve();
    let closing = false;
    socket.on('data', (chunk) => {
      for (const { method, path, headers } of heads.push(chunk)) {
        const req: WireRequest = { connection: conn, index: index++, method, path, headers, responsesSentBefore: sent, at: performance.now() };
        requests.push(req);
        chain = chain.then(async () => {
          if (closing || socket.destroyed) return;
          const res = respond(req);
          if (res.delayMs) await new Promise((r) => setTimeout(r, res.delayMs));
          if (socket.destroyed) return;
          if (res.destroy) {
            closing = true;
            socket.destroy();
            return;
          }
          const headerLines = Object.entries({ 'content-length': String(res.body.length), ...res.headers }).map(([k, v]) => `${k}: ${v}\r\n`).join('');
          const body = method === 'HEAD' ? Buffer.alloc(0) : res.body;
          socket.write(Buffer.concat([Buffer.from(`HTTP/${res.version ?? '1.1'} ${res.status ?? 200} OK\r\n${headerLines}\r\n`, 'latin1'), body]));
          req.answeredAt = performance.now();
          sent += 1;
          if (res.closeAfter) {
            closing = true;
            socket.end();
          }
        });
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    connections: () => nextConn,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** Deterministic body bytes for a path, so a test can check it got exactly the right ones. */
export function bodyFor(path: string, size: number): Buffer {
  const b = Buffer.alloc(size);
  let x = 2166136261;
  for (const c of path) x = Math.imul(x ^ c.charCodeAt(0), 16777619) >>> 0;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    b[i] = x & 0xff;
  }
  return b;
}
