import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { storeDirIn } from '../../native-host/store/data-dir';
import { openStore } from '../../native-host/store/lmdb-store';
import type { StoredHandshake } from '../../native-host/store/store-types';

/*
 * `getlist metrics` scraped by a real Prometheus (Debian's `prometheus`, on loopback, in a temp
 * dir): what Prometheus' query API reports must agree with what was stored, also after more is
 * written while both run; and a team's view, a second Prometheus federating the first one's
 * getlist series. GETLIST_PROMETHEUS=0 skips it (CI installs prometheus).
 */

const BIN = path.join(__dirname, '..', '..', 'bin', 'getlist.js');
const PROMETHEUS = process.env.GETLIST_PROMETHEUS_BIN ?? '/usr/bin/prometheus';
const enabled = process.env.GETLIST_PROMETHEUS !== '0';
const maybe = enabled ? test : test.skip;
if (!enabled) test('the Prometheus scrape test is skipped: GETLIST_PROMETHEUS=0', () => expect(enabled).toBe(false));

jest.setTimeout(90_000);

let tmp: string;
const children: ChildProcess[] = [];
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'getlist-prom-'));
});
afterEach(async () => {
  for (const c of children.splice(0)) {
    if (c.exitCode === null && c.signalCode === null) {
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGTERM');
      await exited;
    }
  }
  rmSync(tmp, { recursive: true, force: true });
});

function hs(n: number, origin: string, totalMs: number): StoredHandshake {
  return {
    connectionId: n, origin, startedAt: Date.now() - 1000 + n, dnsMs: 0, tcpMs: totalMs / 2, tlsMs: totalMs / 2, totalMs, remoteAddress: '127.0.0.1',
    remotePort: 443, localPort: 40000 + n, protocol: 'h2', tlsVersion: 'TLSv1.3', resumed: false, source: 'cli',
  };
}

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** Starts a process and resolves with the first stderr match of `ready`. */
function start(cmd: string, args: string[], ready: RegExp): Promise<RegExpExecArray> {
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: '/usr/bin:/bin', HOME: tmp } });
  children.push(child);
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
      const m = ready.exec(err);
      if (m) resolve(m);
    });
    child.once('exit', (code) => reject(new Error(`${cmd} exited (${code}) before it was ready:\n${err}`)));
  });
}

interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

async function query(promUrl: string, q: string): Promise<Sample[]> {
  const res = await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent(q)}`);
  const body = (await res.json()) as { status: string; data: { result: Sample[] } };
  if (body.status !== 'success') throw new Error(JSON.stringify(body));
  return body.data.result;
}

/** Polls `q` until `ok` holds for its result (Prometheus scrapes every second). */
async function until(promUrl: string, q: string, ok: (r: Sample[]) => boolean): Promise<Sample[]> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const r = await query(promUrl, q).catch(() => [] as Sample[]);
    if (ok(r) || Date.now() > deadline) return r;
    await new Promise((res) => setTimeout(res, 250));
  }
}

const byOrigin = (r: Sample[]) => Object.fromEntries(r.map((s) => [s.metric.origin, Number(s.value[1])]));

maybe('Prometheus scrapes getlist metrics live: counts, buckets and per-origin quantiles agree with the store', async () => {
  const dataDir = path.join(tmp, 'data');
  const a = 'https://a.test';
  const b = 'http://b.test:8080';
  const writer = await openStore({ dir: storeDirIn(dataDir) });
  try {
    await writer.addHandshakes([...Array.from({ length: 5 }, (_, i) => hs(i, a, 30)), ...Array.from({ length: 3 }, (_, i) => hs(10 + i, b, 300))]);
    await writer.flush();

    const [, metricsUrl] = (await start(process.execPath, [BIN, 'metrics', '--listen', '127.0.0.1:0', '--data-dir', dataDir], /serving (http:\/\/127\.0\.0\.1:\d+)\/metrics/)) as unknown as [string, string];
    const health = (await (await fetch(`${metricsUrl}/health`)).json()) as { status: string; handshakes: number };
    expect(health).toMatchObject({ status: 'ok', handshakes: 8 });
    const exposition = await (await fetch(`${metricsUrl}/metrics`)).text();
    expect(exposition).toContain(`getlist_handshake_duration_seconds_count{phase="total",origin="${a}",protocol="h2",tls="full",source="cli"} 5\n`);

    const promUrl = await startPrometheus('prometheus', `  - job_name: getlist\n    static_configs:\n      - targets: ['${new URL(metricsUrl).host}']\n`);

    const counts = await until(promUrl, 'getlist_handshake_duration_seconds_count{phase="total"}', (r) => r.length === 2);
    expect(byOrigin(counts)).toEqual({ [a]: 5, [b]: 3 });
    // The source is a label Prometheus keeps: the CLI's records, no browser's.
    expect(byOrigin(await query(promUrl, 'getlist_handshake_duration_seconds_count{phase="total",source="cli"}'))).toEqual({ [a]: 5, [b]: 3 });
    expect(await query(promUrl, 'getlist_handshake_duration_seconds_count{source="browser"}')).toEqual([]);
    const inf = await query(promUrl, 'sum(getlist_handshake_duration_seconds_bucket{phase="total",le="+Inf"})');
    expect(Number(inf[0]?.value[1])).toBe(8);
    // 30 ms lies in the (0.025, 0.05] bucket and 300 ms in (0.25, 0.5]: PromQL's quantiles land there.
    const p50 = byOrigin(await query(promUrl, 'histogram_quantile(0.5, sum by (origin, le) (getlist_handshake_duration_seconds_bucket{phase="total"}))'));
    expect(p50[a]).toBeGreaterThan(0.025);
    expect(p50[a]).toBeLessThanOrEqual(0.05);
    expect(p50[b]).toBeGreaterThan(0.25);
    expect(p50[b]).toBeLessThanOrEqual(0.5);
    expect((await query(promUrl, 'up{job="getlist"}'))[0]?.value[1]).toBe('1');

    // Live: more records written while both run reach Prometheus on a later scrape.
    await writer.addHandshakes(Array.from({ length: 4 }, (_, i) => hs(20 + i, a, 30)));
    await writer.flush();
    const later = await until(promUrl, `getlist_handshake_duration_seconds_count{phase="total",origin="${a}"}`, (r) => Number(r[0]?.value[1]) === 9);
    expect(byOrigin(later)).toEqual({ [a]: 9 });
  } finally {
    await writer.close();
  }
});

/** Starts a Prometheus on a free loopback port with this scrape config; resolves with its URL. */
async function startPrometheus(name: string, scrapeConfigs: string): Promise<string> {
  const port = await freePort();
  const config = path.join(tmp, `${name}.yml`);
  writeFileSync(config, `global:\n  scrape_interval: 1s\n  scrape_timeout: 900ms\nscrape_configs:\n${scrapeConfigs}`);
  await start(PROMETHEUS, [`--config.file=${config}`, `--storage.tsdb.path=${path.join(tmp, `${name}-tsdb`)}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=info'], /Server is ready to receive web requests/);
  return `http://127.0.0.1:${port}`;
}

