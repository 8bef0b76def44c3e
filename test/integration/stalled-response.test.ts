import { strategy, type StrategyName } from '../../src/scheduler';
import { requestTimeoutsWithin } from '../../native-host/cli/safety-options';
import { main } from '../../native-host/cli/main';
import { makeResources } from '../support/faulty-origin';
import { runList, sha256 } from '../support/run-list';
import { drip, responseBytes, segmentsOf, startScriptedOrigin, type Segment } from '../support/scripted-origin';

/**
 * One resource stalls — a slow-loris head or body, a `Content-Length` longer than what is sent, an
 * endless chunked body — with 30 requests queued for the same origin. It may cost only itself:
 * every other request completes with its own body, in every strategy, whatever was pipelined
 * behind the stalled one, and without waiting for the stalled one's timeouts; the stalled one
 * fails with its own timeout code. The per-request timeouts are the ones a short load budget
 * gives (`requestTimeoutsWithin`).
 */

const RUNS = Number(process.env['GETLIST_FAULT_RUNS'] ?? 1);
/** Runs at once, each with its own server (`GETLIST_FAULT_PARALLEL`). */
const PARALLEL = Number(process.env['GETLIST_FAULT_PARALLEL'] ?? 1);
const STRATEGIES: StrategyName[] = ['getlist', 'pipelined', 'browser', 'serial', 'http10'];
const BUDGET_MS = 8000;
/** The others are done by then: the stall is seen after max(1 s, 8 × RTT) (stall-watch.ts), well before the idle timeout. */
const OTHERS_DONE_MS = 1800;
const within = requestTimeoutsWithin(BUDGET_MS);
const TIMEOUTS = { requestTimeoutMs: within.idleMs, requestTotalTimeoutMs: within.totalMs };
const resources = makeResources(30, true);
const VICTIM = 3;
const KEEP = ['Connection', 'keep-alive'] as [string, string];

const STALLS: Array<{ name: string; segments: (body: Buffer, type: string) => Segment[] }> = [
  { name: 'slow-loris headers', segments: (b, t) => drip(responseBytes(200, [['Content-Type', t], KEEP, ['Content-Length', String(b.length)]]).subarray(0, -2), 150) },
  { name: 'slow-loris body', segments: (b, t) => [...segmentsOf(responseBytes(200, [['Content-Type', t], KEEP, ['Content-Length', String(b.length)]])), ...drip(b, 150)] },
  { name: 'a Content-Length longer than what is sent', segments: (b, t) => [...segmentsOf(responseBytes(200, [['Content-Type', t], KEEP, ['Content-Length', String(b.length + 500)]], b)), { delayMs: Infinity, bytes: Buffer.alloc(0) }] },
  {
    name: 'an endless chunked body',
    segments: (_b, t) => [...segmentsOf(responseBytes(200, [['Content-Type', t], KEEP, ['Transfer-Encoding', 'chunked']])), ...Array.from({ length: 400 }, () => ({ delayMs: 30, bytes: Buffer.from(`a\r\n${'z'.repeat(10)}\r\n`) }))],
  },
];

function answer(path: string): Segment[] {
  const i = resources.findIndex((r) => r.path === path);
  const r = resources[i];
  if (!r) return segmentsOf(responseBytes(404, [KEEP, ['Content-Length', '0']], undefined, 'Not Found'));
  return segmentsOf(responseBytes(200, [['Content-Type', r.contentType], KEEP, ['Content-Length', String(r.body.length)]], r.body));
}

describe.each(STALLS)('a stalled response: $name', (stall) => {
  test.each(STRATEGIES)(`%s: every other request completes with its own body (${RUNS} run(s)); the stalled one fails with its timeout`, async (name) => {
    const once = async (run: number) => {
      const victim = resources[VICTIM] as (typeof resources)[number];
      const server = await startScriptedOrigin((req) => (req.path === victim.path && req.method === 'GET' ? stall.segments(victim.body, victim.contentType) : answer(req.path)));
      try {
        const started = performance.now();
        const { results, sha } = await runList(strategy(name), resources.map((r) => ({ url: `${server.origin}${r.path}`, resourceType: 'image' })), TIMEOUTS);
        const got = results.map((r) => {
          const path = new URL(r.url).pathname;
          const own = resources.find((x) => x.path === path);
          return { path, ok: r.error ? r.error.code : r.status === 200 && own !== undefined && sha(r.id) === sha256(own.body) };
        });
        const want = resources.map((r) => ({ path: r.path, ok: r.path === victim.path ? expect.stringMatching(/^E_(RESPONSE_STALLED|REQUEST_TIMEOUT)$/) : true }));
        expect({ run, got }).toEqual({ run, got: want });
        // The others long before the stalled one's own timeout; all of it within the budget.
        const othersDone = Math.max(...results.filter((r) => !r.url.endsWith(victim.path)).map((r) => r.doneAt)) - started;
        expect({ run, othersDone: othersDone < OTHERS_DONE_MS ? 'in time' : othersDone }).toEqual({ run, othersDone: 'in time' });
        expect(performance.now() - started).toBeLessThan(BUDGET_MS);
      } finally {
        await server.close();
      }
    };
    for (let run = 0; run < RUNS; run += PARALLEL) await Promise.all(Array.from({ length: Math.min(PARALLEL, RUNS - run) }, (_, k) => once(run + k)));
  });
});

test('`getlist load --timeout 15000`: a stalled image costs only itself, the idle and total timeouts scaled to the budget', async () => {
  const victim = resources[VICTIM] as (typeof resources)[number];
  const doc = Buffer.from(`<!doctype html><title>t</title><link rel="icon" href="data:,">\n${resources.map((r) => `<img src="${r.path}" alt="">`).join('\n')}\n`);
  const server = await startScriptedOrigin((req) => {
    if (req.path === '/') return segmentsOf(responseBytes(200, [['Content-Type', 'text/html'], KEEP, ['Content-Length', String(doc.length)]], doc));
    return req.path === victim.path ? [...segmentsOf(responseBytes(200, [['Content-Type', victim.contentType], KEEP, ['Content-Length', String(victim.body.length + 500)]], victim.body)), { delayMs: Infinity, bytes: Buffer.alloc(0) }] : answer(req.path);
  });
  try {
    let out = '';
    const io = { out: (s: string) => void (out += s), err: () => undefined };
    const started = performance.now();
    expect(await main(['load', `${server.origin}/`, '--strategy', 'pipelined', '--timeout', '15000', '--json'], io as never)).toBe(0);
    const requests = (JSON.parse(out) as { runs: Array<{ requests: Array<{ url: string; status: number | null; error: { code: string } | null }> }> }).runs[0]?.requests ?? [];
    expect(requests.filter((r) => r.error !== null).map((r) => [new URL(r.url).pathname, r.error?.code])).toEqual([[victim.path, 'E_RESPONSE_STALLED']]);
    expect(requests.length).toBe(resources.length + 1);
    // The idle timeout is a quarter of the budget, not 30 s.
    expect(performance.now() - started).toBeLessThan(15_000 / 4 + 2000);
  } finally {
    await server.close();
  }
}, 30_000);
