import { Scheduler, strategy, type RequestSpec } from './index';
import { O, setup } from '../../test/support/scheduler-harness';
import { FakeClock, FakeTransport } from '../../test/support/fake-transport';

describe('demotion and retry', () => {
  function pipelinedThree() {
    const t = setup(strategy('getlist', { connections: { maxPerOrigin: 1 }, pipelining: { probeSuccesses: 0, demoteMs: 1000 } }));
    t.add('/warm');
    t.ready(1);
    t.finish('/warm');
    t.add('/p1');
    t.add('/p2');
    t.add('/p3');
    expect(t.transport.on(1).map((d) => d.request.path)).toEqual(['/warm', '/p1', '/p2', '/p3']);
    return t;
  }

  test('close with requests outstanding: demoted, each lost GET retried once on a fresh connection, not pipelined there', () => {
    const t = pipelinedThree();
    t.finish('/p1');
    t.scheduler.connectionClosed(1, Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }));
    expect(t.scheduler.stats().demotions).toEqual([{ origin: O, reason: 'closed-with-outstanding' }]);
    expect(t.transport.opened).toHaveLength(2);
    t.ready(2);
    expect(t.transport.on(2).map((d) => d.request.path)).toEqual(['/p2']); // alone: RFC 9112 §9.3.2
    t.finish('/p2');
    // demoted → persistent but one at a time
    expect(t.transport.on(2).map((d) => d.request.path)).toEqual(['/p2', '/p3']);
    t.finish('/p3');
    expect(t.results.map((r) => [r.url.slice(O.length), r.attempts, r.error?.code])).toEqual([
      ['/warm', 1, undefined], ['/p1', 1, undefined], ['/p2', 2, undefined], ['/p3', 2, undefined],
    ]);
  });

  test('a request lost twice fails with E_CONNECTION_LOST; a lost POST is never retried', () => {
    const t = setup(strategy('browser', { connections: { maxPerOrigin: 1 } }));
    t.add('/g');
    t.ready(1);
    t.scheduler.connectionClosed(1, new Error('reset'));
    t.ready(2);
    t.scheduler.connectionClosed(2, new Error('reset'));
    expect(t.result('/g').error?.code).toBe('E_CONNECTION_LOST');
    expect(t.result('/g').attempts).toBe(2);
    t.add('/post', { method: 'POST' });
    t.ready(3);
    t.scheduler.dispatchFailed(t.transport.dispatchOf('/post').id, new Error('socket hang up'));
    expect(t.result('/post').error?.code).toBe('E_NOT_RETRYABLE');
    expect(t.transport.sent.filter((d) => d.request.path === '/post')).toHaveLength(1);
  });

  test('`Connection: close` mid-pipeline is the server\'s budget, not a fault: no demotion; the requests behind are written again, and no connection carries more than the budget', () => {
    const t = pipelinedThree();
    t.finish('/p1', { keepAlive: false });
    t.scheduler.connectionClosed(1);
    expect(t.scheduler.stats().demotions).toEqual([]);
    t.ready(2);
    // Written again alone, as any request lost with its connection (RFC 9112 §9.3.2).
    expect(t.transport.on(2).map((d) => d.request.path)).toEqual(['/p2']);
    t.finish('/p2');
    expect(t.transport.on(2).map((d) => d.request.path)).toEqual(['/p2', '/p3']);
    t.finish('/p3');
    expect(t.results.map((r) => [r.url.slice(O.length), r.attempts, r.error?.code])).toEqual([
      ['/warm', 1, undefined], ['/p1', 1, undefined], ['/p2', 2, undefined], ['/p3', 2, undefined],
    ]);
    // Still pipelined, and within the budget (2: `/warm` and `/p1`) on every connection.
    t.add('/q1');
    t.add('/q2');
    t.add('/q3');
    t.ready(3);
    expect(t.transport.on(3).map((d) => d.request.path)).toEqual(['/q1', '/q2']);
    expect(t.transport.on(3)[1]?.pipelined).toBe(true);
    expect(t.scheduler.stats().demotions).toEqual([]);
  });

  test('an HTTP/1.0 answer demotes; demotion expires after demoteMs', () => {
    const t = pipelinedThree();
    t.finish('/p1', { version: '1.0' });
    expect(t.scheduler.stats().demotions.map((d) => d.reason)).toEqual(['http10']);
    t.finish('/p2', { version: '1.0' });
    t.finish('/p3', { version: '1.0' });
    t.add('/q1');
    t.add('/q2');
    expect(t.transport.on(1).at(-1)?.request.path).toBe('/q1'); // not pipelined while bad
    t.clock.advance(1000);
    t.finish('/q1');
    t.finish('/q2'); // unknown → good again (probeSuccesses 0)
    t.add('/r1');
    t.add('/r2');
    expect(t.transport.dispatchOf('/r2').pipelined).toBe(true);
  });

  /**
   * Two connections, each pipelining six requests; the first is reset after one answer, before
   * the origin's budget is known (unexplained-close.ts).
   */
  function resetBesideAWitness() {
    const t = setup(strategy('getlist', { connections: { maxPerOrigin: 2, fitToPath: false }, pipelining: { probeSuccesses: 0, orderProbe: false, demoteMs: 1000 } }));
    for (let i = 0; i < 12; i++) t.add(`/p${i}`);
    t.ready(1);
    t.ready(2);
    t.finish('/p0');
    t.finish('/p1');
    expect(t.transport.on(1)).toHaveLength(6);
    expect(t.transport.on(2)).toHaveLength(6);
    t.finish('/p2');
    t.scheduler.connectionClosed(1, Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
    return t;
  }

  test('a reset that loses a pipeline before the budget is known waits for its witness: a budget announced there explains it, no demotion', () => {
    const t = resetBesideAWitness();
    expect(t.scheduler.stats().demotions).toEqual([]);
    t.finish('/p3');
    t.finish('/p5', { keepAlive: false }); // the witness's third answer says `Connection: close`: budget 3, below the 6 the reset connection carried
    t.scheduler.connectionClosed(2);
    expect(t.scheduler.stats().demotions).toEqual([]);
  });

  test('a witness that serves as many answers as the reset connection carried, and stays open, demotes the origin', () => {
    const t = resetBesideAWitness();
    for (const p of ['/p3', '/p5', '/p7', '/p9']) t.finish(p);
    expect(t.scheduler.stats().demotions).toEqual([]);
    t.finish('/p11');
    expect(t.scheduler.stats().demotions).toEqual([{ origin: O, reason: 'closed-with-outstanding' }]);
  });

  test('a second unexplained close while the first waits demotes the origin', () => {
    const t = resetBesideAWitness();
    t.finish('/p3');
    t.scheduler.connectionClosed(2, Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
    expect(t.scheduler.stats().demotions).toEqual([{ origin: O, reason: 'closed-with-outstanding' }]);
  });

  test('every witness gone without a budget demotes the origin', () => {
    const t = resetBesideAWitness();
    for (const p of ['/p3', '/p5', '/p7', '/p9']) t.finish(p);
    // Closed with one request unanswered: no close of its own to judge, but the last witness is gone.
    t.scheduler.connectionClosed(2);
    expect(t.scheduler.stats().demotions).toEqual([{ origin: O, reason: 'closed-with-outstanding' }]);
  });
});

