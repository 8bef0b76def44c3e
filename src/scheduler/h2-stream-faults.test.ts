import { PEER_STREAMS_BEFORE_SETTINGS, STREAM_REFUSED, Scheduler, strategy, type RequestResult, type Strategy } from './index';
import { InMemoryOriginMemory } from '../origins/origin-memory';
import { MemoryBudgets } from './request-budget';
import { MAX_SENDS, decideRetry } from './retry-policy';
import { FakeClock, FakeTransport } from '../../test/support/fake-transport';

const O = 'https://a.test';
const coded = (code: string, message = code) => Object.assign(new Error(message), { code });
const refused = () => coded(STREAM_REFUSED, 'the server refused the stream unprocessed');

function setup(s: Strategy = strategy('getlist'), memory?: InMemoryOriginMemory) {
  const clock = new FakeClock();
  const transport = new FakeTransport();
  const results: RequestResult[] = [];
  const budgets = new MemoryBudgets();
  const scheduler = new Scheduler({ strategy: s, transport, clock, budgets, ...(memory ? { memory } : {}), observer: { onRequestSettled: (r) => results.push(r) } });
  const add = (n: number, from = 0) => {
    for (let i = from; i < from + n; i++) scheduler.enqueue({ url: `${O}/i${i}`, priority: 'image', resourceType: 'image' });
  };
  const h2 = (id: number) => scheduler.connectionReady(id, { protocol: 'h2' });
  /** Dispatches on connection `id` not yet answered or failed. */
  const open = (id: number) => transport.on(id).filter((d) => !answered.has(d.id));
  const answered = new Set<number>();
  const finish = (dispatchId: number) => {
    answered.add(dispatchId);
    scheduler.responseStarted(dispatchId, { status: 200, httpVersion: '2', keepAlive: true });
    scheduler.responseEnded(dispatchId, { bytes: 10 });
  };
  const fail = (dispatchId: number, error: unknown) => {
    answered.add(dispatchId);
    scheduler.dispatchFailed(dispatchId, error, false);
  };
  return { clock, transport, scheduler, results, budgets, add, h2, open, finish, fail };
}

