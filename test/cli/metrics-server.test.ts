import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { storeDirIn } from '../../native-host/store/data-dir';
import { openStore, type LmdbStore } from '../../native-host/store/lmdb-store';
import type { StoredHandshake } from '../../native-host/store/store-types';
import { exportPrometheus } from '../../src/stats/export-formats';
import { aggregateHandshakes } from '../../src/stats/handshake-stats';
import { buildStoreChild, storeChildEnv } from '../support/store-child-build';

/*
 * `getlist metrics` as a user runs it (the built CLI), on real sockets: who it answers (Host, the
 * listening address), what /health shows, that its numbers are the store's (an independent
 * recomputation from store.handshakes()) while another process writes and after a forget, a burst
 * of 2,000 scrapes, and SIGTERM under load.
 */

const BIN = path.join(__dirname, '..', '..', 'bin', 'getlist.js');
jest.setTimeout(60_000);

let tmp: string;
let dataDir: string;
const children: ChildProcess[] = [];
const stores: LmdbStore[] = [];
beforeEach(() => {
  tmp = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'getlist-metrics-')));
  dataDir = path.join(tmp, 'data');
});
afterEach(async () => {
  for (const c of children.splice(0)) {
    if (c.exitCode === null && c.signalCode === null) {
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGKILL');
      await exited;
    }
  }
  for (const s of stores.splice(0)) await s.close().catch(() => undefined);
  rmSync(tmp, { recursive: true, force: true });
});

function hs(n: number, origin: string, totalMs: number, startedAt = Date.now() - 60_000 + n): StoredHandshake {
  return {
    connectionId: n, origin, startedAt, dnsMs: 1, tcpMs: totalMs / 2, tlsMs: origin.startsWith('https:') ? totalMs / 2 - 1 : 0, totalMs,
    remoteAddress: '127.0.0.1', remotePort: 443, localPort: 40000, protocol: n % 2 ? 'h2' : 'http/1.1', tlsVersion: 'TLSv1.3', resumed: n % 3 === 0, source: 'cli',
  };
}

async function fill(records: StoredHandshake[]): Promise<void> {
  const w = await openStore({ dir: storeDirIn(dataDir) });
  for (let i = 0; i < records.length; i += 8192) {
    await w.addHandshakes(records.slice(i, i + 8192));
    await w.flush();
  }
  await w.close();
}

interface Exporter {
  child: ChildProcess;
  url: string;
  port: number;
  stderr: () => string;
}

function startExporter(args: string[] = []): Promise<Exporter> {
  const child = spawn(process.execPath, [BIN, 'metrics', '--listen', '127.0.0.1:0', '--data-dir', dataDir, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /serving (http:\/\/[^/\s]+)\/metrics/.exec(err);
      if (m) resolve({ child, url: m[1] as string, port: Number(new URL(m[1] as string).port), stderr: () => err });
    });
    child.once('exit', (code) => reject(new Error(`metrics exited (${code}) before serving:\n${err}`)));
  });
}

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function get(url: string, pathname: string, options: { host?: string; agent?: http.Agent } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${url}${pathname}`, { headers: options.host ? { host: options.host } : {}, agent: options.agent ?? false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** The independent observer: the exposition of everything store.handshakes() returns. */
async function recomputed(): Promise<{ text: string; count: number }> {
  const store = await openStore({ dir: storeDirIn(dataDir), readOnly: true });
  try {
    const all: StoredHandshake[] = [];
    for await (const r of store.handshakes()) all.push(r);
    return { text: exportPrometheus(aggregateHandshakes(all)), count: all.length };
  } finally {
    await store.close();
  }
}

describe('who getlist metrics answers', () => {
  test('a Host that does not name it (a DNS rebinding page) gets 421 and no origins; its own names get the data', async () => {
    await fill([hs(1, 'https://secret-visit.test', 40)]);
    const ex = await startExporter();
    for (const host of [`evil.example:${ex.port}`, 'evil.example', `127.0.0.1.evil.example:${ex.port}`, `localhost:${ex.port + 1}`]) {
      for (const p of ['/metrics', '/health', '/']) {
        const r = await get(ex.url, p, { host });
        expect([host, p, r.status]).toEqual([host, p, 421]);
        expect(r.body).not.toContain('secret-visit');
        expect(r.body).not.toContain('handshake');
      }
    }
    for (const host of [`127.0.0.1:${ex.port}`, `localhost:${ex.port}`]) {
      const r = await get(ex.url, '/metrics', { host });
      expect(r.status).toBe(200);
      expect(r.body).toContain('origin="https://secret-visit.test"');
    }
  });

  test('a non-loopback --listen without --allow-remote is refused with E_METRICS_REMOTE, saying why', () => {
    for (const listen of ['0.0.0.0:0', '[::]:0', '192.0.2.1:9464']) {
      const r = spawnSync(process.execPath, [BIN, 'metrics', '--listen', listen, '--data-dir', dataDir], { encoding: 'utf8' });
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/^getlist: E_METRICS_REMOTE: --listen \S+ is not a loopback address: .*origins this browser visited.*--allow-remote/);
    }
  });

  test('--allow-remote on 0.0.0.0 warns, answers IP literals and the --host-name given, and still refuses other names', async () => {
    await fill([hs(1, 'https://a.test', 40)]);
    const child = spawn(process.execPath, [BIN, 'metrics', '--listen', '0.0.0.0:0', '--allow-remote', '--host-name', 'dev-box-1', '--data-dir', dataDir], { stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(child);
    let err = '';
    const port = await new Promise<number>((resolve) => {
      child.stderr?.on('data', (d: Buffer) => {
        err += d.toString();
        const m = /serving http:\/\/0\.0\.0\.0:(\d+)\/metrics/.exec(err);
        if (m) resolve(Number(m[1]));
      });
    });
    expect(err).toMatch(/serving to the network .*anyone who can reach it can read the origins/);
    const url = `http://127.0.0.1:${port}`;
    expect((await get(url, '/metrics', { host: `127.0.0.1:${port}` })).status).toBe(200);
    expect((await get(url, '/metrics', { host: `192.0.2.7:${port}` })).status).toBe(200);
    expect((await get(url, '/metrics', { host: `dev-box-1:${port}` })).status).toBe(200);
    expect((await get(url, '/metrics', { host: `dev-box-2:${port}` })).status).toBe(421);
  });
});

