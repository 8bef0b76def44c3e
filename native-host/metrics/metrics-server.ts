import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportPrometheus } from '../../src/stats/export-formats';
import { HandshakeStats } from '../../src/stats/handshake-stats';
import type { LmdbStore } from '../store/lmdb-store';

/** Content type of the Prometheus text exposition format 0.0.4. */
export const PROM_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export interface MetricsServerOptions {
  /** Open (read-only is enough); read afresh on every scrape, while hosts write. */
  store: LmdbStore;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Only handshakes from this epoch ms on, or a function of now (a rolling window). */
  since?: () => number | undefined;
}

export interface MetricsServer {
  /** `http://host:port` */
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

/**
 * Serves the store live over HTTP, for Prometheus and for people:
 * - `GET /metrics`: the handshake histograms as Prometheus text (src/stats/export-formats.ts), one
 *   series per (phase, origin, protocol, tls), aggregated from the store at each scrape. The
 *   counts are totals of what the store holds, so they drop after a forget or a retention sweep
 *   (Prometheus' rate() treats that as a counter reset);
 * - `GET /health`: `{"status":"ok","store":…,"generation":…,"handshakes":N,"scrapeMs":…}`, or 503
 *   with `status: "error"` and the store error's code when the store cannot be read.
 */
export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const server = createServer((req, res) => void answer(req, res, options));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const a = server.address() as AddressInfo;
  const host = a.family === 'IPv6' ? `[${a.address}]` : a.address;
  return {
    url: `http://${host}:${a.port}`,
    server,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

async function answer(req: IncomingMessage, res: ServerResponse, o: MetricsServerOptions): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain; charset=utf-8', 'only GET\n');
  if (path !== '/metrics' && path !== '/health') return send(res, 404, 'text/plain; charset=utf-8', 'try /metrics or /health\n');
  const started = performance.now();
  let stats: HandshakeStats;
  try {
    stats = new HandshakeStats();
    const since = o.since?.();
    for await (const r of o.store.handshakes(since === undefined ? {} : { since })) stats.add(r);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    const body = { status: 'error', store: o.store.location, code: typeof code === 'string' ? code : 'E_INTERNAL', message: err instanceof Error ? err.message : String(err) };
    return send(res, 503, 'application/json', `${JSON.stringify(body)}\n`);
  }
  if (path === '/metrics') return send(res, 200, PROM_CONTENT_TYPE, exportPrometheus(stats));
  const body = { status: 'ok', store: o.store.location, generation: o.store.stats().generation, handshakes: stats.count, scrapeMs: Math.round((performance.now() - started) * 10) / 10 };
  send(res, 200, 'application/json', `${JSON.stringify(body)}\n`);
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}
