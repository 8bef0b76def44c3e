/**
 * `node dist/bench/start-cost.js [--runs N] [--builds name=DIR,…] [--out FILE]` — what a `getlist`
 * process costs before and around its command, as a user starts one (docs/cli.md, "What a start
 * costs"). Per build (a package root with `bin/getlist.js` and its `dist/`; default: this
 * checkout) and per code-cache mode (`GETLIST_CODE_CACHE=off`, and on with the cache written by one
 * run before), interleaved run by run:
 * - `version`: the wall time of `getlist --version` (the start alone);
 * - `load`: the wall time of `getlist load URL --strategy getlist --json` on a loopback page of a
 *   document and 10 images, beside the load's own `totalMs`;
 * - `host`: the native host started as a browser starts it, until its reply to `hello`
 *   (native-host/install/hello-probe.ts, as `getlist doctor` measures it);
 * and `node -e 0` beside them, the floor a Node start sets. Each build runs with its own HOME (its
 * caches and store) and without `NODE_EXTRA_CA_CERTS`, which makes every Node start parse a CA
 * bundle first (bench/README.md, "What a fresh process pays at a load's start").
 * Writes medians and each sample to results/start-cost-latest.json (or --out).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { probeHello } from '../../native-host/install/hello-probe';
import type { Platform } from '../../native-host/install/system';
import { listValue, intValue, type CommandSpec } from '../cli/command-line';
import { benchCommandLine, benchUsage } from '../cli/bench-command-line';
import { BenchRunError } from '../cli/bench-run-error';
import { runMain } from '../cli/run-main';
import { nearestRank, round } from '../engine/stats';

const COMMAND: CommandSpec = {
  usage: 'node dist/bench/start-cost.js [--runs N] [--builds name=DIR,…] [--out FILE]',
  notes: ['Wall time of `getlist --version`, a loopback `getlist load` and a native host\'s first reply, with the code cache off and on.'],
  options: {
    runs: { type: 'string', value: 'N', help: 'samples per build, mode and probe', default: '20' },
    builds: { type: 'string', value: 'name=DIR,…', help: 'package roots to compare side by side', default: 'this=.' },
    out: { type: 'string', value: 'FILE', help: 'results file', default: 'bench/results/start-cost-latest.json' },
  },
};

type Mode = 'off' | 'on';
const MODES: readonly Mode[] = ['off', 'on'];
type Probe = 'version' | 'load' | 'host';

interface Build {
  name: string;
  root: string;
  home: string;
}

/** A page of a document and 10 images of 2,000 bytes, on loopback. */
async function startPage(): Promise<{ url: string; close: () => Promise<void> }> {
  const images = Array.from({ length: 10 }, (_, i) => `<img src="/i${i}.png">`).join('');
  const server = http.createServer((req, res) => {
    const doc = req.url === '/';
    res.setHeader('content-type', doc ? 'text/html' : 'image/png');
    res.end(doc ? `<!doctype html><title>start</title><body>${images}</body>` : Buffer.alloc(2000, 1));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((ok) => server.close(() => ok())) };
}

function envFor(build: Build, mode: Mode): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'NODE_EXTRA_CA_CERTS' && k !== 'XDG_CACHE_HOME') env[k] = v;
  env.HOME = build.home;
  if (mode === 'off') env.GETLIST_CODE_CACHE = 'off';
  else delete env.GETLIST_CODE_CACHE;
  return env;
}

/** Wall time of one process, start to exit; its stdout. Throws E_RUN_FAILED on a non-zero exit. */
function timed(argv: readonly string[], env: Record<string, string>): Promise<{ ms: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - t0;
      if (code === 0) resolve({ ms, stdout });
      else reject(new BenchRunError('E_RUN_FAILED', `${argv.join(' ')} exited ${code}: ${stderr.slice(-400)}`));
    });
  });
}

async function probe(build: Build, mode: Mode, p: Probe, url: string): Promise<{ ms: number; loadMs?: number }> {
  const bin = path.join(build.root, 'bin', 'getlist.js');
  const env = envFor(build, mode);
  if (p === 'version') return { ms: (await timed([bin, '--version'], env)).ms };
  if (p === 'load') {
    const r = await timed([bin, 'load', url, '--strategy', 'getlist', '--json'], env);
    const run = (JSON.parse(r.stdout) as { runs: Array<{ totalMs: number; errors: number }> }).runs[0];
    if (!run || run.errors > 0) throw new BenchRunError('E_RUN_FAILED', `the loopback load failed: ${r.stdout.slice(0, 300)}`);
    return { ms: r.ms, loadMs: run.totalMs };
  }
  const hello = await probeHello({ launcher: process.execPath, args: [bin, 'host'], env, platform: process.platform as Platform });
  if (!hello.ok) throw new BenchRunError('E_RUN_FAILED', `the host did not answer hello: ${hello.code}: ${hello.reason}`);
  return { ms: hello.ms };
}

const median = (xs: readonly number[]) => round(nearestRank(xs, 0.5), 1);

async function main(argv: readonly string[]): Promise<number> {
  const args = benchCommandLine(argv, COMMAND);
  if (!args) return 0;
  const runs = intValue(args.values.runs, 'runs', 20, 1, 1000, benchUsage);
  const builds: Build[] = (listValue(args.values.builds) ?? ['this=.']).map((spec) => {
    const [name, dir] = spec.split('=');
    if (!name || !dir) throw benchUsage(`--builds: expected name=DIR, got ${JSON.stringify(spec)}`);
    return { name, root: path.resolve(dir), home: mkdtempSync(path.join(os.tmpdir(), `getlist-start-${name}-`)) };
  });
  const page = await startPage();
  const probes: readonly Probe[] = ['version', 'load', 'host'];
  const samples: Record<string, number[]> = {};
  const add = (key: string, ms: number) => (samples[key] ??= []).push(round(ms, 2));
  try {
    // The cache each command writes on its first run, before any sample is taken.
    for (const b of builds) for (const p of probes) await probe(b, 'on', p, page.url);
    for (let i = 0; i < runs; i++) {
      add('node -e 0', (await timed(['-e', '0'], envFor(builds[0] as Build, 'off'))).ms);
      // Alternate the order run by run, so neither mode always follows the other.
      const modes = i % 2 === 0 ? MODES : [...MODES].reverse();
      for (const b of builds) {
        for (const mode of modes) {
          for (const p of probes) {
            const r = await probe(b, mode, p, page.url);
            add(`${b.name} ${mode} ${p}`, r.ms);
            if (r.loadMs !== undefined) add(`${b.name} ${mode} load totalMs`, r.loadMs);
          }
        }
      }
      process.stderr.write(`run ${i + 1}/${runs}\n`);
    }
  } finally {
    await page.close();
    for (const b of builds) rmSync(b.home, { recursive: true, force: true });
  }
  const medians = Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, median(xs)]));
  for (const [k, v] of Object.entries(medians)) process.stdout.write(`${k.padEnd(32)} ${v} ms\n`);
  const out = typeof args.values.out === 'string' ? args.values.out : 'bench/results/start-cost-latest.json';
  writeFileSync(out, `${JSON.stringify({ bench: 'start-cost', at: new Date().toISOString(), node: process.version, cpus: os.cpus().length, runs, builds: builds.map((b) => ({ name: b.name, root: b.root })), medians, samples }, null, 2)}\n`);
  return 0;
}

runMain('start-cost', () => main(process.argv.slice(2)));
