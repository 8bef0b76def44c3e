import { Scheduler, SchedulerError, strategy, type RequestResult, type RequestSpec, type Strategy } from './index';
import { MemoryBudgets, keepAliveMax, observeBudget } from './request-budget';
import { MAX_SENDS, decideRetry } from './retry-policy';
import { contentTypeContradicts } from './content-type-check';
import { FakeClock, FakeTransport } from '../../test/support/fake-transport';

const O = 'http://a.test';
const coded = (code: string, message = code) => Object.assign(new Error(message), { code });

function setup(s: Strategy, budgets = new MemoryBudgets()) {
  const clock = new FakeClock();
  const transport = new FakeTransport();
  const results: RequestResult[] = [];
  const scheduler = new Scheduler({ strategy: s, transport, clock, budgets, observer: { onRequestSettled: (r) => results.push(r) } });
  const add = (path: string, extra: Partial<RequestSpec> = {}) => scheduler.enqueue({ url: `${O}${path}`, priority: 'image', ...extra });
  const start = (path: string, info: { keepAliveMax?: number; contentType?: string } = {}) =>
    scheduler.responseStarted(transport.dispatchOf(path).id, { status: 200, httpVersion: '1.1', keepAlive: true, ...info });
  const finish = (path: string, confirmed = true, contentType?: string) => {
    start(path, contentType ? { contentType } : {});
    scheduler.responseEnded(transport.dispatchOf(path).id, { bytes: 10, confirmed });
  };
  const ready = (id: number) => scheduler.connectionReady(id, { protocol: 'http/1.1' });
  const result = (path: string) => results.find((x) => x.url.endsWith(path));
  return { clock, transport, scheduler, results, add, start, finish, ready, result, budgets };
}

describe('retry accounting (browsers: a request unanswered on a reused connection is not a failed attempt)', () => {
  test('the policy: free on a reused connection before any byte, counted otherwise, final for timeouts, capped in sends', () => {
    const base = { idempotent: true, sends: 1, failedAttempts: 0, reused: true, idled: false, responseStarted: false, discarded: false };
    expect(decideRetry(base, new Error('x'))).toBe('requeue');
    expect(decideRetry({ ...base, reused: false }, new Error('x'))).toBe('requeue-counted');
    expect(decideRetry({ ...base, reused: false, failedAttempts: 1 }, new Error('x'))).toBe('fail');
    expect(decideRetry({ ...base, responseStarted: true }, new Error('x'))).toBe('requeue-counted');
    expect(decideRetry({ ...base, discarded: true, responseStarted: true }, new Error('x'))).toBe('requeue');
    expect(decideRetry({ ...base, sends: MAX_SENDS }, new Error('x'))).toBe('fail');
    expect(decideRetry(base, coded('E_REQUEST_TIMEOUT'))).toBe('fail');
    expect(decideRetry(base, coded('E_RESPONSE_STALLED'))).toBe('fail');
    expect(decideRetry({ ...base, idempotent: false }, new Error('x'))).toBe('fail');
  });

  test('a server that closes each connection after 3 responses: the 4th request is re-queued free, every time, and the budget is learned from the second close', () => {
    const t = setup(strategy('serial'));
    for (const p of ['/1', '/2', '/3', '/4', '/5', '/6', '/7']) t.add(p);
    t.ready(1);
    for (const p of ['/1', '/2', '/3']) t.finish(p);
    t.scheduler.connectionClosed(1, coded('UND_ERR_SOCKET', 'other side closed')); // /4 was written, never answered
    expect(t.result('/4')).toBeUndefined();
    t.ready(2);
    for (const p of ['/4', '/5', '/6']) t.finish(p);
    expect(t.transport.on(2).map((d) => d.request.path)).toEqual(['/4', '/5', '/6', '/7']);
    t.scheduler.connectionClosed(2, coded('UND_ERR_SOCKET', 'other side closed'));
    expect(t.budgets.get(O)?.budget).toBe(3);
    t.ready(3);
    t.finish('/7');
    expect(t.results.every((r) => !r.error)).toBe(true);
    expect(t.result('/4')?.attempts).toBe(2);
    // The next connection of the origin carries at most 3 and closes itself after them.
    for (const p of ['/8', '/9', '/10', '/11']) t.add(p);
    t.finish('/8');
    expect(t.transport.on(3).map((d) => d.request.path)).toEqual(['/7', '/8', '/9']);
    t.finish('/9');
    expect(t.transport.closedByScheduler).toContain(3);
  });

  test('a request lost on fresh connections uses its attempts and fails with E_CONNECTION_LOST', () => {
    const t = setup(strategy('serial'));
    t.add('/x');
    t.ready(1);
    t.scheduler.connectionClosed(1, coded('ECONNRESET'));
    t.ready(2);
    t.scheduler.connectionClosed(2, coded('ECONNRESET'));
    expect(t.result('/x')?.error).toMatchObject({ code: 'E_CONNECTION_LOST', causeCode: 'ECONNRESET' });
    expect(t.transport.sent).toHaveLength(2);
  });

  test('a timeout fails that request alone; the requests pipelined behind it are re-queued', () => {
    const t = setup(strategy('pipelined', { pipelining: { probeSuccesses: 0 } }));
    t.add('/warm');
    t.ready(1);
    t.finish('/warm');
    t.add('/slow');
    t.add('/b');
    expect(t.transport.dispatchOf('/b').pipelined).toBe(true);
    t.scheduler.dispatchFailed(t.transport.dispatchOf('/slow').id, coded('E_REQUEST_TIMEOUT', 'too slow'));
    expect(t.result('/slow')?.error?.code).toBe('E_REQUEST_TIMEOUT');
    expect(t.result('/b')).toBeUndefined();
    t.ready(2);
    t.finish('/b');
    expect(t.result('/b')?.error).toBeUndefined();
    expect(t.transport.sent.filter((d) => d.request.path === '/slow')).toHaveLength(1);
  });
});