maybe('a second Prometheus federating the first (a team view) gets the getlist series, with the store’s counts', async () => {
  const dataDir = path.join(tmp, 'data');
  const a = 'https://a.test';
  const b = 'http://b.test:8080';
  const writer = await openStore({ dir: storeDirIn(dataDir) });
  try {
    await writer.addHandshakes([...Array.from({ length: 6 }, (_, i) => hs(i, a, 30)), ...Array.from({ length: 2 }, (_, i) => hs(10 + i, b, 300))]);
    await writer.flush();
    const [, metricsUrl] = (await start(process.execPath, [BIN, 'metrics', '--listen', '127.0.0.1:0', '--data-dir', dataDir], /serving (http:\/\/127\.0\.0\.1:\d+)\/metrics/)) as unknown as [string, string];
    const machine = await startPrometheus('machine', `  - job_name: getlist\n    static_configs:\n      - targets: ['${new URL(metricsUrl).host}']\n`);
    const team = await startPrometheus(
      'team',
      "  - job_name: federate\n    honor_labels: true\n    metrics_path: /federate\n    params:\n      'match[]': ['{__name__=~\"getlist_.*\"}']\n" +
        `    static_configs:\n      - targets: ['${new URL(machine).host}']\n`,
    );

    const q = 'sum by (origin) (getlist_handshake_duration_seconds_count{phase="total"})';
    const counts = await until(team, q, (r) => r.length === 2);
    expect(byOrigin(counts)).toEqual({ [a]: 6, [b]: 2 });
    // honor_labels: the series keep the machine's job, not the federating one.
    const jobs = await query(team, 'count by (job) (getlist_handshake_duration_seconds_bucket)');
    expect(jobs.map((s) => s.metric.job)).toEqual(['getlist']);
    const inf = await query(team, 'sum(getlist_handshake_duration_seconds_bucket{phase="total",le="+Inf"})');
    expect(Number(inf[0]?.value[1])).toBe(8);
    const sum = await query(team, `sum(getlist_handshake_duration_seconds_sum{phase="total",origin="${a}"})`);
    expect(Number(sum[0]?.value[1])).toBeCloseTo(6 * 0.03, 9);

    // Written later, it reaches the team view through both scrapes.
    await writer.addHandshakes(Array.from({ length: 3 }, (_, i) => hs(20 + i, b, 300)));
    await writer.flush();
    const later = await until(team, q, (r) => byOrigin(r)[b] === 5);
    expect(byOrigin(later)).toEqual({ [a]: 6, [b]: 5 });
  } finally {
    await writer.close();
  }
});
