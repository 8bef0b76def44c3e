/**
 * Goal 2 — loopback throughput: `getlist` must reach ≥ 90% of plain undici's requests/s at the
 * same pipelining depth, on loopback where the network costs nothing and client CPU is the limit.
 *
 * Setup per body size: one server (worker thread, see loopback-server.ts); both contenders use 6
 * connections at depth 16 (the `getlist` preset's `maxConnectionsPerOrigin` and
 * `maxPipelineDepth`). `getlist` runs with its default `probeSuccesses` (2): each origin starts at
 * depth 1, then 2, and reaches 16 after two clean pipelined responses — a few requests out of
 * thousands. Note: because the preset has `http2: true`, the scheduler opens each connection with
 * `maxOutstanding: 100` (room for h2 streams), so undici's `pipelining` is 100 on that side; the
 * scheduler itself caps HTTP/1.1 connections at 16 outstanding, so the wire depth is 16 for both.
 *
 * Each contender runs in a worker thread of its own (contender-worker.ts): its own V8 isolate, so
 * neither inherits the JIT state and heap the other's runs left in shared code (undici, Node's
 * streams). Each gets one untimed warm-up run, then they alternate (A B, B A, A B, …) so drift in
 * machine load hits both. The reported ratio is the median of the per-round ratios (each round's
 * getlist run over the undici run next to it): pairing cancels slow drift in machine load that a
 * ratio of overall medians would not. The server counts connections per run, and a run
 * that did not use exactly 6 connections or had errors is flagged in the results.
 */
import { strategy } from '../../src/scheduler';
import { startContenderWorker, type ContenderWorker, type WorkerRun } from './contender-worker';
import type { ContenderRun } from './loopback-contenders';
import { startLoopbackServer, type LoopbackServer } from './loopback-server';
import { median, progress, round } from './stats';

export interface ThroughputOptions {
  rounds?: number;
  /** Body sizes and how many requests to issue for each. */
  variants?: ReadonlyArray<{ bodyBytes: number; requests: number }>;
}

export interface ContenderSummary {
  medianRequestsPerSec: number;
  samplesRequestsPerSec: number[];
  /** Connections seen by the server, per timed run. */
  serverConnections: number[];
  /** Median CPU per request (µs) of the contender's own thread: the client's cost, the server runs in another worker. Linux only. */
  clientCpuUsPerRequest: number | undefined;
  errors: number;
}

export interface ThroughputVariant {
  bodyBytes: number;
  requests: number;
  connections: number;
  depth: number;
  undici: ContenderSummary;
  getlist: ContenderSummary;
  /** Median over rounds of (getlist req/s ÷ undici req/s in the same round). */
  ratio: number;
  /** The per-round ratios the median is taken over. */
  roundRatios: number[];
  /** Problems that make this comparison unfair (wrong connection count, errors). */
  warnings: string[];
}

export interface ThroughputReport {
  rounds: number;
  probeSuccesses: number;
  variants: ThroughputVariant[];
}

const DEFAULT_VARIANTS = [
  { bodyBytes: 1024, requests: 20_000 },
  { bodyBytes: 64 * 1024, requests: 8_000 },
];

type Contender = 'undici' | 'getlist';

/** Fastest/slowest round above this flags the variant as noisy. */
const NOISY_SPREAD = 1.3;

interface TimedRun extends ContenderRun {
  serverConnections: number;
  served: number;
  cpuMs: number | undefined;
}

async function timed(server: LoopbackServer, run: () => Promise<WorkerRun>): Promise<TimedRun> {
  await server.takeCounts();
  const r = await run();
  const c = await server.takeCounts();
  return { ...r, serverConnections: c.connections, served: c.requests };
}

async function measureVariant(server: LoopbackServer, bodyBytes: number, requests: number, rounds: number): Promise<ThroughputVariant> {
  const s = strategy('getlist');
  const connections = s.maxConnectionsPerOrigin;
  const depth = s.maxPipelineDepth;
  const paths = Array.from({ length: requests }, (_, i) => `/b/${bodyBytes}/${i}`);
  const workers: Record<Contender, ContenderWorker> = {
    undici: startContenderWorker('undici', server.origin, paths),
    getlist: startContenderWorker('getlist', server.origin, paths),
  };
  try {
    return await measureRounds(server, workers, bodyBytes, requests, rounds, connections, depth);
  } finally {
    await Promise.all([workers.undici.close(), workers.getlist.close()]);
  }
}