describe('request budgets', () => {
  test('Keep-Alive: max=N stops pipelining at the budget: request N + 1 goes on another connection', () => {
    const t = setup(strategy('pipelined', { connections: { maxPerOrigin: 2 }, pipelining: { probeSuccesses: 0 } }));
    t.add('/0');
    t.ready(1);
    t.start('/0', { keepAliveMax: 2 }); // 3 requests on this connection in all
    for (const p of ['/1', '/2', '/3', '/4']) t.add(p);
    expect(t.transport.on(1).map((d) => d.request.path)).toEqual(['/0', '/1', '/2']);
    expect(t.transport.opened).toHaveLength(2);
    t.ready(2);
    expect(t.transport.on(2).map((d) => d.request.path)[0]).toBe('/3');
    expect(t.budgets.get(O)?.budget).toBe(3);
  });

  test('learning: Keep-Alive max at once, closes only when two agree; a budget only shrinks', () => {
    let f = observeBudget(undefined, { kind: 'closed-after', responses: 5 });
    expect(f.budget).toBeUndefined();
    f = observeBudget(f, { kind: 'closed-after', responses: 7 });
    expect(f.budget).toBeUndefined();
    f = observeBudget(f, { kind: 'closed-after', responses: 7 });
    expect(f.budget).toBe(7);
    f = observeBudget(f, { kind: 'keep-alive-max', requests: 100 });
    expect(f.budget).toBe(7);
    f = observeBudget(f, { kind: 'keep-alive-max', requests: 4 });
    expect(f.budget).toBe(4);
    expect(keepAliveMax('timeout=5, max=99')).toBe(99);
    expect(keepAliveMax('max=3')).toBe(3);
    expect(keepAliveMax('timeout=5')).toBeUndefined();
  });
});