describe('strategies', () => {
  test('http10: a new connection per request, closed after its response, one at a time', () => {
    const t = setup(strategy('http10'));
    t.add('/a');
    t.add('/b');
    expect(t.transport.opened).toHaveLength(1);
    t.ready(1);
    expect(t.transport.sent[0]?.keepAlive).toBe(false);
    t.finish('/a');
    expect(t.transport.closedByScheduler).toEqual([1]);
    expect(t.transport.opened).toHaveLength(2);
    t.ready(2);
    t.finish('/b');
    expect(t.results.map((r) => [r.connectionId, r.reused])).toEqual([[1, false], [2, false]]);
  });

  test('h2: one connection, multiplexed; learns the protocol before opening more', () => {
    const t = setup(strategy('h2'));
    const origin = 'https://b.test';
    for (let i = 0; i < 20; i++) t.scheduler.enqueue({ url: `${origin}/r${i}`, priority: 'image' });
    expect(t.transport.opened).toHaveLength(1);
    expect(t.transport.opened[0]?.options.allowH2).toBe(true);
    t.ready(1, 'h2');
    expect(t.transport.opened).toHaveLength(1);
    expect(t.transport.on(1)).toHaveLength(20);
    expect(t.transport.sent.every((d) => !d.pipelined)).toBe(true);
  });

  test('getlist on an https origin that answers HTTP/1.1 opens more connections after ALPN', () => {
    const t = setup(strategy('getlist'));
    for (let i = 0; i < 20; i++) t.scheduler.enqueue({ url: `https://c.test/r${i}`, priority: 'image' });
    expect(t.transport.opened).toHaveLength(1);
    t.ready(1, 'http/1.1');
    expect(t.transport.opened).toHaveLength(6);
  });
});

