import { Scheduler, strategy, type RequestResult, type RequestSpec, type Strategy } from './index';
import { FakeClock, FakeTransport } from '../../test/support/fake-transport';

const O = 'http://a.test';

function setup(s: Strategy) {
  const clock = new FakeClock();
  const transport = new FakeTransport();
  const results: RequestResult[] = [];
  const scheduler = new Scheduler({ strategy: s, transport, clock, observer: { onRequestSettled: (r) => results.push(r) } });
  const add = (path: string, extra: Partial<RequestSpec> = {}) =>
    scheduler.enqueue({ url: `${O}${path}`, priority: 'image', ...extra });
  /** Completes a dispatch: headers then body. */
  const finish = (path: string, opts: { bytes?: number; version?: string; keepAlive?: boolean; length?: number; contentType?: string } = {}) => {
    const d = transport.dispatchOf(path);
    scheduler.responseStarted(d.id, { status: 200, httpVersion: opts.version ?? '1.1', keepAlive: opts.keepAlive ?? true, contentLength: opts.length, ...(opts.contentType ? { contentType: opts.contentType } : {}) });
    scheduler.responseEnded(d.id, { bytes: opts.bytes ?? 100 });
  };
  const ready = (id: number, protocol: 'h2' | 'http/1.1' = 'http/1.1') => scheduler.connectionReady(id, { protocol });
  const result = (path: string) => {
    const r = results.find((x) => x.url.endsWith(path));
    if (!r) throw new Error(`no result for ${path}`);
    return r;
  };
  return { clock, transport, scheduler, results, add, finish, ready, result };
}

describe('priority order', () => {
  test('a document enqueued last is sent first; classes in order; FIFO within a class', () => {
    const t = setup(strategy('serial', { ordering: 'priorities' }));
    t.add('/img1', { priority: 'image' });
    t.add('/async', { priority: 'script' });
    t.add('/img2', { priority: 'image' });
    t.add('/css', { priority: 'blocking' });
    t.add('/doc', { priority: 'document' });
    expect(t.transport.sent).toHaveLength(0); // nothing is bound to a connection still handshaking
    t.ready(1);
    for (const p of ['/doc', '/css', '/async', '/img1']) {
      expect(t.transport.sent.at(-1)?.request.path).toBe(p);
      t.finish(p);
    }
    expect(t.transport.paths()).toEqual(['/doc', '/css', '/async', '/img1', '/img2']);
  });

  test('within a class, a stylesheet found later goes before a script found earlier (h2 stream order); without priorities, discovery order', () => {
    const sent = (s: Strategy) => {
      const t = setup(s);
      t.add('/sync.js', { priority: 'blocking', resourceType: 'script' });
      t.add('/img', { priority: 'image', resourceType: 'image' });
      t.add('/imported.css', { priority: 'blocking', resourceType: 'stylesheet' });
      t.add('/async.js', { priority: 'script', resourceType: 'script' });
      t.ready(1, 'h2');
      return t.transport.paths();
    };
    // One h2 connection takes all four at once: the order they are written is the order a server
    // that ignores priority signals answers in.
    expect(sent(strategy('h2', { connections: { maxPerOrigin: 1 } }))).toEqual(['/imported.css', '/sync.js', '/async.js', '/img']);
    expect(sent(strategy('getlist'))).toEqual(['/imported.css', '/sync.js', '/async.js', '/img']);
    expect(sent(strategy('h2', { ordering: 'fifo' }))).toEqual(['/sync.js', '/img', '/imported.css', '/async.js']);
  });

  test('without priorities (browser) requests go in discovery order', () => {
    const t = setup(strategy('browser', { connections: { maxPerOrigin: 1 } }));
    t.add('/img', { priority: 'image' });
    t.add('/doc', { priority: 'document' });
    t.ready(1);
    t.finish('/img');
    expect(t.transport.paths()).toEqual(['/img', '/doc']);
  });
});

describe('dispatch policy', () => {
  test('a queued request goes to whichever connection is ready first (decoupling)', () => {
    const t = setup(strategy('browser', { connections: { maxPerOrigin: 2 } }));
    t.add('/a');
    t.add('/b');
    expect(t.transport.opened.map((c) => c.id)).toEqual([1, 2]);
    t.ready(2); // the second handshake finishes first
    expect(t.transport.dispatchOf('/a').connectionId).toBe(2);
    t.finish('/a');
    // connection 1 is still handshaking: /b must not wait for it
    expect(t.transport.dispatchOf('/b').connectionId).toBe(2);
    expect(t.result('/a').reused).toBe(false);
    t.finish('/b');
    expect(t.result('/b').reused).toBe(true);
    t.ready(1);
    expect(t.transport.on(1)).toHaveLength(0);
  });

  test('opens connections only for demand the ready ones cannot absorb, up to the limit', () => {
    const t = setup(strategy('browser'));
    for (let i = 0; i < 10; i++) t.add(`/r${i}`);
    expect(t.transport.opened).toHaveLength(6);
    const t2 = setup(strategy('browser'));
    t2.add('/only');
    expect(t2.transport.opened).toHaveLength(1);
  });

  test('idle connections are preferred over pipelining on a busy one', () => {
    const t = setup(strategy('getlist', { pipelining: { probeSuccesses: 0 } }));
    t.add('/doc', { priority: 'document' });
    t.ready(1);
    t.finish('/doc'); // origin is now known to keep connections alive → good (probeSuccesses 0)
    t.add('/x');
    t.add('/y');
    expect(t.transport.dispatchOf('/x').connectionId).toBe(1);
    expect(t.transport.dispatchOf('/y').pipelined).toBe(true);
  });
});

