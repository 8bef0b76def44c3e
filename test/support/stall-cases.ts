import { requestTimeoutsWithin } from '../../native-host/cli/safety-options';
import { strategy, type StrategyName } from '../../src/scheduler';
import { makeResources } from './faulty-origin';
import { runList, sha256 } from './run-list';
import { drip, responseBytes, segmentsOf, startScriptedOrigin, type Segment } from './scripted-origin';

/**
 * One resource stalls — a slow-loris head or body, a `Content-Length` longer than what is sent, an
 * endless chunked body — with 30 requests queued for the same origin, served by the fault injector
 * (scripted-origin.ts), which fixes every segment boundary and pause. The stalled-response test
 * runs each case a few times; `bench/faults` runs them hundreds of times and keeps the counts.
 */
export const STALL_STRATEGIES: StrategyName[] = ['getlist', 'pipelined', 'browser', 'serial', 'http10'];
/** The load budget whose per-request timeouts the runs use (`requestTimeoutsWithin`). */
export const STALL_BUDGET_MS = 8000;
/** The others are done by then: the stall is seen after max(1 s, 8 × RTT) (stall-watch.ts), well before the idle timeout. */
export const OTHERS_DONE_MS = 1800;
const within = requestTimeoutsWithin(STALL_BUDGET_MS);
const TIMEOUTS = { requestTimeoutMs: within.idleMs, requestTotalTimeoutMs: within.totalMs };
export const STALL_RESOURCES = makeResources(30, true);
export const STALL_VICTIM = 3;
const KEEP = ['Connection', 'keep-alive'] as [string, string];
/** The codes the stalled resource itself may fail with. */
export const STALL_CODES: readonly string[] = ['E_RESPONSE_STALLED', 'E_REQUEST_TIMEOUT'];

export interface StallCase {
  name: string;
  segments: (body: Buffer, type: string) => Segment[];
}

export const STALLS: StallCase[] = [
  { name: 'slow-loris headers', segments: (b, t) => drip(responseBytes(200, [['Content-Type', t], KEEP, ['Content-Length', String(b.length)]]).subarray(0, -2), 150) },
  { name: 'slow-loris body', segments: (b, t) => [...segmentsOf(responseBytes(200, [['Content-Type', t], KEEP, ['Content-Length', String(b.length)]])), ...drip(b, 150)] },
  { name: 'a Content-Length longer than what is sent', segments: (b, t) => [...segmentsOf(responseBytes(200, [['Content-Type', t], KEEP, ['Content-Length', String(b.length + 500)]], b)), { delayMs: Infinity, bytes: Buffer.alloc(0) }] },
  {
    name: 'an endless chunked body',
    segments: (_b, t) => [...segmentsOf(responseBytes(200, [['Content-Type', t], KEEP, ['Transfer-Encoding', 'chunked']])), ...Array.from({ length: 400 }, () => ({ delayMs: 30, bytes: Buffer.from(`a\r\n${'z'.repeat(10)}\r\n`) }))],
  },
];

/** Every resource but the victim, answered whole and at once. */
export function answerWhole(path: string): Segment[] {
  const r = STALL_RESOURCES.find((x) => x.path === path);
  if (!r) return segmentsOf(responseBytes(404, [KEEP, ['Content-Length', '0']], undefined, 'Not Found'));
  return segmentsOf(responseBytes(200, [['Content-Type', r.contentType], KEEP, ['Content-Length', String(r.body.length)]], r.body));
}

/** One load's outcome, judged against the files the server holds. */
export interface StallOutcome {
  /** Requests other than the victim that completed with a body that is not their own. */
  wrongBodies: string[];
  /** Requests other than the victim that failed, with their codes. */
  lost: Array<[string, string]>;
  /** The victim's error code, or `ok` if it completed (with its own body), or `wrong`. */
  victim: string;
  /** When the last of the others completed, from the load's start. */
  othersDoneMs: number;
  totalMs: number;
}

/** Loads the 30 resources once with `name`, the victim stalling as `stall` says. */
export async function runStall(name: StrategyName, stall: StallCase): Promise<StallOutcome> {
  const victim = STALL_RESOURCES[STALL_VICTIM] as (typeof STALL_RESOURCES)[number];
  const server = await startScriptedOrigin((req) => (req.path === victim.path && req.method === 'GET' ? stall.segments(victim.body, victim.contentType) : answerWhole(req.path)));
  try {
    const started = performance.now();
    const { results, sha } = await runList(strategy(name), STALL_RESOURCES.map((r) => ({ url: `${server.origin}${r.path}`, resourceType: 'image' })), TIMEOUTS);
    const totalMs = performance.now() - started;
    const out: StallOutcome = { wrongBodies: [], lost: [], victim: 'missing', othersDoneMs: 0, totalMs };
    for (const r of results) {
      const path = new URL(r.url).pathname;
      const own = STALL_RESOURCES.find((x) => x.path === path);
      const right = !r.error && r.status === 200 && own !== undefined && sha(r.id) === sha256(own.body);
      if (path === victim.path) {
        out.victim = r.error ? r.error.code : right ? 'ok' : 'wrong';
        continue;
      }
      if (r.error) out.lost.push([path, r.error.code]);
      else if (!right) out.wrongBodies.push(path);
      out.othersDoneMs = Math.max(out.othersDoneMs, r.doneAt - started);
    }
    const answered = new Set(results.map((r) => new URL(r.url).pathname));
    for (const r of STALL_RESOURCES) if (!answered.has(r.path) && r.path !== victim.path) out.lost.push([r.path, 'no result']);
    return out;
  } finally {
    await server.close();
  }
}