describe('unconfirmed responses and desync', () => {
  test('an unconfirmed response frees its slot but settles only when confirmed', () => {
    const t = setup(strategy('pipelined', { pipelining: { probeSuccesses: 0 } }));
    t.add('/a');
    t.add('/b');
    t.ready(1);
    t.finish('/a', false);
    expect(t.result('/a')).toBeUndefined();
    expect(t.scheduler.idle).toBe(false);
    t.scheduler.responseConfirmed(t.transport.dispatchOf('/a').id);
    expect(t.result('/a')?.error).toBeUndefined();
  });

  test('a desync discards the unconfirmed responses and refetches them, unpipelined, without using attempts', () => {
    const t = setup(strategy('pipelined', { pipelining: { probeSuccesses: 0 } }));
    t.add('/warm');
    t.ready(1);
    t.finish('/warm');
    for (const p of ['/a', '/b', '/c']) t.add(p);
    t.finish('/a', false);
    t.finish('/b', false);
    t.scheduler.connectionClosed(1, coded('E_DESYNC', 'surplus response'));
    expect(t.scheduler.stats().demotions.map((d) => d.reason)).toEqual(['desync']);
    expect(t.results.map((r) => r.url.slice(O.length))).toEqual(['/warm']);
    t.ready(2);
    for (const p of ['/a', '/b', '/c']) t.finish(p);
    expect(t.transport.on(2).every((d) => !d.pipelined)).toBe(true);
    expect(t.results.map((r) => [r.url.slice(O.length), r.error?.code, r.attempts])).toEqual([
      ['/warm', undefined, 1], ['/a', undefined, 2], ['/b', undefined, 2], ['/c', undefined, 2],
    ]);
  });

  test('a request whose every attempt desyncs fails alone with E_DESYNC', () => {
    const t = setup(strategy('serial'));
    t.add('/bad');
    for (let conn = 1; conn <= MAX_SENDS; conn++) {
      t.ready(conn);
      t.finish('/bad', false);
      t.scheduler.connectionClosed(conn, coded('E_DESYNC', 'surplus'));
    }
    expect(t.result('/bad')?.error?.code).toBe('E_DESYNC');
    expect(t.transport.sent).toHaveLength(MAX_SENDS);
  });

  test('a request whose answers all desync fails with E_DESYNC even when its last send is lost unanswered (a keep-alive close)', () => {
    // A server that closes each connection after N responses: whether the last send meets a
    // closing connection is timing; the cause is that no answer could be trusted.
    const t = setup(strategy('serial'));
    t.add('/bad');
    for (let conn = 1; conn < MAX_SENDS; conn++) {
      t.ready(conn);
      t.finish('/bad', false);
      t.scheduler.connectionClosed(conn, coded('E_DESYNC', 'surplus'));
    }
    t.ready(MAX_SENDS);
    t.scheduler.connectionClosed(MAX_SENDS, coded('UND_ERR_SOCKET', 'other side closed'));
    expect(t.transport.sent).toHaveLength(MAX_SENDS);
    expect({ code: t.result('/bad')?.error?.code, message: t.result('/bad')?.error?.message }).toEqual({
      code: 'E_DESYNC', message: expect.stringContaining('the last was lost unanswered') as string,
    });
  });

  test('a request only ever lost unanswered still fails with E_CONNECTION_LOST', () => {
    const t = setup(strategy('serial'));
    t.add('/gone');
    for (let conn = 1; conn <= MAX_SENDS; conn++) {
      t.ready(conn);
      t.scheduler.connectionClosed(conn, coded('UND_ERR_SOCKET', 'other side closed'));
    }
    expect(t.result('/gone')?.error?.code).toBe('E_CONNECTION_LOST');
  });

  test('a bad response head keeps its own code; the request behind it is collateral and re-queued', () => {
    const t = setup(strategy('pipelined', { pipelining: { probeSuccesses: 0 } }));
    t.add('/warm');
    t.ready(1);
    t.finish('/warm');
    t.add('/huge');
    t.add('/next');
    t.scheduler.dispatchFailed(t.transport.dispatchOf('/huge').id, coded('E_BAD_RESPONSE', 'headers too large'));
    t.ready(2);
    t.scheduler.dispatchFailed(t.transport.dispatchOf('/huge').id, coded('E_BAD_RESPONSE', 'headers too large'));
    expect(t.result('/huge')?.error?.code).toBe('E_BAD_RESPONSE');
    t.ready(3);
    t.finish('/next');
    expect(t.result('/next')?.error).toBeUndefined();
  });

  test('a pipelined image answered with HTML: the connection is treated as desynchronised, both refetched unpipelined and accepted', () => {
    const t = setup(strategy('pipelined', { pipelining: { probeSuccesses: 0 } }));
    t.add('/warm');
    t.ready(1);
    t.finish('/warm');
    t.add('/a.png', { resourceType: 'image' });
    t.add('/b.png', { resourceType: 'image' });
    t.start('/a.png', { contentType: 'text/html; charset=utf-8' });
    expect(t.scheduler.stats().demotions.map((d) => d.reason)).toEqual(['content-type-mismatch']);
    expect(t.transport.closedByScheduler).toContain(1);
    t.ready(2);
    t.start('/a.png', { contentType: 'text/html' }); // alone on its connection: kept whatever its type
    t.scheduler.responseEnded(t.transport.dispatchOf('/a.png').id, { bytes: 5 });
    t.finish('/b.png');
    expect(t.results.map((r) => [r.url.slice(O.length), r.error?.code, r.pipelined])).toEqual([['/warm', undefined, false], ['/a.png', undefined, false], ['/b.png', undefined, false]]);
    // Recorded on the request, for --json and the popup; the others say nothing.
    expect(t.results.map((r) => [r.url.slice(O.length), r.contradiction])).toEqual([
      ['/warm', undefined],
      ['/a.png', 'answered 200 text/html; charset=utf-8 for a request of type image with other requests in flight on its connection: fetched again alone, that answer delivered'],
      ['/b.png', undefined],
    ]);
    expect(contentTypeContradicts('image', 'text/html', 404)).toBe(false);
    expect(contentTypeContradicts('document', 'text/html', 200)).toBe(false);
    expect(contentTypeContradicts('script', 'image/png', 200)).toBe(true);
    expect(contentTypeContradicts('image', 'application/octet-stream', 200)).toBe(false);
    expect(contentTypeContradicts('stylesheet', 'text/plain', 200)).toBe(false);
  });
});

