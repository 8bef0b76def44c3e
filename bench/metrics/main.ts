/**
 * `node dist/bench/metrics-scrape.js [--sizes 10k,100k,1m] [--scrapes N] [--concurrent N] [--origins N] [--out FILE]`
 * — what a scrape of `getlist metrics` costs as the store grows. For each size: fills a fresh store
 * through its own write API (batched), starts the built CLI's exporter on it (`--refresh 0`: every
 * scrape reads what was added since the last), and measures
 * - cold: the first scrape, which builds the snapshot from the whole store;
 * - warm: N scrapes one after another on a keep-alive connection, as Prometheus scrapes, while a
 *   writer process adds 10 records every 100 ms (p50, p99, max), then N more asking for
 *   gzip as Prometheus does;
 * - burst: `--concurrent` scrapes at once with gzip, each on its own connection (all must be 200);
 * - beside them, one full recomputation from `store.handshakes()` (what each scrape used to cost).
 * Goal: warm p99 ≤ 50 ms at 1M records. Writes results/metrics-scrape-latest.json (or --out).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { storeDirIn } from '../../native-host/store/data-dir';
import { openStore } from '../../native-host/store/lmdb-store';
import type { StoredHandshake } from '../../native-host/store/store-types';
import { aggregateHandshakes } from '../../src/stats/handshake-stats';
import { mulberry32 } from '../../src/core/prng';
import { intValue, listValue, type CommandSpec } from '../cli/command-line';
import { benchCommandLine, benchUsage } from '../cli/bench-command-line';
import { BenchRunError } from '../cli/bench-run-error';
import { nearestRank, round as roundTo } from '../engine/stats';
import { runMain } from '../cli/run-main';

const GOAL_P99_MS = 50;
const GOAL_RECORDS = 1_000_000;
const DAY = 86_400_000;

const COMMAND: CommandSpec = {
  usage: 'node dist/bench/metrics-scrape.js [--sizes 10k,100k,1m] [--scrapes N] [--concurrent N] [--origins N] [--out FILE]',
  notes: ['Scrape latency of `getlist metrics` (cold build, warm p50/p99, a burst of concurrent scrapes) per store size.'],
  options: {
    sizes: { type: 'string', value: 'a,b', help: 'store sizes in handshake records (k and m suffixes)', default: '10k,100k,1m' },
    scrapes: { type: 'string', value: 'N', help: 'warm scrapes, one after another', default: '200' },
    concurrent: { type: 'string', value: 'N', help: 'scrapes sent at once', default: '2000' },
    origins: { type: 'string', value: 'N', help: 'distinct origins in the store (the exposition grows with them)', default: '100' },
    out: { type: 'string', value: 'FILE', help: 'results file', default: 'bench/results/metrics-scrape-latest.json' },
    writer: { type: 'string', value: 'DIR', help: 'internal: add 10 records to the store in DIR every 100 ms until killed', hidden: true },
  },
};

function parseSize(s: string): number {
  const m = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(s.trim());
  if (!m) throw benchUsage(`--sizes: expected counts like 10k,100k,1m, got ${JSON.stringify(s)}`);
  return Math.round(Number(m[1]) * (m[2]?.toLowerCase() === 'm' ? 1e6 : m[2]?.toLowerCase() === 'k' ? 1e3 : 1));
}

const round = (x: number) => roundTo(x, 1);

/**
 * Record `n` of `records`, spread in time order over the last 80 days (a store grows in time
 * order), `origins` origins, each with its protocol; a third of TLS handshakes resumed.
 */
function recordMaker(origins: number, records: number, seed: number): (n: number, startedAt?: number) => StoredHandshake {
  const rand = mulberry32(seed);
  const now = Date.now();
  const step = (80 * DAY) / records;
  return (n, startedAt) => {
    const o = Math.floor(rand() * origins);
    const https = o % 10 !== 0;
    const tcpMs = 2 + rand() * 150;
    const tlsMs = https ? 5 + rand() * 200 : 0;
    return {
      connectionId: n, origin: https ? `https://o${o}.example` : `http://o${o}.example`, startedAt: startedAt ?? now - 80 * DAY + (n + rand()) * step,
      dnsMs: rand() * 20, tcpMs, tlsMs, totalMs: tcpMs + tlsMs + 1, remoteAddress: '192.0.2.1', remotePort: 443, localPort: 40000,
      protocol: o % 3 === 0 ? 'http/1.1' : 'h2', tlsVersion: https ? 'TLSv1.3' : undefined, resumed: https && rand() < 0.33, source: 'measure',
    };
  };
}