describe('HTTP/2 stream limits, refusals and GOAWAY (RFC 9113 §5.1.2, §6.8, §8.7)', () => {
  test('the policy: a refused stream is sent again without using an attempt, whatever its method, within MAX_SENDS', () => {
    const base = { idempotent: true, sends: 1, failedAttempts: 1, reused: false, idled: false, responseStarted: false, discarded: false, refused: true };
    expect(decideRetry(base, refused())).toBe('requeue');
    expect(decideRetry({ ...base, idempotent: false }, refused())).toBe('requeue');
    expect(decideRetry({ ...base, sends: MAX_SENDS }, refused())).toBe('fail');
    // A stream reset after the server began to answer is a failed attempt, as on HTTP/1.1.
    expect(decideRetry({ ...base, refused: false, failedAttempts: 0, responseStarted: true }, coded('ERR_HTTP2_STREAM_ERROR'))).toBe('requeue-counted');
    expect(decideRetry({ ...base, refused: false, responseStarted: true }, coded('ERR_HTTP2_STREAM_ERROR'))).toBe('fail');
  });

  test('before the server\'s SETTINGS a connection carries 100 streams, then as many as SETTINGS_MAX_CONCURRENT_STREAMS allows; the rest wait in the scheduler\'s own queue', () => {
    const t = setup();
    t.add(150);
    t.h2(1);
    expect(t.open(1)).toHaveLength(PEER_STREAMS_BEFORE_SETTINGS);
    t.scheduler.connectionSettings(1, { maxConcurrentStreams: 8 });
    // The 100 already open stay open; none more goes until fewer than 8 are.
    for (const d of t.open(1).slice(0, 90)) t.finish(d.id);
    expect(t.open(1)).toHaveLength(10);
    for (const d of t.open(1).slice(0, 5)) t.finish(d.id);
    expect(t.open(1)).toHaveLength(8);
    // A server that allows more than the strategy's own limit is held to the strategy's.
    const u = setup();
    u.add(300);
    u.h2(1);
    u.scheduler.connectionSettings(1, { maxConcurrentStreams: 4_294_967_295 });
    const policy = strategy('getlist').http2;
    expect(u.open(1)).toHaveLength(policy ? policy.maxStreams : -1);
  });

  test('a stream the server refused goes again at once on the same connection, and arrives: no attempt used, nothing else moved', () => {
    const t = setup();
    t.add(3);
    t.h2(1);
    const victim = t.transport.dispatchOf('/i1');
    t.fail(victim.id, refused());
    const again = t.transport.dispatchOf('/i1');
    expect(again.id).not.toBe(victim.id);
    expect(again.connectionId).toBe(1);
    for (const d of t.open(1)) t.finish(d.id);
    expect(t.results.map((r) => [r.url.slice(O.length), r.status, r.attempts, r.error])).toEqual(expect.arrayContaining([['/i1', 200, 2, undefined]]));
    expect(t.results.every((r) => r.error === undefined)).toBe(true);
    expect(t.transport.opened).toHaveLength(1);
  });

  test('a stream reset mid-answer is sent once more; reset again, that request alone fails with E_RESPONSE_FAILED', () => {
    const t = setup();
    t.add(2);
    t.h2(1);
    const reset = () => coded('ERR_HTTP2_STREAM_ERROR', 'Stream closed with error code NGHTTP2_INTERNAL_ERROR');
    for (let k = 0; k < 2; k++) {
      const d = t.transport.dispatchOf('/i0');
      t.scheduler.responseStarted(d.id, { status: 200, httpVersion: '2', keepAlive: true });
      t.fail(d.id, reset());
    }
    t.finish(t.transport.dispatchOf('/i1').id);
    const byPath = new Map(t.results.map((r) => [r.url.slice(O.length), r]));
    expect(byPath.get('/i0')?.error?.code).toBe('E_RESPONSE_FAILED');
    expect(byPath.get('/i0')?.attempts).toBe(2);
    expect(byPath.get('/i1')?.error).toBeUndefined();
  });

  test('requests a lost h2 connection took go together on one new connection, not on a connection each', () => {
    const t = setup(strategy('h2'));
    t.add(30);
    t.h2(1);
    t.scheduler.connectionClosed(1, coded('UND_ERR_SOCKET', 'other side closed'));
    expect(t.transport.opened.map((c) => c.id)).toEqual([1, 2]);
    t.h2(2);
    expect(t.open(2)).toHaveLength(30);
  });

  test('GOAWAY without error: the connection takes no new stream, a new one opens for what waits (even where one connection is the limit), and the old one closes once its streams end', () => {
    const t = setup(strategy('h2'));
    t.add(10);
    t.h2(1);
    // The server processed streams 1, 3, 5 (three requests) and refuses the other seven.
    t.scheduler.connectionDraining(1, { lastStreamId: 5 });
    t.add(1, 10);
    expect(t.transport.opened.map((c) => c.id)).toEqual([1, 2]);
    const onFirst = t.open(1);
    for (const d of onFirst.slice(3)) t.fail(d.id, refused());
    expect(t.transport.closedByScheduler).not.toContain(1);
    for (const d of onFirst.slice(0, 3)) t.finish(d.id);
    expect(t.transport.closedByScheduler).toContain(1);
    t.h2(2);
    for (const d of t.open(2)) t.finish(d.id);
    expect(t.results).toHaveLength(11);
    expect(t.results.every((r) => r.status === 200 && r.error === undefined)).toBe(true);
  });

  test('two connections that went away after the same count of streams make it the origin\'s budget: later connections carry no more', () => {
    const t = setup(strategy('h2'));
    t.add(12);
    t.h2(1);
    const goAwayAfter = (id: number, n: number) => {
      t.scheduler.connectionDraining(id, { lastStreamId: 2 * n - 1 });
      const on = t.open(id);
      for (const d of on.slice(n)) t.fail(d.id, refused());
      for (const d of on.slice(0, n)) t.finish(d.id);
    };
    goAwayAfter(1, 3);
    expect(t.budgets.get(O)?.budget).toBeUndefined();
    t.h2(2);
    goAwayAfter(2, 3);
    expect(t.budgets.get(O)?.budget).toBe(3);
    t.h2(3);
    expect(t.open(3)).toHaveLength(3);
    // A graceful GOAWAY after every stream was processed (a server shutting down) says nothing of a budget.
    const u = setup(strategy('h2'));
    u.add(2);
    u.h2(1);
    u.scheduler.connectionDraining(1, { lastStreamId: 3 });
    expect(u.budgets.get(O)).toBeUndefined();
  });

  test('the SETTINGS limit is remembered: the origin\'s next connection, in this load or a later one, starts from it, not from 100', () => {
    const memory = new InMemoryOriginMemory();
    const t = setup(strategy('getlist'), memory);
    t.add(1);
    t.h2(1);
    t.scheduler.connectionSettings(1, { maxConcurrentStreams: 8 });
    expect(memory.get(O)?.maxConcurrentStreams).toBe(8);
    const later = setup(strategy('getlist'), memory);
    later.add(30);
    later.h2(1);
    expect(later.open(1)).toHaveLength(8);
    // A strategy without origin memory starts from 100 every time.
    const cold = setup(strategy('h2'), memory);
    cold.add(150);
    cold.h2(1);
    expect(cold.open(1)).toHaveLength(PEER_STREAMS_BEFORE_SETTINGS);
  });
});
