import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { openStore, type LmdbStore } from '../store/lmdb-store';
import { startMetricsServer, type MetricsServer } from './metrics-server';

let tmp: string;
let store: LmdbStore;
let server: MetricsServer | undefined;
beforeEach(async () => {
  tmp = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'getlist-msrv-')));
  store = await openStore({ dir: path.join(tmp, 'handshakes') });
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await store.close();
  rmSync(tmp, { recursive: true, force: true });
});

function status(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http.get(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    }).on('error', reject);
  });
}

async function until(ok: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await ok())) await new Promise((r) => setImmediate(r));
}

test('a client that leaves while queued gives its turn back', async () => {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  // The first refresh waits until the test lets it go, holding the only turn.
  const slow = { snapshot: async () => (await opened, store.snapshot()) };
  server = await startMetricsServer({ store: slow, host: '127.0.0.1', port: 0, maxAgeMs: 0, gate: { maxActive: 1, maxWaitMs: 2000 } });
  const s = server;
  const first = status(`${s.url}/metrics`);
  await until(() => s.gate.serving === 1);
  const leaving = http.get(`${s.url}/metrics`, { agent: false });
  leaving.on('error', () => undefined);
  await until(() => s.gate.queued === 1);
  leaving.destroy();
  await until(async () => (await new Promise<number>((r) => s.server.getConnections((_e, n) => r(n)))) === 1);
  open();
  expect(await first).toBe(200);
  await until(() => s.gate.serving === 0 && s.gate.queued === 0);
  expect(await status(`${s.url}/metrics`)).toBe(200);
  expect(s.gate.serving).toBe(0);
});

test('a full queue answers 503 with Retry-After, and no data', async () => {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  const slow = { snapshot: async () => (await opened, store.snapshot()) };
  server = await startMetricsServer({ store: slow, host: '127.0.0.1', port: 0, gate: { maxActive: 1, maxQueued: 1 } });
  const s = server;
  const first = status(`${s.url}/metrics`);
  await until(() => s.gate.serving === 1);
  const second = status(`${s.url}/metrics`);
  await until(() => s.gate.queued === 1);
  const third = await new Promise<{ status: number; retry: string | undefined; body: string }>((resolve, reject) => {
    http.get(`${s.url}/metrics`, { agent: false }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retry: res.headers['retry-after'], body }));
    }).on('error', reject);
  });
  expect(third).toEqual({ status: 503, retry: '1', body: expect.not.stringContaining('getlist_') });
  open();
  expect([await first, await second]).toEqual([200, 200]);
});
