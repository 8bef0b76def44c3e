import net from 'node:net';
import { RequestHeads } from './request-heads';

/**
 * A fault injector: a raw TCP server on port 0 whose answer to each request is a script of
 * segments — the bytes of each, and the pause before it. Each segment is one `write` on a socket
 * with Nagle's algorithm off, so a segment boundary is a packet boundary; pauses of a few
 * milliseconds make it a read boundary on the client too. Where the bytes fall into reads, and how
 * long the client waits for them, is then the test's choice rather than the scheduler's luck.
 *
 * Answers go out in the order the requests arrived on their connection, each after the one before
 * it has been written whole (a pipelining server's order, RFC 9112 §9.3.2). A request that says
 * `Connection: close` has its connection ended after its answer. A `HEAD` gets the script's
 * segments up to the end of the first head only (RFC 9110 §9.3.2: no body).
 */
export interface ScriptedRequest {
  /** The connection, numbered from 0 in accept order. */
  connection: number;
  /** The request's place on its connection, from 0. */
  index: number;
  method: string;
  path: string;
}

export interface Segment {
  /**
   * Pause before this segment is written, ms (0: written as soon as the one before it). `Infinity`:
   * the server hangs there, and answers nothing more on the connection.
   */
  delayMs: number;
  bytes: Buffer;
}

export interface ScriptedOrigin {
  origin: string;
  /** Every request parsed, in arrival order. */
  log: ScriptedRequest[];
  close(): Promise<void>;
}

/** The bytes of one HTTP/1.1 response. */
export function responseBytes(status: number, headers: Array<[string, string]>, body: Buffer = Buffer.alloc(0), reason = 'OK'): Buffer {
  const head = `HTTP/1.1 ${status} ${reason}\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

/** The segments up to the end of the first response head (CRLF CRLF), cut there. */
function headOnly(segments: Segment[]): Segment[] {
  const all = Buffer.concat(segments.map((s) => s.bytes));
  const end = all.indexOf('\r\n\r\n');
  if (end < 0) return segments;
  const out: Segment[] = [];
  let at = 0;
  for (const s of segments) {
    if (at >= end + 4) break;
    out.push({ delayMs: s.delayMs, bytes: s.bytes.subarray(0, Math.max(0, end + 4 - at)) });
    at += s.bytes.length;
  }
  return out;
}

/** `bytes` one segment of `size` bytes at a time, each `delayMs` after the one before (a slow-loris server). */
export function drip(bytes: Buffer, delayMs: number, size = 1): Segment[] {
  const out: Segment[] = [];
  for (let at = 0; at < bytes.length; at += size) out.push({ delayMs, bytes: bytes.subarray(at, at + size) });
  return out;
}

/** Splits `bytes` into segments at `cuts` (byte offsets), each written `delayMs` after the one before. */
export function segmentsOf(bytes: Buffer, cuts: number[] = [], delayMs = 0): Segment[] {
  const at = [0, ...cuts.filter((c) => c > 0 && c < bytes.length), bytes.length];
  return at.slice(1).map((end, i) => ({ delayMs: i === 0 ? 0 : delayMs, bytes: bytes.subarray(at[i], end) }));
}

export async function startScriptedOrigin(answer: (req: ScriptedRequest) => Segment[]): Promise<ScriptedOrigin> {
  const log: ScriptedRequest[] = [];
  const sockets = new Set<net.Socket>();
  let nextConn = 0;
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    const conn = nextConn++;
    let index = 0;
    const heads = new RequestHeads();
    let chain = Promise.resolve();
    const timers = new Set<NodeJS.Timeout>();
    const pause = (ms: number) =>
      new Promise<void>((resolve) => {
        if (ms === Infinity) return;
        const t = setTimeout(() => {
          timers.delete(t);
          resolve();
        }, ms);
        timers.add(t);
      });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      sockets.delete(socket);
      for (const t of timers) clearTimeout(t);
    });
    socket.on('data', (chunk) => {
      for (const { method, path, headers } of heads.push(chunk)) {
        const req: ScriptedRequest = { connection: conn, index: index++, method, path };
        const close = /\bclose\b/i.test(headers.connection ?? '');
        log.push(req);
        const segments = method === 'HEAD' ? headOnly(answer(req)) : answer(req);
        chain = chain.then(async () => {
          for (const s of segments) {
            if (s.delayMs > 0) await pause(s.delayMs);
            if (socket.destroyed) return;
            socket.write(s.bytes);
          }
          if (close && !socket.destroyed) socket.end();
        });
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    log,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
