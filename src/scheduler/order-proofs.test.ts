import { Scheduler, strategy, type Dispatch, type RequestResult, type Strategy } from './index';
import { InMemoryOriginMemory } from '../origins/origin-memory';
import { FakeClock, FakeTransport } from '../../test/support/fake-transport';

/**
 * The two order proofs that need no `Content-Type` contrast (response-fingerprint.ts,
 * order-probe.ts), on a fake transport: what is written where, and which results are delivered.
 */

const H = 'http://a.test';
const IMAGES = 8;

function setup(s: Strategy, memory: InMemoryOriginMemory) {
  const clock = new FakeClock();
  const transport = new FakeTransport();
  const results: RequestResult[] = [];
  const scheduler = new Scheduler({ strategy: s, transport, clock, memory, observer: { onRequestSettled: (r) => results.push(r) } });
  const start = (d: Dispatch, contentType = 'image/gif') => scheduler.responseStarted(d.id, { status: 200, httpVersion: '1.1', keepAlive: true, contentType, contentLength: 100 });
  /** Answers `d` with the body whose digest is `digest`. */
  const answer = (d: Dispatch, digest: string, contentType = 'image/gif') => {
    start(d, contentType);
    scheduler.responseEnded(d.id, { bytes: 100, ...(d.fingerprint ? { digest } : {}) });
  };
  /** A document on connection 1, started, then the images it names (probing from here). */
  const page = () => {
    scheduler.enqueue({ url: `${H}/doc`, priority: 'document', resourceType: 'document' });
    scheduler.connectionReady(1, { protocol: 'http/1.1' });
    const doc = transport.dispatchOf('/doc');
    start(doc, 'text/html');
    for (let i = 0; i < IMAGES; i++) scheduler.enqueue({ url: `${H}/i${i}`, priority: 'image', resourceType: 'image' });
    answer(doc, 'doc', 'text/html');
  };
  const get = (path: string) => [...transport.sent].reverse().find((d) => d.request.path === path && d.request.method === 'GET') as Dispatch;
  const delivered = () => results.map((r) => new URL(r.url).pathname);
  return { clock, transport, scheduler, results, page, answer, get, delivered };
}

/** A memory that remembers every image's body (digest `body-i`), as a first visit leaves it. */
function remembered(): InMemoryOriginMemory {
  const memory = new InMemoryOriginMemory();
  for (let i = 0; i < IMAGES; i++) memory.putFingerprint(`${H}/i${i}`, `100:body-${i}`);
  return memory;
}

const ONE = { connections: { maxPerOrigin: 1 }, pipelining: { orderProbe: false } };

