import { strategy, type Strategy } from './index';
import { setup } from '../../test/support/scheduler-harness';

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

describe('connections sized to the path (connections.fitToPath)', () => {
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