describe('probing an origin that may answer out of order', () => {
  test('while probing, an image is not pipelined behind an image, but behind a stylesheet it is; once proven, anything goes', () => {
    const t = setup(strategy('pipelined', { connections: { maxPerOrigin: 1 }, pipelining: { probeSuccesses: 1 } }));
    t.add('/doc', { resourceType: 'document' });
    t.ready(1);
    t.start('/doc'); // keep-alive HTTP/1.1: probing starts
    t.add('/a.png', { resourceType: 'image' });
    t.add('/b.png', { resourceType: 'image' });
    t.add('/c.css', { resourceType: 'stylesheet' });
    const written = () => t.transport.on(1).map((d) => [d.request.path, d.pipelined]);
    expect(written()).toEqual([['/doc', false], ['/a.png', true]]);
    t.scheduler.responseEnded(t.transport.dispatchOf('/doc').id, { bytes: 1 });
    expect(written()).toHaveLength(2); // /b.png waits: an image behind an image (and /c.css behind it, FIFO)
    t.finish('/a.png');
    expect(written().slice(2)).toEqual([['/b.png', false], ['/c.css', true]]);
    t.finish('/b.png', true, 'image/png');
    t.finish('/c.css', true, 'text/css'); // written while /b.png was unanswered, and a swap would have shown: the origin is proven
    t.add('/d.png', { resourceType: 'image' });
    t.add('/e.png', { resourceType: 'image' });
    expect(written().slice(4)).toEqual([['/d.png', false], ['/e.png', true]]);
  });
});