describe('connections sized to the path (adaptConnectionsToPath)', () => {
  /** A document on connection 1 whose body arrives as `chunks` (bytes, ms apart), then `images` found. */
  function load(chunks: Array<[number, number]>, images: number, opts: { fail?: boolean } = {}) {
    const t = setup(strategy('getlist'));
    t.add('/doc', { priority: 'document' });
    t.scheduler.connectionReady(1, { protocol: 'http/1.1', handshakeRttMs: 70 });
    t.clock.advance(70);
    const doc = t.transport.dispatchOf('/doc').id;
    t.scheduler.responseStarted(doc, { status: 200, httpVersion: '1.1', keepAlive: true });
    const opened: number[] = [];
    for (const [bytes, gap] of chunks) {
      t.clock.advance(gap);
      t.scheduler.responseData(doc, bytes);
      if (opened.length === 0) for (let i = 0; i < images; i++) t.add(`/img${opened.length}-${i}`);
      opened.push(t.transport.opened.length);
    }
    if (opts.fail) t.scheduler.dispatchFailed(doc, new Error('reset'), false);
    return { t, opened };
  }

  test('a slow path (1.544 Mbit/s, 70 ms): no connection opens while the first flight is measured, then one', () => {
    const { t, opened } = load([[1448, 0], [1448, 7.5], [1448, 7.5], [1448, 7.5], [1448, 7.5], [1448, 7.5], [1448, 7.5], [1448, 7.5], [1448, 7.5], [1448, 7.5]], 40);
    // Images are known from the first chunk on, yet nothing opens until the estimate.
    expect(opened.slice(0, 8)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    // 8 segments counted: 11,584 B in 60 ms = 193 B/ms; 2 × 193 × 70 / 14,480 = 1.87 → 2.
    expect(t.transport.opened).toHaveLength(2);
  });

  test('a fast path (the first flight in one read) keeps the full six', () => {
    const { t } = load([[13_032, 0]], 40);
    expect(t.transport.opened).toHaveLength(6);
  });

  test('a first response too short to measure decides at its end: the strategy\'s limit', () => {
    const { t } = load([[600, 0], [600, 1]], 40);
    expect(t.transport.opened).toHaveLength(1); // still measuring
    t.scheduler.responseEnded(t.transport.dispatchOf('/doc').id, { bytes: 1200 });
    expect(t.transport.opened).toHaveLength(6);
  });

  test('a first response that fails ends the measurement too: nothing waits for ever', () => {
    const { t } = load([[600, 0]], 40, { fail: true });
    expect(t.transport.opened).toHaveLength(6);
  });

  test('strategies without it open their limit at once', () => {
    const t = setup(strategy('browser'));
    t.add('/doc', { priority: 'document' });
    t.scheduler.connectionReady(1, { protocol: 'http/1.1', handshakeRttMs: 70 });
    t.scheduler.responseStarted(t.transport.dispatchOf('/doc').id, { status: 200, httpVersion: '1.1', keepAlive: true });
    t.scheduler.responseData(t.transport.dispatchOf('/doc').id, 1448);
    for (let i = 0; i < 10; i++) t.add(`/i${i}`);
    expect(t.transport.opened).toHaveLength(6);
  });
});

describe('pipelining', () => {
  test('health: depth 1 while unknown, 2 while probing, full once proven', () => {
    // The framing probe (order-probe.ts) is off: this is the content-type proof alone.
    const t = setup(strategy('getlist', { connections: { maxPerOrigin: 1 }, pipelining: { maxDepth: 5, probeSuccesses: 2, orderProbe: false } }));
    // Images and scripts in turn: each pipelined pair is one a swap would show (content-type-check.ts).
    const type = (i: number) => (i % 2 === 0 ? 'image/png' : 'application/javascript');
    for (let i = 0; i < 12; i++) t.add(`/r${i}`, { resourceType: i % 2 === 0 ? 'image' : 'script' });
    t.ready(1);
    expect(t.transport.sent).toHaveLength(1); // unknown
    t.finish('/r0', { contentType: type(0) });
    expect(t.transport.on(1).length - 1).toBe(2); // probing: r1, r2 outstanding
    t.finish('/r1', { contentType: type(1) });
    expect(t.transport.dispatchOf('/r3').pipelined).toBe(true);
    t.finish('/r2', { contentType: type(2) });
    t.finish('/r3', { contentType: type(3) }); // two order proofs → good
    const outstanding = t.transport.sent.filter((d) => !t.results.some((r) => r.url.endsWith(d.request.path)));
    expect(outstanding).toHaveLength(5);
  });

  test('probing starts at the first keep-alive HTTP/1.1 header, so the document\'s connection pipelines what the document reveals', () => {
    const t = setup(strategy('getlist', { connections: { maxPerOrigin: 1 } }));
    t.add('/doc', { priority: 'document' });
    t.ready(1);
    t.add('/css', { priority: 'blocking' });
    expect(t.transport.paths()).toEqual(['/doc']); // unknown: depth 1
    t.scheduler.responseStarted(t.transport.dispatchOf('/doc').id, { status: 200, httpVersion: '1.1', keepAlive: true });
    expect(t.transport.paths()).toEqual(['/doc', '/css']);
    expect(t.transport.dispatchOf('/css').pipelined).toBe(true);
    t.add('/img');
    expect(t.transport.paths()).toEqual(['/doc', '/css']); // probing: depth 2
  });

  test('a header that asks to close, or says HTTP/1.0, does not start probing', () => {
    for (const head of [{ httpVersion: '1.1', keepAlive: false }, { httpVersion: '1.0', keepAlive: true }]) {
      const t = setup(strategy('getlist', { connections: { maxPerOrigin: 1 } }));
      t.add('/doc', { priority: 'document' });
      t.ready(1);
      t.add('/css', { priority: 'blocking' });
      t.scheduler.responseStarted(t.transport.dispatchOf('/doc').id, { status: 200, ...head });
      expect(t.transport.paths()).toEqual(['/doc']);
    }
  });

  test('only GET/HEAD are pipelined, and nothing is pipelined behind a POST', () => {
    const t = setup(strategy('getlist', { connections: { maxPerOrigin: 1 }, pipelining: { probeSuccesses: 0 } }));
    t.add('/warm');
    t.ready(1);
    t.finish('/warm');
    t.add('/post', { method: 'POST' });
    t.add('/after');
    expect(t.transport.paths()).toEqual(['/warm', '/post']);
    t.finish('/post');
    expect(t.transport.paths()).toEqual(['/warm', '/post', '/after']);
    expect(t.result('/post').pipelined).toBe(false);
  });

  test('a POST never goes behind outstanding GETs', () => {
    const t = setup(strategy('getlist', { connections: { maxPerOrigin: 1 }, pipelining: { probeSuccesses: 0 } }));
    t.add('/warm');
    t.ready(1);
    t.finish('/warm');
    t.add('/g1');
    t.add('/post', { method: 'POST' });
    expect(t.transport.paths()).toEqual(['/warm', '/g1']);
  });

  test('nothing is pipelined behind a response declared or learned to be large', () => {
    const t = setup(strategy('getlist', { connections: { maxPerOrigin: 1 }, pipelining: { probeSuccesses: 0, largeResponseBytes: 1000 } }));
    t.add('/warm');
    t.ready(1);
    t.finish('/warm');
    t.add('/big', { expectedSize: 5000 });
    t.add('/small');
    expect(t.transport.paths()).toEqual(['/warm', '/big']);
    t.finish('/big', { bytes: 5000 });
    expect(t.transport.paths()).toEqual(['/warm', '/big', '/small']);
    // a Content-Length seen in headers stops further pipelining too
    t.add('/s2');
    const small = t.transport.dispatchOf('/small');
    t.scheduler.responseStarted(small.id, { status: 200, httpVersion: '1.1', keepAlive: true, contentLength: 4000 });
    expect(t.transport.dispatchOf('/s2').pipelined).toBe(true); // was written before the headers arrived
    t.add('/s3');
    expect(t.transport.paths()).not.toContain('/s3');
  });
});

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

  test('Connection: close mid-pipeline demotes; requests behind are retried', () => {
    const t = pipelinedThree();
    t.finish('/p1', { keepAlive: false });
    expect(t.scheduler.stats().demotions.map((d) => d.reason)).toEqual(['connection-close-mid-pipeline']);
    t.scheduler.connectionClosed(1);
    t.ready(2);
    t.finish('/p2');
    t.finish('/p3');
    expect(t.results.every((r) => !r.error)).toBe(true);
    expect(t.transport.on(2).every((d) => !d.pipelined)).toBe(true);
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

  test('a response known to be smaller than minPauseBytes is not paused, or is resumed once its size is known', () => {
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
