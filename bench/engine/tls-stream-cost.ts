/**
 * `node dist/bench/tls-stream-cost.js [--runs N] [--mib N] [--out FILE]` — what running TLS over
 * the Finished-holding stream (native-host/transport/finished-hold.ts) costs a bulk transfer: one
 * body of N MiB over loopback from a TLS server in a process of its own, over HTTP/1.1 and over
 * h2, with the stream and without it (the connector's `finishedHold`), alternated run by run, read
 * through undici as the transport reads it. Prints the median MB/s of each and the ratio; writes
 * every sample to results/tls-stream-cost-latest.json (or --out).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { TimingConnector } from '../../native-host/transport/timing-connector';
import { handedClient } from '../../native-host/transport/undici-transport';
import { intValue, type CommandSpec } from '../cli/command-line';
import { benchCommandLine, benchUsage } from '../cli/bench-command-line';
import { BenchRunError } from '../cli/bench-run-error';
import { runMain } from '../cli/run-main';
import { makeTlsMaterial } from '../origins/tls-material';
import { nearestRank, round } from './stats';

const COMMAND: CommandSpec = {
  usage: 'node dist/bench/tls-stream-cost.js [--runs N] [--mib N] [--out FILE]',
  notes: ['Loopback TLS bulk throughput with and without the stream that holds the Finished.'],
  options: {
    runs: { type: 'string', value: 'N', help: 'samples per protocol and mode', default: '9' },
    mib: { type: 'string', value: 'N', help: 'body size in MiB', default: '64' },
    out: { type: 'string', value: 'FILE', help: 'results file', default: 'bench/results/tls-stream-cost-latest.json' },
  },
};

/** An HTTPS (HTTP/1.1) and an h2 server in one child process, each answering any path with the body. */
const SERVERS = String.raw`
const fs = require('node:fs');
const https = require('node:https');
const http2 = require('node:http2');
const [key, cert, bytes] = process.argv.slice(1);
const opts = { key: fs.readFileSync(key), cert: fs.readFileSync(cert) };
const body = Buffer.alloc(Number(bytes), 7);
const h1 = https.createServer(opts, (_q, r) => r.end(body));
const h2 = http2.createSecureServer(opts, (_q, r) => r.end(body));
h1.listen(0, '127.0.0.1', () => h2.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ h1: h1.address().port, h2: h2.address().port }) + '\n')));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
`;

type Protocol = 'h1' | 'h2';
type Mode = 'stream' | 'direct';

function startServers(keyPath: string, certPath: string, bytes: number): Promise<{ child: ChildProcess; ports: Record<Protocol, number> }> {
  const child = spawn(process.execPath, ['-e', SERVERS, keyPath, certPath, String(bytes)], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new BenchRunError('E_RUN_FAILED', `the TLS servers exited (${code}) before they listened`)));
    child.stdout?.once('data', (b: Buffer) => resolve({ child, ports: JSON.parse(b.toString()) as Record<Protocol, number> }));
  });
}

/** One body over a fresh connection; MB/s from the request to the body's last byte. */
async function once(ca: string, port: number, protocol: Protocol, mode: Mode, bytes: number): Promise<number> {
  const origin = `https://localhost:${port}`;
  const connector = new TimingConnector({ connectIn: 'loop', ca, allowH2: protocol === 'h2', finishedHold: mode === 'stream' });
  const { socket } = await connector.open(origin, 1);
  const client = handedClient(origin, socket, () => false, origin, { allowH2: protocol === 'h2' });
  try {
    const t0 = performance.now();
    const { body } = await request(`${origin}/`, { dispatcher: client });
    let n = 0;
    for await (const chunk of body) n += (chunk as Buffer).length;
    const ms = performance.now() - t0;
    if (n !== bytes) throw new BenchRunError('E_RUN_FAILED', `read ${n} of ${bytes} bytes`);
    return bytes / ms / 1000;
  } finally {
    await client.close();
  }
}

async function main(argv: readonly string[]): Promise<number> {
  const args = benchCommandLine(argv, COMMAND);
  if (!args) return 0;
  const runs = intValue(args.values.runs, 'runs', 9, 1, 1000, benchUsage);
  const bytes = intValue(args.values.mib, 'mib', 64, 1, 1024, benchUsage) * 1024 * 1024;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'getlist-tls-stream-'));
  const tls = makeTlsMaterial(dir, ['localhost', '127.0.0.1']);
  const { child, ports } = await startServers(tls.keyPath, tls.certPath, bytes);
  const ca = readFileSync(tls.caPath, 'utf8');
  const samples: Record<string, number[]> = {};
  try {
    for (let i = 0; i < runs; i++) {
      // Alternate which mode goes first, so neither always follows the other.
      const modes: Mode[] = i % 2 === 0 ? ['stream', 'direct'] : ['direct', 'stream'];
      for (const protocol of ['h1', 'h2'] as const) {
        for (const mode of modes) (samples[`${protocol} ${mode}`] ??= []).push(round(await once(ca, ports[protocol], protocol, mode, bytes), 1));
      }
      process.stderr.write(`run ${i + 1}/${runs}\n`);
    }
  } finally {
    child.stdin?.end();
    rmSync(dir, { recursive: true, force: true });
  }
  const medians = Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, round(nearestRank(xs, 0.5), 1)]));
  const ratios = Object.fromEntries((['h1', 'h2'] as const).map((p) => [p, round((medians[`${p} stream`] ?? 0) / (medians[`${p} direct`] ?? 1), 3)]));
  for (const [k, v] of Object.entries(medians)) process.stdout.write(`${k.padEnd(10)} ${v} MB/s\n`);
  for (const [p, r] of Object.entries(ratios)) process.stdout.write(`${p} stream ÷ direct ${r}\n`);
  const out = typeof args.values.out === 'string' ? args.values.out : 'bench/results/tls-stream-cost-latest.json';
  writeFileSync(out, `${JSON.stringify({ bench: 'tls-stream-cost', at: new Date().toISOString(), node: process.version, cpus: os.cpus().length, runs, bytes, medians, ratios, samples }, null, 2)}\n`);
  return 0;
}

runMain('tls-stream-cost', () => main(process.argv.slice(2)));