describe('what the probe counts as proof that an origin keeps order', () => {
  /** A stylesheet first on an idle connection, then `behind` pipelined while it is unanswered. */
  const pair = (behind: { resourceType?: string; contentType: string }, cssType: string) => {
    const t = setup(strategy('pipelined'));
    t.add('/doc', { resourceType: 'document' });
    t.ready(1);
    t.finish('/doc', true, 'text/html'); // keep-alive HTTP/1.1: probing
    t.add('/a.css', { resourceType: 'stylesheet' });
    t.add('/b', behind.resourceType ? { resourceType: behind.resourceType } : {});
    expect(t.transport.dispatchOf('/b').pipelined).toBe(true);
    t.finish('/a.css', true, cssType);
    t.finish('/b', true, behind.contentType);
    // Alternating families, so the only limit on probation is the depth itself.
    for (let i = 0; i < 6; i++) t.add(`/r${i}`, { resourceType: i % 2 === 0 ? 'script' : 'image' });
    return t.transport.on(1).length - 3; // written after the pair, all at once
  };

  test('one pair the server held at once, answered in order, whose swap a Content-Type would have shown, earns full depth (probeSuccesses 1 by default)', () => {
    expect(strategy('getlist').pipelining).toMatchObject({ probeSuccesses: 1 });
    expect(pair({ resourceType: 'image', contentType: 'image/png' }, 'text/css')).toBe(6);
  });

  test('a pair whose swap would look the same (generic types) proves nothing: depth stays 2', () => {
    expect(pair({ resourceType: 'image', contentType: 'application/octet-stream' }, 'text/plain')).toBe(2);
  });

  test('a request of no known type is never pipelined on probation, behind anything or with anything behind it (a swap with it contradicts no Content-Type)', () => {
    const t = setup(strategy('pipelined'));
    t.add('/doc', { resourceType: 'document' });
    t.ready(1);
    t.finish('/doc', true, 'text/html'); // keep-alive HTTP/1.1: probing
    t.add('/a.css', { resourceType: 'stylesheet' });
    t.add('/b', {});
    t.add('/c.png', { resourceType: 'image' });
    const written = () => t.transport.on(1).map((d) => [d.request.path, d.pipelined]);
    expect(written().slice(1)).toEqual([['/a.css', false]]); // /b waits for an idle connection
    t.finish('/a.css', true, 'text/css');
    expect(written().slice(2)).toEqual([['/b', false]]); // and /c.png does not go behind it
    t.finish('/b', true, 'application/octet-stream');
    expect(written().slice(3)).toEqual([['/c.png', false]]);
  });
});

describe('safe targets', () => {
  test('a bad port settles at once with E_UNSAFE_PORT, nothing is opened; allowUnsafePorts overrides', async () => {
    const t = setup(strategy('browser'));
    t.scheduler.enqueue({ url: 'http://a.test:25/mail', priority: 'image' });
    expect(t.results[0]?.error?.code).toBe('E_UNSAFE_PORT');
    expect(t.transport.opened).toHaveLength(0);
    await t.scheduler.whenIdle();
    const transport = new FakeTransport();
    const s = new Scheduler({ strategy: strategy('browser'), transport, clock: new FakeClock(), allowUnsafePorts: true });
    s.enqueue({ url: 'http://a.test:25/mail', priority: 'image' });
    expect(transport.opened).toHaveLength(1);
  });

  test('close(why) settles what is pending with the given code', () => {
    const t = setup(strategy('browser'));
    t.add('/a');
    t.scheduler.close(new SchedulerError('E_LOAD_TIMEOUT', 'load timed out'));
    expect(t.result('/a')?.error?.code).toBe('E_LOAD_TIMEOUT');
  });
});

describe('a stalled response costs only itself (stalled-response.ts)', () => {
  test('what was pipelined behind it is abandoned and sent again on a new connection, beyond a one-connection limit; the stalled one stays', () => {
    const t = setup(strategy('pipelined', { pipelining: { probeSuccesses: 0 } }));
    t.add('/warm');
    t.ready(1);
    t.finish('/warm');
    for (const p of ['/a', '/b', '/c']) t.add(p);
    expect(t.transport.on(1).map((d) => d.request.path)).toEqual(['/warm', '/a', '/b', '/c']);
    t.start('/a');
    t.scheduler.responseStalled(t.transport.dispatchOf('/a').id);
    const [b, c] = ['/b', '/c'].map((p) => t.transport.on(1).find((d) => d.request.path === p)?.id);
    expect(t.transport.abandoned).toEqual([b, c]);
    // The stalled connection no longer counts toward the limit of one: a second one opens.
    expect(t.transport.opened.map((o) => o.id)).toEqual([1, 2]);
    t.ready(2);
    t.finish('/b');
    t.finish('/c');
    expect(t.transport.on(2).map((d) => d.request.path)).toEqual(['/b', '/c']);
    // The stalled one is left to its own timeouts; nothing new is written behind it.
    t.add('/d');
    t.finish('/d');
    expect(t.transport.on(1).map((d) => d.request.path)).toEqual(['/warm', '/a', '/b', '/c']);
    t.scheduler.dispatchFailed(t.transport.dispatchOf('/a').id, coded('E_REQUEST_TIMEOUT'));
    expect(t.results.map((r) => [r.url.slice(O.length), r.error?.code])).toEqual([['/warm', undefined], ['/b', undefined], ['/c', undefined], ['/d', undefined], ['/a', 'E_REQUEST_TIMEOUT']]);
  });
});