describe('fingerprint pairs (revisit)', () => {
  test('two images with different remembered bodies are pipelined as a pair; in order, both are released together and the origin earns full depth', () => {
    const t = setup(strategy('getlist', ONE), remembered());
    t.page();
    expect(t.transport.paths()).toEqual(['/doc', '/i0', '/i1']);
    expect(t.get('/i1').pipelined).toBe(true);
    t.answer(t.get('/i0'), 'body-0');
    // Its own body, but its partner is still unanswered: nothing is delivered yet.
    expect(t.delivered()).toEqual(['/doc']);
    t.answer(t.get('/i1'), 'body-1');
    expect(t.delivered()).toEqual(['/doc', '/i0', '/i1']);
    expect(t.scheduler.stats().demotions).toEqual([]);
    // Proven: every image left goes at once on the one connection.
    expect(t.transport.on(1).map((d) => d.request.path)).toEqual(['/doc', '/i0', '/i1', ...Array.from({ length: IMAGES - 2 }, (_, i) => `/i${i + 2}`)]);
  });

  test('without remembered bodies no image is pipelined behind an image', () => {
    const t = setup(strategy('getlist', ONE), new InMemoryOriginMemory());
    t.page();
    expect(t.transport.paths()).toEqual(['/doc', '/i0']);
  });

  test('two images with the same remembered body are no pair', () => {
    const memory = new InMemoryOriginMemory();
    for (let i = 0; i < IMAGES; i++) memory.putFingerprint(`${H}/i${i}`, '100:same');
    const t = setup(strategy('getlist', ONE), memory);
    t.page();
    expect(t.transport.paths()).toEqual(['/doc', '/i0']);
  });

  test('a swap (each answered with the other\'s remembered body) delivers neither: the connection is closed, the origin demoted, both fetched again alone', () => {
    const memory = remembered();
    const t = setup(strategy('getlist', ONE), memory);
    t.page();
    t.answer(t.get('/i0'), 'body-1');
    t.answer(t.get('/i1'), 'body-0');
    expect(t.delivered()).toEqual(['/doc']);
    expect(t.transport.closedByScheduler).toContain(1);
    expect(t.scheduler.stats().demotions.map((d) => d.reason)).toEqual(['fingerprint-swap']);
    expect(memory.get(H)?.pipelining).toBe('bad');
    t.scheduler.connectionReady(2, { protocol: 'http/1.1' });
    // The first retry goes alone: nothing behind it.
    expect(t.transport.on(2).map((d) => d.request.path)).toEqual(['/i0']);
    t.answer(t.get('/i0'), 'body-0');
    expect(t.transport.on(2).map((d) => [d.request.path, d.pipelined])).toEqual([['/i0', false], ['/i1', false]]);
  });

  test('a changed body discards both (even the one that matched its own) and fetches both again unpipelined; no proof, no demotion, the new body remembered', () => {
    const memory = remembered();
    const t = setup(strategy('getlist', ONE), memory);
    t.page();
    t.answer(t.get('/i0'), 'body-0');
    t.answer(t.get('/i1'), 'body-1-new');
    expect(t.delivered()).toEqual(['/doc']);
    expect(t.scheduler.stats().demotions).toEqual([]);
    expect(memory.get(H)?.pipelining).toBeUndefined();
    // Fetched again alone (a retry), on the same connection: it stays in step.
    const again = t.transport.on(1).slice(3);
    expect(again.map((d) => [d.request.path, d.pipelined])).toEqual([['/i0', false]]);
    t.answer(again[0] as Dispatch, 'body-0');
    t.answer(t.transport.on(1)[4] as Dispatch, 'body-1-new');
    expect(t.delivered()).toEqual(['/doc', '/i0', '/i1']);
    expect(memory.fingerprint(`${H}/i1`)).toBe('100:body-1-new');
  });

  test('a connection lost after one member ended: that member is not delivered, it is fetched again', () => {
    const t = setup(strategy('getlist', ONE), remembered());
    t.page();
    t.answer(t.get('/i0'), 'body-0');
    t.scheduler.connectionClosed(1);
    expect(t.delivered()).toEqual(['/doc']);
    t.scheduler.connectionReady(2, { protocol: 'http/1.1' });
    expect(t.transport.on(2).map((d) => d.request.path)).toEqual(['/i0']);
  });

  test('a pair whose framing the transport has not confirmed yet is released only when it is', () => {
    const t = setup(strategy('getlist', ONE), remembered());
    t.page();
    const [i0, i1] = [t.get('/i0'), t.get('/i1')];
    t.scheduler.responseStarted(i0.id, { status: 200, httpVersion: '1.1', keepAlive: true, contentType: 'image/gif' });
    t.scheduler.responseEnded(i0.id, { bytes: 100, confirmed: false, digest: 'body-0' });
    t.scheduler.responseStarted(i1.id, { status: 200, httpVersion: '1.1', keepAlive: true, contentType: 'image/gif' });
    t.scheduler.responseEnded(i1.id, { bytes: 100, confirmed: false, digest: 'body-1' });
    expect(t.delivered()).toEqual(['/doc']);
    t.scheduler.responseConfirmed(i0.id);
    t.scheduler.responseConfirmed(i1.id);
    expect(t.delivered()).toEqual(['/doc', '/i0', '/i1']);
  });

  test('a first visit asks for digests on an unproven origin and remembers them; a proven origin asks for none', () => {
    const memory = new InMemoryOriginMemory();
    const t = setup(strategy('getlist', ONE), memory);
    t.page();
    expect(t.get('/i0').fingerprint).toBe(true);
    t.answer(t.get('/i0'), 'body-0');
    expect(memory.fingerprint(`${H}/i0`)).toBe('100:body-0');
    memory.put({ origin: H, pipelining: 'good' });
    const proven = setup(strategy('getlist', ONE), memory);
    proven.page();
    expect(proven.get('/i0').fingerprint).toBe(false);
  });
});

