import { main } from '../../native-host/cli/main';
import { responseBytes, segmentsOf, startScriptedOrigin } from '../support/scripted-origin';
import { answerWhole, OTHERS_DONE_MS, runStall, STALL_BUDGET_MS, STALL_CODES, STALL_RESOURCES, STALL_STRATEGIES, STALL_VICTIM, STALLS } from '../support/stall-cases';

/**
 * One resource stalls — a slow-loris head or body, a `Content-Length` longer than what is sent, an
 * endless chunked body — with 30 requests queued for the same origin (test/support/stall-cases.ts).
 * It may cost only itself: every other request completes with its own body, in every strategy,
 * whatever was pipelined behind the stalled one, and without waiting for the stalled one's
 * timeouts; the stalled one fails with its own timeout code. `bench/faults` is the long run.
 */

const RUNS = Number(process.env['GETLIST_FAULT_RUNS'] ?? 1);
/** Runs at once, each with its own server (`GETLIST_FAULT_PARALLEL`). */
const PARALLEL = Number(process.env['GETLIST_FAULT_PARALLEL'] ?? 1);
const KEEP = ['Connection', 'keep-alive'] as [string, string];

describe.each(STALLS)('a stalled response: $name', (stall) => {
  test.each(STALL_STRATEGIES)(`%s: every other request completes with its own body (${RUNS} run(s)); the stalled one fails with its timeout`, async (name) => {
    const once = async (run: number) => {
      const o = await runStall(name, stall);
      expect({ run, wrong: o.wrongBodies, lost: o.lost, victimFailedWithItsCode: STALL_CODES.includes(o.victim) ? true : o.victim })
        .toEqual({ run, wrong: [], lost: [], victimFailedWithItsCode: true });
      // The others long before the stalled one's own timeout; all of it within the budget.
      expect({ run, othersDone: o.othersDoneMs < OTHERS_DONE_MS ? 'in time' : o.othersDoneMs }).toEqual({ run, othersDone: 'in time' });
      expect(o.totalMs).toBeLessThan(STALL_BUDGET_MS);
    };
    for (let run = 0; run < RUNS; run += PARALLEL) await Promise.all(Array.from({ length: Math.min(PARALLEL, RUNS - run) }, (_, k) => once(run + k)));
  });
});

test('`getlist load --timeout 15000`: a stalled image costs only itself, the idle and total timeouts scaled to the budget', async () => {
  const victim = STALL_RESOURCES[STALL_VICTIM] as (typeof STALL_RESOURCES)[number];
  const doc = Buffer.from(`<!doctype html><title>t</title><link rel="icon" href="data:,">\n${STALL_RESOURCES.map((r) => `<img src="${r.path}" alt="">`).join('\n')}\n`);
  const server = await startScriptedOrigin((req) => {
    if (req.path === '/') return segmentsOf(responseBytes(200, [['Content-Type', 'text/html'], KEEP, ['Content-Length', String(doc.length)]], doc));
    return req.path === victim.path ? [...segmentsOf(responseBytes(200, [['Content-Type', victim.contentType], KEEP, ['Content-Length', String(victim.body.length + 500)]], victim.body)), { delayMs: Infinity, bytes: Buffer.alloc(0) }] : answerWhole(req.path);
  });
  try {
    let out = '';
    const io = { out: (s: string) => void (out += s), err: () => undefined };
    const started = performance.now();
    expect(await main(['load', `${server.origin}/`, '--strategy', 'pipelined', '--timeout', '15000', '--json'], io as never)).toBe(0);
    const requests = (JSON.parse(out) as { runs: Array<{ requests: Array<{ url: string; status: number | null; error: { code: string } | null }> }> }).runs[0]?.requests ?? [];
    expect(requests.filter((r) => r.error !== null).map((r) => [new URL(r.url).pathname, r.error?.code])).toEqual([[victim.path, 'E_RESPONSE_STALLED']]);
    expect(requests.length).toBe(STALL_RESOURCES.length + 1);
    // The idle timeout is a quarter of the budget, not 30 s.
    expect(performance.now() - started).toBeLessThan(15_000 / 4 + 2000);
  } finally {
    await server.close();
  }
}, 30_000);
