import { createHash } from 'node:crypto';
import { strategy, type StrategyName } from '../../src/scheduler';
import { loadPage } from '../../native-host/run/page-loader';
import { startFaultyOrigin } from './faulty-origin';

/**
 * A keep-alive timeout racing the next request (faulty-origin.ts `idleCloseMs`): the page's 12
 * resources from an origin that closes every connection idle this long after a response. The
 * shorter the timeout, the more reuses it races, up to every one at 0 ms, however the loop is
 * scheduled. The faulty-origin test runs one timeout per strategy; `bench/faults` runs these
 * hundreds of times, many loads at once, and keeps the counts.
 */
export const IDLE_STRATEGIES: StrategyName[] = ['getlist', 'pipelined', 'browser', 'serial'];
export const IDLE_TIMEOUTS_MS = [0, 1, 2, 5, 15];
/** The faulty-origin test's per-request timeouts. */
const TIMEOUTS = { requestTimeoutMs: 300, requestTotalTimeoutMs: 1200 };
const LOAD_BUDGET_MS = 15_000;

export interface IdleOutcome {
  /** Requests (the document included) that completed with a body not their own. */
  wrongBodies: string[];
  /** Requests that failed or got no result, with their codes (`load` when the document failed). */
  lost: Array<[string, string]>;
  /** Sends beyond each request's first: how often the idle close raced a request. */
  resends: number;
  totalMs: number;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Loads the page once with `name` from an origin whose keep-alive timeout is `idleCloseMs`. */
export async function runIdle(name: StrategyName, idleCloseMs: number): Promise<IdleOutcome> {
  const server = await startFaultyOrigin({ idleCloseMs });
  const out: IdleOutcome = { wrongBodies: [], lost: [], resends: 0, totalMs: 0 };
  try {
    const bodies = new Map<number, Buffer[]>();
    const started = performance.now();
    const run = await loadPage({
      url: `${server.origin}${server.documentPath}`,
      strategy: strategy(name),
      timeoutMs: LOAD_BUDGET_MS,
      transport: TIMEOUTS,
      // A retried attempt gets a new head, which starts its body over.
      observe: { onResponseHead: (d) => bodies.set(d.request.id, []), onBody: (d, chunk) => bodies.get(d.request.id)?.push(chunk) },
    });
    out.totalMs = performance.now() - started;
    const answered = new Set<string>();
    // Results are listed in the scheduler's id order, ids from 1 (what the body hooks are keyed by).
    for (const [i, r] of run.requests.entries()) {
      const path = new URL(r.url).pathname;
      answered.add(path);
      out.resends += r.attempts - 1;
      if (r.error) {
        out.lost.push([path, r.error.code]);
        continue;
      }
      const own = server.resources.find((x) => x.path === path);
      if (own && sha(Buffer.concat(bodies.get(i + 1) ?? [])) !== sha(own.body)) out.wrongBodies.push(path);
    }
    for (const r of server.resources) if (!answered.has(r.path)) out.lost.push([r.path, 'no result']);
  } catch (e) {
    out.lost.push([server.documentPath, `load: ${(e as { code?: string }).code ?? (e as Error).message}`]);
  } finally {
    await server.close();
  }
  return out;
}
