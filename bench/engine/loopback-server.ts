/**
 * The origin for the loopback throughput benchmark: a plain `node:http` server with keep-alive,
 * answering `GET /b/<size>/<n>` with `<size>` bytes and an exact `Content-Length`.
 *
 * It runs in a worker thread so its CPU time is not charged to the event loop of the client
 * being measured: both contenders face the same server, and the ratio reflects client-side cost.
 * The worker counts accepted connections and requests so the benchmark can verify that both
 * contenders really used the same number of connections.
 */
import { Worker } from 'node:worker_threads';

export interface LoopbackServer {
  /** e.g. `http://127.0.0.1:40123` */
  readonly origin: string;
  /** Connections accepted and requests answered since the last call; resets the counters. */
  takeCounts(): Promise<{ connections: number; requests: number }>;
  close(): Promise<void>;
}

/** Plain CommonJS run by the worker (`eval: true`), so the bundle needs no second entry point. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const bodies = new Map(workerData.sizes.map((s) => [s, Buffer.alloc(s, 120)]));
let connections = 0;
let requests = 0;
const server = http.createServer({ keepAlive: true, noDelay: true }, (req, res) => {
  requests += 1;
  const m = /^\\/b\\/(\\d+)\\//.exec(req.url || '');
  const body = m ? bodies.get(Number(m[1])) : undefined;
  if (!body) {
    res.writeHead(404, { 'content-length': '0' });
    res.end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(body.length) });
  res.end(body);
});
server.keepAliveTimeout = 60000;
server.headersTimeout = 65000;
server.on('connection', () => { connections += 1; });
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ type: 'listening', port: server.address().port }));
parentPort.on('message', (m) => {
  if (m === 'counts') {
    parentPort.postMessage({ type: 'counts', connections, requests });
    connections = 0;
    requests = 0;
  }
});
`;

interface WorkerMessage {
  type: 'listening' | 'counts';
  port?: number;
  connections?: number;
  requests?: number;
}

/** Starts the server worker; `sizes` are the body sizes it can serve. */
export function startLoopbackServer(sizes: readonly number[]): Promise<LoopbackServer> {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { sizes: [...sizes] } });
  const next = (type: WorkerMessage['type']) =>
    new Promise<WorkerMessage>((resolve, reject) => {
      const onMessage = (m: WorkerMessage) => {
        if (m.type !== type) return;
        worker.off('message', onMessage);
        worker.off('error', reject);
        resolve(m);
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
    });
  return next('listening').then((m) => ({
    origin: `http://127.0.0.1:${m.port as number}`,
    async takeCounts() {
      const answer = next('counts');
      worker.postMessage('counts');
      const c = await answer;
      return { connections: c.connections ?? 0, requests: c.requests ?? 0 };
    },
    async close() {
      await worker.terminate();
    },
  }));
}