async function fill(dir: string, records: number, make: (n: number) => StoredHandshake): Promise<number> {
  const t0 = performance.now();
  const store = await openStore({ dir, maxPendingRecords: 100_000 });
  for (let i = 0; i < records; ) {
    const batch: StoredHandshake[] = [];
    for (const end = Math.min(records, i + 8192); i < end; i++) batch.push(make(i));
    await store.addHandshakes(batch);
    await store.flush();
  }
  await store.close();
  return performance.now() - t0;
}

interface Scrape {
  status: number;
  bytes: number;
  ms: number;
}

function scrape(url: string, agent: http.Agent, gzip = false): Promise<Scrape> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    http.get(url, { agent, headers: gzip ? { 'accept-encoding': 'gzip' } : {} }, (res) => {
      let bytes = 0;
      res.on('data', (d: Buffer) => (bytes += d.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, ms: performance.now() - t0 }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

function startExporter(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const bin = path.resolve(__dirname, '..', '..', 'bin', 'getlist.js');
  const child = spawn(process.execPath, [bin, 'metrics', '--listen', '127.0.0.1:0', '--refresh', '0', '--data-dir', dataDir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /serving (http:\/\/[^/\s]+)\/metrics/.exec(err);
      if (m) resolve({ child, url: m[1] as string });
    });
    child.once('exit', (code) => reject(new BenchRunError('E_RUN_FAILED', `getlist metrics exited (${code}):\n${err}`)));
  });
}

async function fullRecompute(dir: string): Promise<number> {
  const store = await openStore({ dir, readOnly: true });
  const t0 = performance.now();
  const all: StoredHandshake[] = [];
  for await (const r of store.handshakes()) all.push(r);
  aggregateHandshakes(all);
  const ms = performance.now() - t0;
  await store.close();
  return ms;
}

async function runSize(records: number, o: { scrapes: number; concurrent: number; origins: number }, log: (s: string) => void) {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'getlist-metrics-bench-'));
  const dataDir = path.join(tmp, 'data');
  const dir = storeDirIn(dataDir);
  const make = recordMaker(o.origins, records, records);
  try {
    const fillMs = await fill(dir, records, make);
    log(`${records} records written in ${Math.round(fillMs)} ms (${Math.round(records / (fillMs / 1000))}/s)`);
    const fullRecomputeMs = await fullRecompute(dir);
    const { child, url } = await startExporter(dataDir);
    const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const fresh = new http.Agent({ keepAlive: false, maxSockets: Infinity });
    // A host writing meanwhile, in its own process (its commits fsync on its own event loop, as a host's do).
    const writer = spawn(process.execPath, [__filename, '--writer', dir, '--origins', String(o.origins)], { stdio: ['ignore', 'ignore', 'inherit'] });
    try {
      const cold = await scrape(`${url}/metrics`, keepAlive);
      const coldRefreshMs = ((await (await fetch(`${url}/health`)).json()) as { refreshMs: number }).refreshMs;
      for (let i = 0; i < 20; i++) await scrape(`${url}/metrics`, keepAlive); // JIT warm-up
      const warm: number[] = [];
      for (let i = 0; i < o.scrapes; i++) warm.push((await scrape(`${url}/metrics`, keepAlive)).ms);
      const warmGzip: Scrape[] = [];
      for (let i = 0; i < o.scrapes; i++) warmGzip.push(await scrape(`${url}/metrics`, keepAlive, true));
      const t0 = performance.now();
      const burst = await Promise.all(Array.from({ length: o.concurrent }, () => scrape(`${url}/metrics`, fresh, true).catch(() => ({ status: 0, bytes: 0, ms: NaN }))));
      const burstMs = performance.now() - t0;
      const ok = burst.filter((s) => s.status === 200).length;
      const row = {
        records, origins: o.origins, fillMs: Math.round(fillMs), fullRecomputeMs: round(fullRecomputeMs), bodyBytes: cold.bytes,
        cold: { firstScrapeMs: round(cold.ms), refreshMs: coldRefreshMs },
        warm: { scrapes: warm.length, p50Ms: round(nearestRank(warm, 0.5)), p99Ms: round(nearestRank(warm, 0.99)), maxMs: round(Math.max(...warm)) },
        warmGzip: { scrapes: warmGzip.length, bytes: warmGzip[0]?.bytes ?? 0, p50Ms: round(nearestRank(warmGzip.map((x) => x.ms), 0.5)), p99Ms: round(nearestRank(warmGzip.map((x) => x.ms), 0.99)) },
        burst: { concurrent: o.concurrent, ok, wallMs: Math.round(burstMs), p50Ms: round(nearestRank(burst.map((s) => s.ms), 0.5)), p99Ms: round(nearestRank(burst.map((s) => s.ms), 0.99)) },
      };
      log(`${records}: cold ${row.cold.firstScrapeMs} ms, warm p50 ${row.warm.p50Ms} / p99 ${row.warm.p99Ms} ms (gzip ${row.warmGzip.p50Ms} / ${row.warmGzip.p99Ms} ms, ${row.warmGzip.bytes} B), ${ok}/${o.concurrent} concurrent answered in ${row.burst.wallMs} ms, full recomputation ${row.fullRecomputeMs} ms, body ${cold.bytes} B`);
      return row;
    } finally {
      writer.kill('SIGKILL');
      keepAlive.destroy();
      fresh.destroy();
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function keepWriting(dir: string, origins: number): Promise<number> {
  const store = await openStore({ dir });
  const make = recordMaker(origins, 1, 7);
  let n = 0;
  setInterval(() => void store.addHandshakes(Array.from({ length: 10 }, () => make(n++, Date.now()))), 100);
  return new Promise<number>(() => undefined);
}

async function main(argv: readonly string[]): Promise<number> {
  const args = benchCommandLine(argv, COMMAND);
  if (!args) return 0;
  const v = args.values;
  if (typeof v.writer === 'string') return keepWriting(v.writer, intValue(v.origins, 'origins', 100, 1, 100_000, benchUsage));
  const sizes = (listValue(v.sizes) ?? ['10k', '100k', '1m']).map(parseSize);
  const o = { scrapes: intValue(v.scrapes, 'scrapes', 200, 1, 100_000, benchUsage), concurrent: intValue(v.concurrent, 'concurrent', 2000, 1, 10_000, benchUsage), origins: intValue(v.origins, 'origins', 100, 1, 100_000, benchUsage) };
  const out = typeof v.out === 'string' ? v.out : path.join('bench', 'results', 'metrics-scrape-latest.json');
  const log = (s: string) => process.stderr.write(`[metrics-scrape] ${s}\n`);
  const rows = [];
  for (const records of sizes) rows.push(await runSize(records, o, log));
  const goalRow = rows.find((r) => r.records === GOAL_RECORDS);
  const goal = { warmP99Ms: GOAL_P99_MS, records: GOAL_RECORDS, met: goalRow ? Math.max(goalRow.warm.p99Ms, goalRow.warmGzip.p99Ms) <= GOAL_P99_MS && goalRow.burst.ok === goalRow.burst.concurrent : null };
  writeFileSync(out, `${JSON.stringify({ bench: 'metrics-scrape', at: new Date().toISOString(), node: process.version, cpus: os.cpus().length, refresh: 0, rows, goal }, null, 2)}\n`);
  process.stdout.write('records  cold first scrape  warm p50  warm p99  gzip p99  concurrent ok  full recomputation  body\n');
  for (const r of rows) {
    process.stdout.write(`${String(r.records).padStart(7)}  ${`${r.cold.firstScrapeMs} ms`.padStart(17)}  ${`${r.warm.p50Ms} ms`.padStart(8)}  ${`${r.warm.p99Ms} ms`.padStart(8)}  ${`${r.warmGzip.p99Ms} ms`.padStart(8)}  ${`${r.burst.ok}/${r.burst.concurrent}`.padStart(13)}  ${`${r.fullRecomputeMs} ms`.padStart(18)}  ${r.bodyBytes} B\n`);
  }
  process.stdout.write(goal.met === null ? `goal (p99 ≤ ${GOAL_P99_MS} ms at 1M records): not run\n` : `${goal.met ? 'PASS' : 'MISS'} warm p99 ≤ ${GOAL_P99_MS} ms at 1M records, every concurrent scrape answered\n`);
  process.stdout.write(`results: ${out}\n`);
  return 0;
}

runMain('metrics-scrape', () => main(process.argv.slice(2)));
