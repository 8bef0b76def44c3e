/**
 * The origin server for `getlist demo`: serves the deterministic corpus over HTTP/1.1 with
 * persistent connections, so every load strategy (one request per connection, parallel
 * persistent connections, pipelining) can be measured against the same bytes.
 *
 * Node's http server answers pipelined requests serially and in order, which is exactly the
 * HTTP/1.1 pipelining contract. Every response carries an exact `Content-Length` (no chunked
 * framing, so a pipelining client can delimit responses cheaply), `Cache-Control: no-store`
 * (each run transfers every byte) and `Timing-Allow-Origin: *` (Resource Timing in a browser
 * may report the detailed phases).
 */
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Corpus, defaultCorpus } from './corpus';
import { listen } from './listen';

export interface DemoServerOptions {
  /** Interface to listen on. @default '127.0.0.1' */
  host?: string;
  /** Port to listen on; 0 picks a free ephemeral port. @default 0 */
  port?: number;
  /** Pages to serve. @default the process-wide corpus ({@link defaultCorpus}) */
  corpus?: Corpus;
  /** Idle time before the server closes a persistent connection, in ms. @default 30_000 */
  keepAliveTimeoutMs?: number;
  /** Clock for {@link RequestLogEntry.at}, epoch ms. @default performance.timeOrigin + performance.now() */
  now?: () => number;
}

export interface RequestLogEntry {
  readonly method: string;
  /** The request target as sent (query string included). */
  readonly path: string;
  /** The client's port: distinct values count the connections a strategy opened. */
  readonly remotePort: number;
  /** When the request's headers had been parsed, epoch ms with sub-millisecond resolution. */
  readonly at: number;
}

export interface DemoServer {
  /** e.g. `http://127.0.0.1:40123` */
  readonly origin: string;
  readonly port: number;
  /** Every request received, in arrival order. The array is live; tests may clear it. */
  readonly requestLog: RequestLogEntry[];
  /** Stops listening, destroys open connections and resolves when the server is closed. Idempotent. */
  close(): Promise<void>;
}

const COMMON_HEADERS = {
  'Cache-Control': 'no-store',
  'Timing-Allow-Origin': '*',
  // The extension fetches from its own origin; the bodies are public synthetic bytes.
  'Access-Control-Allow-Origin': '*',
} as const;

function sendText(res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}): void {
  const body = Buffer.from(text, 'utf8');
  res.writeHead(status, {
    ...COMMON_HEADERS, ...extra,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': String(body.length),
  });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

export function startDemoServer(opts: DemoServerOptions = {}): Promise<DemoServer> {
  const host = opts.host ?? '127.0.0.1';
  const corpus = opts.corpus ?? defaultCorpus();
  const now = opts.now ?? (() => performance.timeOrigin + performance.now());
  const requestLog: RequestLogEntry[] = [];
  const sockets = new Set<Socket>();

  const server = createServer({ noDelay: true, keepAlive: true }, (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? '';
    const target = req.url ?? '';
    requestLog.push({ method, path: target, remotePort: req.socket.remotePort ?? 0, at: now() });
    if (method !== 'GET' && method !== 'HEAD') {
      sendText(res, 405, 'method not allowed\n', { Allow: 'GET, HEAD' });
      return;
    }
    // Accept origin-form and absolute-form targets; the corpus ignores the query string.
    let pathname: string;
    try {
      pathname = new URL(target, 'http://demo.invalid').pathname;
    } catch {
      sendText(res, 400, 'bad request target\n');
      return;
    }
    const found = corpus.getBody(pathname);
    if (found === undefined) {
      sendText(res, 404, `not found: ${pathname}\n`);
      return;
    }
    res.writeHead(200, {
      ...COMMON_HEADERS,
      'Content-Type': found.contentType,
      'Content-Length': String(found.body.length),
    });
    res.end(method === 'HEAD' ? undefined : found.body);
  });
  server.keepAliveTimeout = opts.keepAliveTimeoutMs ?? 30_000;
  // Kept above keepAliveTimeout so an idle persistent connection is closed by the keep-alive
  // timer (cleanly, between requests), never by the headers timer.
  server.headersTimeout = Math.max(server.headersTimeout, server.keepAliveTimeout + 5_000);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  return listen(server, host, opts.port ?? 0, () => {
    for (const socket of sockets) socket.destroy();
    server.closeAllConnections();
  }).then((l) => ({ ...l, requestLog }));
}
