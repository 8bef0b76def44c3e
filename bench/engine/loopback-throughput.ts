/**
 * Goal 2 — loopback throughput: `getlist` must reach ≥ 90% of plain undici's requests/s at the
 * same pipelining depth, on loopback where the network costs nothing and client CPU is the limit.
 *
 * Setup per body size: one server (worker thread, see loopback-server.ts); every contender uses 6
 * connections at depth 16 (the `getlist` preset's `connections.maxPerOrigin` and
 * `pipelining.maxDepth`). getlist's origin is remembered as pipelining-good (loopback-contenders.ts
 * says why), so it pipelines at full depth from its first request, as undici does. Note: because the preset has an `http2` policy, the scheduler opens each connection with
 * `maxOutstanding` = `http2.maxStreams` (room for h2 streams), so undici's `pipelining` is that on its side; the
 * scheduler itself caps HTTP/1.1 connections at 16 outstanding, so the wire depth is 16 for both.
 *
 * Each contender runs in a worker thread of its own (contender-worker.ts): its own V8 isolate, so
 * neither inherits the JIT state and heap the other's runs left in shared code (undici, Node's
 * streams). Plain undici runs two ways (round-robin `Client`s and its `Pool`, loopback-contenders.ts)
 * and each round compares getlist with the faster of the two. Each gets one untimed warm-up run,
 * then they take turns in rotated order so drift in machine load hits all. The reported ratio is
 * the median of the per-round ratios (each round's getlist run over the best undici run beside it): pairing cancels slow drift in machine load that a
 * ratio of overall medians would not. The server counts connections per run, and a run
 * that did not use exactly 6 connections or had errors is flagged in the results.
 */
import { pipelineDepth, strategy } from '../../src/scheduler';
import { startContenderWorker, type ContenderName, type ContenderWorker, type WorkerRun } from './contender-worker';
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
  /** Plain undici, `Client`s with the list dealt round-robin. */
  undici: ContenderSummary;
  /** Plain undici's `Pool`. */
  undiciPool: ContenderSummary;
  getlist: ContenderSummary;
  /** Median over rounds of (getlist req/s ÷ the faster plain undici's req/s in the same round). */
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

type Contender = ContenderName;
const CONTENDERS: readonly Contender[] = ['undici', 'undici-pool', 'getlist'];

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
  const connections = s.connections.maxPerOrigin;
  const depth = pipelineDepth(s);
  const paths = Array.from({ length: requests }, (_, i) => `/b/${bodyBytes}/${i}`);
  const workers = Object.fromEntries(CONTENDERS.map((who) => [who, startContenderWorker(who, server.origin, paths)])) as Record<Contender, ContenderWorker>;
  try {
    return await measureRounds(server, workers, bodyBytes, requests, rounds, connections, depth);
  } finally {
    await Promise.all(CONTENDERS.map((who) => workers[who].close()));
  }
}

async function measureRounds(
  server: LoopbackServer, workers: Record<Contender, ContenderWorker>, bodyBytes: number, requests: number, rounds: number, connections: number, depth: number,
): Promise<ThroughputVariant> {
  // Untimed full-size warm-up of each: JIT, heap growth and the server's own warm-up.
  for (const who of CONTENDERS) await workers[who].run();

  const samples: Record<Contender, TimedRun[]> = { undici: [], 'undici-pool': [], getlist: [] };
  const warnings: string[] = [];
  for (let r = 0; r < rounds; r++) {
    // Rotated, and reversed every other round: each contender takes each place equally often over 6 rounds.
    const rotated = CONTENDERS.map((_, i) => CONTENDERS[(i + Math.floor(r / 2)) % CONTENDERS.length] as Contender);
    const order = r % 2 === 0 ? rotated : [...rotated].reverse();
    for (const who of order) {
      const x = await timed(server, () => workers[who].run());
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
  const undiciPool = summary('undici-pool');
  const getlist = summary('getlist');
  for (const who of CONTENDERS) {
    const rps = samples[who].map((x) => x.requestsPerSec);
    const spread = Math.max(...rps) / Math.min(...rps);
    if (spread > NOISY_SPREAD) warnings.push(`${who} rounds differ by ${Math.round((spread - 1) * 100)}% (machine busy? the ratio is unreliable; rerun on a quiet machine)`);
  }
  // Each round's getlist run against the faster of undici's two ways in that round.
  const best = (i: number) => Math.max((samples.undici[i] as TimedRun).requestsPerSec, (samples['undici-pool'][i] as TimedRun).requestsPerSec);
  const roundRatios = samples.getlist.map((g, i) => round(g.requestsPerSec / best(i)));
  return { bodyBytes, requests, connections, depth, undici, undiciPool, getlist, ratio: round(median(roundRatios)), roundRatios, warnings };
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
    const pipelining = strategy('getlist').pipelining;
    return { rounds, probeSuccesses: pipelining ? pipelining.probeSuccesses : 0, variants: out };
  } finally {
    await server.close();
  }
}