describe('the HEAD + GET framing probe (first visit)', () => {
  const SIX = { pipelining: { orderProbe: true } };

  test('with more images waiting than connections, a HEAD of the first is pipelined right ahead of its GET behind the started document; a clean answer earns full depth; the HEAD is counted, never reported', () => {
    const t = setup(strategy('getlist', SIX), new InMemoryOriginMemory());
    t.page();
    const on1 = t.transport.on(1).map((d) => `${d.request.method} ${d.request.path}`);
    expect(on1).toEqual(['GET /doc', 'HEAD /i0', 'GET /i0']);
    expect(t.scheduler.stats().orderProbes).toBe(1);
    const head = t.transport.on(1)[1] as Dispatch;
    t.scheduler.responseStarted(head.id, { status: 200, httpVersion: '1.1', keepAlive: true, contentType: 'image/gif' });
    t.scheduler.responseEnded(head.id, { bytes: 0 });
    t.answer(t.get('/i0'), 'body-0');
    // Proven: the rest go pipelined on the connection that proved it.
    expect(t.transport.on(1).slice(3).map((d) => d.request.path)).toEqual(Array.from({ length: IMAGES - 1 }, (_, i) => `/i${i + 1}`));
    expect(t.delivered()).toEqual(['/doc', '/i0']);
    expect(t.results.every((r) => r.method === 'GET')).toBe(true);
  });

  test('the proof counts once the GET\'s head declares a body: full depth does not wait for a body the server holds back; an empty GET proves nothing until it ends', () => {
    /** The page, the probe's HEAD answered, then the head of its GET declaring `contentLength`. */
    const probeGetHead = (contentLength: number) => {
      const t = setup(strategy('getlist', SIX), new InMemoryOriginMemory());
      t.page();
      const head = t.transport.on(1)[1] as Dispatch;
      t.scheduler.responseStarted(head.id, { status: 200, httpVersion: '1.1', keepAlive: true, contentType: 'image/gif' });
      t.scheduler.responseEnded(head.id, { bytes: 0 });
      t.scheduler.responseStarted(t.get('/i0').id, { status: 200, httpVersion: '1.1', keepAlive: true, contentType: 'image/gif', contentLength });
      return t;
    };
    const t = probeGetHead(100);
    // Its body has not arrived, and the rest are pipelined behind it already.
    expect(t.transport.on(1).slice(3).map((d) => d.request.path)).toEqual(Array.from({ length: IMAGES - 1 }, (_, i) => `/i${i + 1}`));
    t.scheduler.responseEnded(t.get('/i0').id, { bytes: 100 });
    expect(t.delivered()).toEqual(['/doc', '/i0']);
    expect(probeGetHead(0).transport.on(1)).toHaveLength(3);
  });

  test('no probe with fewer waiting requests than connections, nor a second one, nor under strategies without it', () => {
    const few = setup(strategy('getlist', { ...SIX, connections: { maxPerOrigin: IMAGES + 1 } }), new InMemoryOriginMemory());
    few.page();
    expect(few.transport.sent.filter((d) => d.request.method === 'HEAD')).toEqual([]);
    const off = setup(strategy('pipelined', { connections: { maxPerOrigin: 1 } }), new InMemoryOriginMemory());
    off.page();
    expect(off.transport.sent.filter((d) => d.request.method === 'HEAD')).toEqual([]);
  });

  test('the probe goes behind a started response only when it is short: behind a large one it waits for an idle connection', () => {
    const t = setup(strategy('getlist', SIX), new InMemoryOriginMemory());
    t.scheduler.enqueue({ url: `${H}/doc`, priority: 'document', resourceType: 'document' });
    t.scheduler.connectionReady(1, { protocol: 'http/1.1' });
    const doc = t.transport.dispatchOf('/doc');
    t.scheduler.responseStarted(doc.id, { status: 200, httpVersion: '1.1', keepAlive: true, contentType: 'text/html', contentLength: 500_000 });
    for (let i = 0; i < IMAGES; i++) t.scheduler.enqueue({ url: `${H}/i${i}`, priority: 'image', resourceType: 'image' });
    expect(t.transport.sent.filter((d) => d.request.method === 'HEAD')).toEqual([]);
    t.scheduler.connectionReady(2, { protocol: 'http/1.1' });
    expect(t.transport.on(2).map((d) => `${d.request.method} ${d.request.path}`)).toEqual(['HEAD /i0', 'GET /i0']);
  });

  test('no probe on an origin that has shown no persistent HTTP/1.1 response (it said `Connection: close`)', () => {
    const t = setup(strategy('getlist', SIX), new InMemoryOriginMemory());
    t.scheduler.enqueue({ url: `${H}/doc`, priority: 'document', resourceType: 'document' });
    t.scheduler.connectionReady(1, { protocol: 'http/1.1' });
    t.scheduler.responseStarted(t.transport.dispatchOf('/doc').id, { status: 200, httpVersion: '1.1', keepAlive: false, contentType: 'text/html' });
    for (let i = 0; i < IMAGES; i++) t.scheduler.enqueue({ url: `${H}/i${i}`, priority: 'image', resourceType: 'image' });
    t.scheduler.responseEnded(t.transport.dispatchOf('/doc').id, { bytes: 100 });
    expect(t.transport.sent.filter((d) => d.request.method === 'HEAD')).toEqual([]);
    expect(t.scheduler.stats().orderProbes).toBe(0);
  });

  test('a desync on the probe (a swapped answer breaks the framing): the HEAD is dropped, not retried; its GET is fetched again alone; the origin is demoted', () => {
    const memory = new InMemoryOriginMemory();
    const t = setup(strategy('getlist', SIX), memory);
    t.page();
    const desync = Object.assign(new Error('bytes where a status line was due'), { code: 'E_DESYNC' });
    t.scheduler.connectionClosed(1, desync);
    expect(memory.get(H)?.pipelining).toBe('bad');
    t.scheduler.connectionReady(2, { protocol: 'http/1.1' });
    expect(t.transport.on(2).map((d) => `${d.request.method} ${d.request.path}`)).toEqual(['GET /i0']);
    expect(t.scheduler.stats().orderProbes).toBe(1);
  });

  test('no probe on a revisit whose requests have remembered bodies: the fingerprint pair proves it for free', () => {
    const t = setup(strategy('getlist', { ...SIX, connections: { maxPerOrigin: 1 } }), remembered());
    t.page();
    expect(t.transport.sent.filter((d) => d.request.method === 'HEAD')).toEqual([]);
    expect(t.transport.paths()).toEqual(['/doc', '/i0', '/i1']);
  });
});