async function measureRounds(
  server: LoopbackServer, workers: Record<Contender, ContenderWorker>, bodyBytes: number, requests: number, rounds: number, connections: number, depth: number,
): Promise<ThroughputVariant> {
  const run: Record<Contender, () => Promise<WorkerRun>> = { undici: () => workers.undici.run(), getlist: () => workers.getlist.run() };
  // Untimed full-size warm-up of each: JIT, heap growth and the server's own warm-up.
  await run.undici();
  await run.getlist();

  const samples: Record<Contender, TimedRun[]> = { undici: [], getlist: [] };
  const warnings: string[] = [];
  for (let r = 0; r < rounds; r++) {
    const order: Contender[] = r % 2 === 0 ? ['undici', 'getlist'] : ['getlist', 'undici'];
    for (const who of order) {
      const x = await timed(server, run[who]);
      samples[who].push(x);
      progress(`loopback ${bodyBytes} B round ${r + 1}/${rounds} ${who}: ${Math.round(x.requestsPerSec)} req/s, ${x.serverConnections} conns`);
      if (x.serverConnections !== connections) warnings.push(`${who} round ${r + 1} used ${x.serverConnections} connections (expected ${connections})`);
      if (x.errors > 0 || x.served !== requests) warnings.push(`${who} round ${r + 1}: ${x.errors} errors, server answered ${x.served}/${requests}`);
      if (x.bytes !== bodyBytes * (requests - x.errors)) warnings.push(`${who} round ${r + 1}: ${x.bytes} body bytes, expected ${bodyBytes * (requests - x.errors)}`);
    }
  }
  const summary = (who: Contender): ContenderSummary => ({
    medianRequestsPerSec: round(median(samples[who].map((x) => x.requestsPerSec)), 1),
    samplesRequestsPerSec: samples[who].map((x) => round(x.requestsPerSec, 1)),
    serverConnections: samples[who].map((x) => x.serverConnections),
    errors: samples[who].reduce((a, x) => a + x.errors, 0),
    clientCpuUsPerRequest: cpuPerRequest(samples[who], requests),
  });
  const undici = summary('undici');
  const getlist = summary('getlist');
  for (const who of ['undici', 'getlist'] as const) {
    const rps = samples[who].map((x) => x.requestsPerSec);
    const spread = Math.max(...rps) / Math.min(...rps);
    if (spread > NOISY_SPREAD) warnings.push(`${who} rounds differ by ${Math.round((spread - 1) * 100)}% (machine busy? the ratio is unreliable; rerun on a quiet machine)`);
  }
  const roundRatios = samples.getlist.map((g, i) => round(g.requestsPerSec / (samples.undici[i] as TimedRun).requestsPerSec));
  return { bodyBytes, requests, connections, depth, undici, getlist, ratio: round(median(roundRatios)), roundRatios, warnings };
}

function cpuPerRequest(runs: readonly TimedRun[], requests: number): number | undefined {
  const cpu = runs.map((x) => x.cpuMs).filter((x): x is number => x !== undefined);
  return cpu.length === runs.length ? round((median(cpu) * 1000) / requests, 1) : undefined;
}

export async function runLoopbackThroughput(options: ThroughputOptions = {}): Promise<ThroughputReport> {
  // Even, so each contender runs first in exactly half the rounds (going second is slightly faster).
  const rounds = options.rounds ?? 8;
  const variants = options.variants ?? DEFAULT_VARIANTS;
  const server = await startLoopbackServer(variants.map((v) => v.bodyBytes));
  try {
    const out: ThroughputVariant[] = [];
    for (const v of variants) out.push(await measureVariant(server, v.bodyBytes, v.requests, rounds));
    return { rounds, probeSuccesses: strategy('getlist').probeSuccesses, variants: out };
  } finally {
    await server.close();
  }
}
