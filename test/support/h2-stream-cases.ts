import { strategy, type StrategyName } from '../../src/scheduler';
import { MAX_SENDS } from '../../src/scheduler/retry-policy';
import { bodyFor } from './raw-http-server';
import { runList, sha256 } from './run-list';
import { startH2FaultOrigin, type H2Fault } from './h2-fault-origin';
import { testCert } from './tls-cert';

/**
 * HTTP/2 servers refuse streams past their SETTINGS_MAX_CONCURRENT_STREAMS, reset streams, close
 * sessions mid-answer, go away at a per-connection request limit (RFC 9113 §5.1.2, §6.8, §8.7) and
 * end a stream well after its body.
 * Each case sends a burst of `H2_BURST` requests to one origin of the fault injector
 * (h2-fault-origin.ts). test/integration/h2-stream-faults.test.ts runs each a few times per
 * strategy; `bench/faults --faults h2` runs them hundreds of times, many loads at once.
 */
export const H2_STRATEGIES: StrategyName[] = ['getlist', 'h2'];
export const H2_BURST = 30;
const getlistH2 = strategy('getlist').http2;
const DEMAND_WINDOWS = getlistH2 ? getlistH2.connectionsForDemand : 1;

export interface H2StreamCase {
  name: string;
  fault: H2Fault;
  /** Sessions a load may open at most. */
  maxSessions: number;
}

export const H2_STREAM_CASES: readonly H2StreamCase[] = [
  { name: 'refuses one stream unprocessed', fault: { kind: 'refuse-once', victim: '/asset7.bin' }, maxSessions: 1 },
  // Requests that wait for a stream may open getlist's windows for demand (docs/scheduler.md), where
  // a loaded machine's handshakes read as a far path.
  { name: 'allows two streams at once (SETTINGS_MAX_CONCURRENT_STREAMS 2)', fault: { kind: 'max-streams', max: 2 }, maxSessions: DEMAND_WINDOWS },
  { name: 'resets one stream mid-body (INTERNAL_ERROR)', fault: { kind: 'reset-mid-body-once', victim: '/asset9.bin', after: 5000 }, maxSessions: 1 },
  { name: 'closes its first session with every answer part-sent', fault: { kind: 'close-mid-bodies-once', after: 5000 }, maxSessions: 2 },
  // Two sessions to learn the limit, then one per five requests.
  { name: 'goes away after five streams per connection', fault: { kind: 'goaway-after', limit: 5 }, maxSessions: H2_BURST / 5 + 2 },
  { name: 'goes away after its first stream', fault: { kind: 'goaway-after', limit: 1 }, maxSessions: H2_BURST + 2 },
  { name: 'ends each stream 300 ms after its whole body', fault: { kind: 'late-end', holdMs: 300 }, maxSessions: 1 },
];

const paths = Array.from({ length: H2_BURST }, (_, i) => `/asset${i}.bin`);
const size = (path: string) => 20_000 + Number(path.replace(/\D/g, '')) * 997;

export interface H2StreamOutcome {
  /** Requests that completed with a body not their own. */
  wrongBodies: string[];
  /** Requests that failed or got no result, with their codes. */
  lost: Array<[string, string]>;
  /** Sends beyond each request's first. */
  resends: number;
  /** Requests sent more than `MAX_SENDS` times, or answered by the server more often than sent. */
  overSent: string[];
  /** Paths the server never answered whole. */
  unanswered: string[];
  sessions: number;
  totalMs: number;
}

/** One burst with `name` against a fresh fault injector doing `c`; what the client got and the server's log said. */
export async function runH2Stream(name: StrategyName, c: H2StreamCase): Promise<H2StreamOutcome> {
  const { cert } = testCert();
  const server = await startH2FaultOrigin(c.fault, size);
  const out: H2StreamOutcome = { wrongBodies: [], lost: [], resends: 0, overSent: [], unanswered: [], sessions: 0, totalMs: 0 };
  try {
    const started = performance.now();
    const run = await runList(strategy(name), paths.map((p) => ({ url: server.origin + p })), { ca: cert });
    out.totalMs = performance.now() - started;
    const sends = new Map<string, number>();
    for (const r of run.results) {
      const path = new URL(r.url).pathname;
      sends.set(path, r.attempts);
      out.resends += r.attempts - 1;
      if (r.error || r.status !== 200) out.lost.push([path, r.error?.code ?? String(r.status)]);
      else if (run.sha(r.id) !== sha256(bodyFor(path, size(path)))) out.wrongBodies.push(path);
    }
    for (const p of paths) {
      if (!sends.has(p)) out.lost.push([p, 'no result']);
      const answered = server.answered.filter((a) => a === p).length;
      if (answered === 0) out.unanswered.push(p);
      if ((sends.get(p) ?? 0) > MAX_SENDS || answered > (sends.get(p) ?? 0)) out.overSent.push(p);
    }
    out.sessions = server.sessions();
  } finally {
    await server.close();
  }
  return out;
}