describe('an idle close racing the next request (idle-race.ts)', () => {
  /** `/a`, `/b`, `/c` each on its own connection, 1 to 3, all three ready. */
  const threeConnections = (s: Strategy) => {
    const t = setup(s);
    for (const p of ['/a', '/b', '/c']) t.add(p);
    for (const id of [1, 2, 3]) t.ready(id);
    return t;
  };

  test('a connection that sat idle before its first request counts as reused: that request, lost unanswered, is re-queued free; one handed a request at once is not', () => {
    const t = setup(strategy('serial'));
    t.scheduler.preconnect(O, 1);
    t.ready(1);
    t.clock.advance(200);
    t.add('/x');
    t.scheduler.connectionClosed(1, coded('UND_ERR_SOCKET', 'other side closed'));
    t.ready(2);
    t.scheduler.connectionClosed(2, coded('UND_ERR_SOCKET', 'other side closed'));
    t.ready(3);
    t.finish('/x');
    expect(t.result('/x')).toMatchObject({ attempts: 3, error: undefined });
    const fresh = setup(strategy('serial'));
    fresh.add('/x');
    fresh.ready(1);
    fresh.scheduler.connectionClosed(1, coded('UND_ERR_SOCKET', 'other side closed'));
    fresh.ready(2);
    fresh.scheduler.connectionClosed(2, coded('UND_ERR_SOCKET', 'other side closed'));
    expect(fresh.result('/x')?.error?.code).toBe('E_CONNECTION_LOST');
  });

  test('a request lost on a connection idle 100 ms: another idle 100 ms is closed, one idle 1 ms is kept, and the retry goes on a new connection, never a used one', () => {
    const t = threeConnections(strategy('browser'));
    for (const p of ['/a', '/b', '/c']) t.finish(p);
    t.clock.advance(95);
    t.add('/e');
    const young = t.transport.dispatchOf('/e').connectionId;
    t.clock.advance(5);
    t.add('/d');
    const lost = t.transport.dispatchOf('/d').connectionId;
    t.finish('/e');
    t.clock.advance(1);
    t.scheduler.connectionClosed(lost, coded('UND_ERR_SOCKET', 'other side closed'));
    const [old] = [1, 2, 3].filter((id) => id !== lost && id !== young);
    expect(t.transport.closedByScheduler).toEqual([old]);
    expect(t.transport.sent.filter((d) => d.request.path === '/d')).toHaveLength(1);
    expect(t.transport.opened.map((c) => c.id)).toEqual([1, 2, 3, 4]);
    t.ready(4);
    t.finish('/d');
    expect(t.result('/d')).toMatchObject({ attempts: 2, connectionId: 4, error: undefined });
    // The young connection is still the origin's, for requests that were not raced.
    t.add('/f');
    expect(t.transport.dispatchOf('/f').connectionId).toBe(young);
  });

  test('a request lost on a used connection handed it the moment it was free goes next on a new one, not on the other, idle, used one', () => {
    const t = setup(strategy('browser', { connections: { maxPerOrigin: 2 } }));
    t.add('/a');
    t.add('/b');
    t.ready(1);
    t.ready(2);
    t.add('/c');
    t.finish('/a'); // /c is handed to connection 1 at once
    t.finish('/b');
    expect(t.transport.dispatchOf('/c').connectionId).toBe(1);
    t.scheduler.connectionClosed(1, coded('UND_ERR_SOCKET', 'other side closed'));
    expect(t.transport.sent.filter((d) => d.request.path === '/c')).toHaveLength(1);
    expect(t.transport.opened.map((c) => c.id)).toEqual([1, 2, 3]);
    t.ready(3);
    t.finish('/c');
    expect(t.result('/c')).toMatchObject({ attempts: 2, connectionId: 3, error: undefined });
  });

  test('a raced retry behind others on a one-connection origin: the used connection holding unconfirmed responses is closed once they are trusted, and the retry goes on the next', () => {
    const t = setup(strategy('pipelined', { pipelining: { probeSuccesses: 0 } }));
    t.add('/w');
    t.ready(1);
    t.finish('/w');
    t.add('/v');
    t.finish('/v');
    for (const p of ['/a', '/b', '/c', '/d']) t.add(p);
    // Closed after 2 responses here and after 1 on the next: no per-connection budget is learned.
    expect(t.transport.on(1).map((d) => d.request.path)).toEqual(['/w', '/v', '/a', '/b', '/c', '/d']);
    t.scheduler.connectionClosed(1, coded('UND_ERR_SOCKET', 'other side closed'));
    t.ready(2);
    t.finish('/a'); // the retries go one at a time: /b is handed to connection 2 the moment /a ends
    expect(t.transport.dispatchOf('/b').connectionId).toBe(2);
    t.scheduler.connectionClosed(2, coded('UND_ERR_SOCKET', 'other side closed'));
    t.ready(3);
    // Ended, not trusted yet: connection 3 holds them.
    t.finish('/c', false);
    t.finish('/d', false);
    expect(t.transport.dispatchOf('/d').connectionId).toBe(3);
    expect(t.transport.dispatchOf('/b').connectionId).toBe(2);
    expect(t.transport.opened.map((c) => c.id)).toEqual([1, 2, 3]);
    t.scheduler.responseConfirmed(t.transport.dispatchOf('/c').id);
    t.scheduler.responseConfirmed(t.transport.dispatchOf('/d').id);
    expect(t.transport.closedByScheduler).toContain(3);
    expect(t.transport.opened.map((c) => c.id)).toEqual([1, 2, 3, 4]);
    t.ready(4);
    t.finish('/b');
    expect(t.results.map((r) => [r.url.slice(O.length), r.attempts, r.connectionId, r.error?.code])).toEqual([
      ['/w', 1, 1, undefined], ['/v', 1, 1, undefined], ['/a', 2, 2, undefined], ['/c', 2, 3, undefined], ['/d', 2, 3, undefined], ['/b', 3, 4, undefined],
    ]);
  });

  test('a raced retry waiting for a new connection does not hold up a retry behind it that an idle used connection may take', () => {
    const t = threeConnections(strategy('browser', { connections: { maxPerOrigin: 3 } }));
    t.finish('/a');
    t.add('/d'); // on connection 1, idle: raced when it is lost
    expect(t.transport.dispatchOf('/d').connectionId).toBe(1);
    t.scheduler.connectionClosed(1, coded('UND_ERR_SOCKET', 'other side closed'));
    t.scheduler.connectionClosed(2, coded('ECONNRESET')); // /b, alone on a fresh connection: not raced
    t.finish('/c'); // connection 3 is idle, used: /b may take it, /d may not
    expect(t.transport.dispatchOf('/b').connectionId).toBe(3);
    expect(t.transport.dispatchOf('/d').connectionId).toBe(1);
    const next = (t.transport.opened.at(-1) as { id: number }).id;
    t.ready(next);
    expect(t.transport.dispatchOf('/d').connectionId).toBe(next);
  });

  test('with every other connection as old as the one that lost it, the retry waits for a new connection opened in their place', () => {
    const t = threeConnections(strategy('browser'));
    for (const p of ['/a', '/b', '/c']) t.finish(p);
    t.clock.advance(100);
    t.add('/d');
    const lost = t.transport.dispatchOf('/d').connectionId;
    t.scheduler.connectionClosed(lost, coded('UND_ERR_SOCKET', 'other side closed'));
    expect(t.transport.closedByScheduler.sort()).toEqual([1, 2, 3].filter((id) => id !== lost));
    const opened = t.transport.opened.map((c) => c.id);
    expect(opened).toHaveLength(4);
    expect(t.transport.sent.filter((d) => d.request.path === '/d')).toHaveLength(1);
    t.ready(4);
    t.finish('/d');
    expect(t.result('/d')).toMatchObject({ attempts: 2, connectionId: 4, error: undefined });
  });
});
