import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { constants as zlibConstants, gzip } from 'node:zlib';
import { CodedError } from '../../src/core/coded-error';
import type { HandshakeSnapshot } from '../store/handshake-snapshot';
import { hostPolicy, isAllowedHost, isLoopbackAddress, type HostPolicy } from './host-policy';
import { MetricsSnapshot, type MetricsView } from './metrics-snapshot';
import { RequestGate, type Release, type RequestGateOptions } from './request-gate';

/** Content type of the Prometheus text exposition format 0.0.4. */
export const PROM_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Pending connections the kernel holds while the server is busy: a burst of scrapes is accepted, not reset. */
const LISTEN_BACKLOG = 4096;

const gzipAsync = promisify(gzip);
/**
 * Each exposition compressed once (in libuv's thread pool), for every scrape that accepts gzip, as
 * Prometheus does; a refresh that changed nothing keeps the same body, and so its compressed form.
 */
const gzipped = new WeakMap<Buffer, Promise<Buffer>>();

function gzipOf(view: MetricsView): Promise<Buffer> {
  let z = gzipped.get(view.body);
  if (!z) gzipped.set(view.body, (z = gzipAsync(view.body, { level: zlibConstants.Z_BEST_SPEED })));
  return z;
}

function acceptsGzip(req: IncomingMessage): boolean {
  return (req.headers['accept-encoding'] ?? '').split(',').some((coding) => {
    const [name, ...params] = coding.split(';');
    return name?.trim().toLowerCase() === 'gzip' && !params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(p));
  });
}

export interface MetricsServerOptions {
  /** Open (read-only is enough); hosts may write to it meanwhile. */
  store: { snapshot(): Promise<HandshakeSnapshot> };
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Epoch ms the window starts at, as a function of now (a rolling window). */
  since?: (now: number) => number | undefined;
  /** Serve on a non-loopback address. Without it such an address is refused (`E_METRICS_REMOTE`). @default false */
  allowRemote?: boolean;
  /** Names besides the listening address that `Host` may carry (host-policy.ts). @default [] */
  hostNames?: readonly string[];
  /** Longest the numbers served may lag the store (metrics-snapshot.ts). @default 1000 */
  maxAgeMs?: number;
  gate?: RequestGateOptions;
  /**
   * Ceilings on a client's request: headers within `headersTimeoutMs`, the whole request within
   * `requestTimeoutMs` (Node's slow-request defence), an idle keep-alive connection closed after
   * `keepAliveTimeoutMs`.
   * @default { headersTimeoutMs: 10000, requestTimeoutMs: 30000, keepAliveTimeoutMs: 5000 }
   */
  timeouts?: { headersTimeoutMs?: number; requestTimeoutMs?: number; keepAliveTimeoutMs?: number };
  /** A refresh that failed (the store could not be read): for the exporter's own log. */
  onError?: (err: unknown) => void;
  /** @default Date.now */
  now?: () => number;
}

export interface MetricsServer {
  /** `http://host:port` */
  readonly url: string;
  readonly address: AddressInfo;
  readonly server: Server;
  readonly snapshot: MetricsSnapshot;
  readonly gate: RequestGate;
  /** Stops listening, ends every connection (requests in flight too) and any refresh; then resolves. */
  close(): Promise<void>;
}

/**
 * Serves the store live over HTTP, for Prometheus and for people:
 * - `GET /metrics`: the handshake histograms as Prometheus text (src/stats/export-formats.ts), one
 *   series per (phase, origin, protocol, tls), from a snapshot kept up to date incrementally
 *   (metrics-snapshot.ts), so a scrape costs the size of its answer, not of the store. The counts
 *   are totals of what the store holds in the window, so they drop after a forget or a retention
 *   sweep (Prometheus' rate() treats that as a counter reset);
 * - `GET /health`: `{"status":"ok","generation":…,"handshakes":N,"snapshotAgeMs":…,"refreshMs":…}`,
 *   or 503 with `status: "error"` and the store error's code; never a path.
 * Every request must name the exporter in `Host` (host-policy.ts), else 421 with no data. At most
 * `gate.maxActive` requests are served at once; others wait their turn (request-gate.ts).
 * @throws CodedError `E_METRICS_REMOTE` when the address is not loopback and `allowRemote` is not set;
 * the listen error (`EADDRINUSE`…) when it cannot listen.
 */