test('/health names no path: status, generation and counts only', async () => {
  await fill([hs(1, 'https://a.test', 40), hs(2, 'http://b.test', 40)]);
  const ex = await startExporter();
  const r = await get(ex.url, '/health');
  expect(r.status).toBe(200);
  const body = JSON.parse(r.body) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['generation', 'handshakes', 'refreshMs', 'snapshotAgeMs', 'status']);
  expect(body).toMatchObject({ status: 'ok', handshakes: 2, generation: expect.stringMatching(/^gen-\d{6}-[0-9a-f]{8}$/) });
  expect(r.body).not.toContain(tmp);
  expect(r.body).not.toContain('/');
  // The user's own terminal may name it.
  expect(ex.stderr()).toContain(storeDirIn(dataDir));
});

test('the metrics are the store’s, recomputed independently: while another process writes, and after a forget', async () => {
  await fill(Array.from({ length: 40 }, (_, i) => hs(i, i % 2 ? 'https://a.test' : 'http://c.test:8080', 5 + i * 7)));
  const ex = await startExporter(['--refresh', '0']);
  const first = await get(ex.url, '/metrics');
  expect(first.body).toBe((await recomputed()).text);

  // A separate writer process adds 100 records every 50 ms (origins a.test, b.test, c.test) while we scrape.
  const writer = spawn(process.execPath, [buildStoreChild(tmp), 'burst', storeDirIn(dataDir), '1000'], { env: storeChildEnv, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(writer);
  let bursts = 0;
  await new Promise<void>((resolve) => writer.stdout?.on('data', (d: Buffer) => (bursts += d.toString().split('\n').length - 1) >= 8 && resolve()));
  const during = await Promise.all(Array.from({ length: 5 }, () => get(ex.url, '/metrics')));
  expect(during.every((r) => r.status === 200)).toBe(true);
  writer.kill('SIGKILL');
  await new Promise((r) => writer.once('exit', r));

  const after = await recomputed();
  expect(after.count).toBeGreaterThan(40 + 100);
  expect((await get(ex.url, '/metrics')).body).toBe(after.text);
  const health = JSON.parse((await get(ex.url, '/health')).body) as { handshakes: number; generation: string };
  expect(health.handshakes).toBe(after.count);

  const forget = spawnSync(process.execPath, [BIN, 'forget', '--origin', 'https://a.test', '--data-dir', dataDir], { encoding: 'utf8' });
  expect(forget.status).toBe(0);
  const forgotten = await recomputed();
  expect(forgotten.count).toBeLessThan(after.count);
  const text = (await get(ex.url, '/metrics')).body;
  expect(text).toBe(forgotten.text);
  expect(text).not.toContain('origin="https://a.test"');
  const healthAfter = JSON.parse((await get(ex.url, '/health')).body) as { handshakes: number; generation: string };
  expect(healthAfter.handshakes).toBe(forgotten.count);
  expect(healthAfter.generation).not.toBe(health.generation);
});

test('a scraper that accepts gzip (Prometheus does) gets the same exposition compressed', async () => {
  await fill(Array.from({ length: 300 }, (_, i) => hs(i, `https://o${i % 30}.test`, 5 + i)));
  const ex = await startExporter();
  const plain = await get(ex.url, '/metrics');
  const zipped = await new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http.get(`${ex.url}/metrics`, { headers: { 'accept-encoding': 'deflate, gzip;q=0.8' }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
  expect(zipped.headers['content-encoding']).toBe('gzip');
  expect(zipped.body.length).toBeLessThan(Buffer.byteLength(plain.body) / 4);
  expect(gunzipSync(zipped.body).toString()).toBe(plain.body);
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect((await get(ex.url, '/metrics', { host: `127.0.0.1:${ex.port}` })).headers.vary).toBe('accept-encoding');
});

test('2,000 concurrent scrapes are all answered 200 with the same exposition', async () => {
  // Two origins: a small exposition, so that the test's own client is not what is measured.
  await fill(Array.from({ length: 2000 }, (_, i) => hs(i, `https://o${i % 2}.test`, 5 + (i % 300))));
  const ex = await startExporter();
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  try {
    const replies = await Promise.all(Array.from({ length: 2000 }, () => get(ex.url, '/metrics', { agent })));
    const statuses = new Map<number, number>();
    for (const r of replies) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    expect(Object.fromEntries(statuses)).toEqual({ 200: 2000 });
    const expected = (await recomputed()).text;
    expect(replies.every((r) => r.body === expected)).toBe(true);
  } finally {
    agent.destroy();
  }
});

describe('SIGTERM under load: the exporter exits 0 within a second', () => {
  async function exitOnSigterm(ex: Exporter): Promise<{ code: number | null; ms: number }> {
    const exited = new Promise<{ code: number | null; ms: number }>((resolve) => {
      const t0 = performance.now();
      ex.child.once('exit', (code) => resolve({ code, ms: performance.now() - t0 }));
    });
    ex.child.kill('SIGTERM');
    return exited;
  }

  test('while 200 clients scrape back to back, each scrape reading the store afresh', async () => {
    await fill(Array.from({ length: 20_000 }, (_, i) => hs(i, `https://o${i % 2}.test`, 5 + (i % 300), Date.now() - 3_600_000 + i)));
    const ex = await startExporter(['--refresh', '0']);
    const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
    let answered = 0;
    let failed = 0;
    let stop = false;
    const load = Array.from({ length: 200 }, async () => {
      while (!stop) {
        try {
          await get(ex.url, '/metrics', { agent });
          answered++;
        } catch {
          failed++;
          return; // The exporter went away.
        }
      }
    });
    while (answered < 1000) await new Promise((r) => setTimeout(r, 10));
    const exit = await exitOnSigterm(ex);
    stop = true;
    await Promise.all(load);
    agent.destroy();
    expect(exit.code).toBe(0);
    expect(exit.ms).toBeLessThan(1000);
    expect(failed).toBeGreaterThan(0); // It went while scrapes were in flight.
    expect(ex.stderr()).not.toContain('E_METRICS_SHUTDOWN');
  });

  test('in the middle of its first read of a large store, with 1,000 scrapes waiting for it', async () => {
    await fill(Array.from({ length: 60_000 }, (_, i) => hs(i, `https://o${i % 3}.test`, 5 + (i % 300), Date.now() - 3_600_000 + i)));
    const ex = await startExporter();
    const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
    const waiting = Array.from({ length: 1000 }, () => get(ex.url, '/metrics', { agent }).then((r) => r.status, () => 'reset'));
    await new Promise((r) => setTimeout(r, 100));
    const exit = await exitOnSigterm(ex);
    const outcomes = await Promise.all(waiting);
    agent.destroy();
    expect(exit.code).toBe(0);
    expect(exit.ms).toBeLessThan(1000);
    expect(outcomes.filter((o) => o !== 200).length).toBeGreaterThan(0); // the read was not finished
    expect(ex.stderr()).not.toContain('E_METRICS_SHUTDOWN');
  });
});