describe('low-latency first', () => {
  test('lower-priority bodies beyond the allowance are paused while a blocking request is outstanding', () => {
    const t = setup(strategy('getlist', { connections: { maxPerOrigin: 4 }, pausing: { maxFlowing: 1, onlyWhenLinkBusy: false } }));
    for (let i = 0; i < 3; i++) t.add(`/img${i}`);
    for (let i = 1; i <= 3; i++) t.ready(i);
    expect(t.transport.paused.size).toBe(0);
    t.add('/css', { priority: 'blocking' });
    t.ready(4);
    const img = (i: number) => t.transport.dispatchOf(`/img${i}`).id;
    expect([...t.transport.paused].sort()).toEqual([img(1), img(2)]);
    t.finish('/css');
    expect(t.transport.paused.size).toBe(0);
    expect(t.scheduler.stats().pauses).toBe(2);
  });

  test('a response with an urgent request pipelined behind it is never paused', () => {
    const t = setup(strategy('getlist', { connections: { maxPerOrigin: 1 }, pipelining: { probeSuccesses: 0 }, pausing: { maxFlowing: 0 } }));
    t.add('/warm');
    t.ready(1);
    t.finish('/warm');
    t.add('/img');
    t.add('/css', { priority: 'blocking' });
    expect(t.transport.dispatchOf('/css').pipelined).toBe(true);
    expect(t.transport.paused.has(t.transport.dispatchOf('/img').id)).toBe(false);
  });

  test('a response known to be smaller than pausing.minBytes is not paused, or is resumed once its size is known', () => {
    const t = setup(strategy('getlist', { connections: { maxPerOrigin: 4 }, pausing: { maxFlowing: 0, minBytes: 16_384, onlyWhenLinkBusy: false } }));
    t.add('/small', { expectedSize: 2_000 });
    t.add('/unknown');
    t.add('/big', { expectedSize: 200_000 });
    for (let i = 1; i <= 3; i++) t.ready(i);
    t.add('/css', { priority: 'blocking' });
    t.ready(4);
    const id = (p: string) => t.transport.dispatchOf(p).id;
    // Declared small: never paused. Unknown and declared large: paused.
    expect([...t.transport.paused].sort()).toEqual([id('/unknown'), id('/big')].sort());
    // Headers say 3,000 bytes: too small to be worth pausing, so it resumes at once.
    t.scheduler.responseStarted(id('/unknown'), { status: 200, httpVersion: '1.1', keepAlive: true, contentLength: 3_000 });
    expect([...t.transport.paused]).toEqual([id('/big')]);
    // A large Content-Length keeps it paused.
    t.scheduler.responseStarted(id('/big'), { status: 200, httpVersion: '1.1', keepAlive: true, contentLength: 200_000 });
    expect([...t.transport.paused]).toEqual([id('/big')]);
  });

  test('strategies without pausing never pause', () => {
    const t = setup(strategy('browser'));
    t.add('/img');
    t.add('/css', { priority: 'blocking' });
    t.ready(1);
    t.ready(2);
    expect(t.transport.pauseLog).toEqual([]);
  });
});

describe('failures and bounds', () => {
  test('connect failures fail the origin queue with E_CONNECT_FAILED and the cause', () => {
    const t = setup(strategy('browser', { connections: { maxPerOrigin: 1 } }));
    t.add('/a');
    t.add('/b');
    t.scheduler.connectionFailed(1, Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    expect(t.results.map((r) => [r.error?.code, r.error?.causeCode])).toEqual([
      ['E_CONNECT_FAILED', 'ECONNREFUSED'], ['E_CONNECT_FAILED', 'ECONNREFUSED'],
    ]);
    expect(t.scheduler.idle).toBe(true);
  });

  test.each([
    [{ url: 'not a url', priority: 'image' }, 'E_INVALID_URL'],
    [{ url: 'ftp://x.test/a', priority: 'image' }, 'E_UNSUPPORTED_SCHEME'],
    [{ url: 'http://x.test/a', priority: 'urgent' }, 'E_INVALID_PRIORITY'],
    [{ url: 'http://x.test/a', priority: 'image', method: 'get' }, 'E_INVALID_METHOD'],
    [{ url: 'http://x.test/a', priority: 'image', expectedSize: -1 }, 'E_INVALID_OPTION'],
  ])('enqueue(%j) throws %s', (spec, code) => {
    const t = setup(strategy('browser'));
    expect(() => t.scheduler.enqueue(spec as RequestSpec)).toThrow(expect.objectContaining({ code }));
  });

  test('the queue is bounded', () => {
    const clock = new FakeClock();
    const s = new Scheduler({ strategy: strategy('serial'), transport: new FakeTransport(), clock, maxQueued: 3 });
    for (let i = 0; i < 3; i++) s.enqueue({ url: `${O}/${i}`, priority: 'image' });
    expect(() => s.enqueue({ url: `${O}/x`, priority: 'image' })).toThrow(expect.objectContaining({ code: 'E_QUEUE_FULL' }));
  });

  test('close settles every request with E_SCHEDULER_CLOSED and closes connections; whenIdle resolves', async () => {
    const t = setup(strategy('browser', { connections: { maxPerOrigin: 1 } }));
    t.add('/a');
    t.add('/b');
    t.ready(1);
    const idle = t.scheduler.whenIdle();
    t.scheduler.close();
    await idle;
    expect(t.results.map((r) => r.error?.code)).toEqual(['E_SCHEDULER_CLOSED', 'E_SCHEDULER_CLOSED']);
    expect(t.transport.closedByScheduler).toEqual([1]);
  });

  test('unknown strategy and bad overrides are rejected with codes', () => {
    expect(() => strategy('fastest')).toThrow(expect.objectContaining({ code: 'E_UNKNOWN_STRATEGY' }));
    expect(() => strategy('browser', { connections: { maxPerOrigin: 0 } })).toThrow(expect.objectContaining({ code: 'E_INVALID_OPTION' }));
  });
});