export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const t = options.timeouts ?? {};
  const server = createServer({
    headersTimeout: t.headersTimeoutMs ?? 10_000,
    requestTimeout: t.requestTimeoutMs ?? 30_000,
    keepAliveTimeout: t.keepAliveTimeoutMs ?? 5_000,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: options.port, host: options.host, backlog: LISTEN_BACKLOG }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const a = server.address() as AddressInfo;
  if (!options.allowRemote && !isLoopbackAddress(a.address)) {
    await new Promise((resolve) => server.close(resolve));
    throw new CodedError('E_METRICS_REMOTE', remoteRefusal(a.address, a.port));
  }
  const snapshot = new MetricsSnapshot({
    store: options.store,
    ...(options.since ? { since: options.since } : {}),
    ...(options.maxAgeMs !== undefined ? { maxAgeMs: options.maxAgeMs } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  const gate = new RequestGate(options.gate);
  const policy = hostPolicy(a.address, a.port, options.hostNames ?? []);
  const ctx: Context = { snapshot, gate, policy, now: options.now ?? Date.now, onError: options.onError ?? (() => undefined) };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => void answer(req, res, ctx));
  const host = a.family === 'IPv6' ? `[${a.address}]` : a.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${a.port}`,
    address: a,
    server,
    snapshot,
    gate,
    close: () =>
      (closing ??= (async () => {
        gate.close();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await Promise.all([closed, snapshot.stop()]);
      })()),
  };
}

/** Why a non-loopback address needs `--allow-remote`, and what to do. */
export function remoteRefusal(address: string, port: number): string {
  const shown = address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
  return (
    `${shown} is not a loopback address: the metrics' labels are the origins this browser visited, and anyone who can ` +
    'reach the port could read them. Listen on 127.0.0.1, or add --allow-remote to serve them to the network ' +
    '(and --host-name NAME for each name scrapers use)'
  );
}

interface Context {
  snapshot: MetricsSnapshot;
  gate: RequestGate;
  policy: HostPolicy;
  now: () => number;
  onError: (err: unknown) => void;
}

async function answer(req: IncomingMessage, res: ServerResponse, ctx: Context): Promise<void> {
  if (!isAllowedHost(req.headers.host, ctx.policy)) {
    return send(res, 421, 'text/plain; charset=utf-8', 'Host does not name this exporter (a DNS rebinding page?); scrape it by its address, or start it with --host-name NAME\n');
  }
  const path = (req.url ?? '/').split('?')[0];
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain; charset=utf-8', 'only GET\n', { allow: 'GET, HEAD' });
  if (path !== '/metrics' && path !== '/health') return send(res, 404, 'text/plain; charset=utf-8', 'try /metrics or /health\n');
  // Listening before the wait: a client that leaves while queued must not keep its turn for ever.
  const held: { release?: Release; gone?: boolean } = {};
  res.once('close', () => {
    held.gone = true;
    held.release?.();
  });
  const turn = await ctx.gate.enter();
  if (turn === 'busy') return send(res, 503, 'text/plain; charset=utf-8', 'busy: too many requests at once; retry\n', { 'retry-after': '1' });
  if (held.gone || req.socket.destroyed) return turn(); // Left while waiting: nothing to answer.
  held.release = turn;
  let view: MetricsView;
  try {
    view = await ctx.snapshot.current();
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'E_METRICS_STOPPED') ctx.onError(err);
    const code = (err as { code?: unknown }).code;
    const body = { status: 'error', code: typeof code === 'string' ? code : 'E_INTERNAL', message: 'the store could not be read; the exporter logged why' };
    return send(res, 503, 'application/json', `${JSON.stringify(body)}\n`, { 'retry-after': '1' });
  }
  if (path === '/metrics') {
    if (!acceptsGzip(req)) return send(res, 200, PROM_CONTENT_TYPE, view.body, { vary: 'accept-encoding' });
    return send(res, 200, PROM_CONTENT_TYPE, await gzipOf(view), { vary: 'accept-encoding', 'content-encoding': 'gzip' });
  }
  const body = { status: 'ok', generation: view.generation, handshakes: view.handshakes, snapshotAgeMs: Math.max(0, ctx.now() - view.takenAt), refreshMs: Math.round(view.refreshMs * 10) / 10 };
  send(res, 200, 'application/json', `${JSON.stringify(body)}\n`);
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store', ...extra });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}
