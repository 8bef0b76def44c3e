import { preconnectCount, preconnectPlan, Scheduler, strategy, type RequestResult, type Strategy } from './index';
import { InMemoryOriginMemory } from '../origins/origin-memory';
import { FakeClock, FakeTransport } from '../../test/support/fake-transport';

const H = 'http://a.test';
const S = 'https://s.test';

function setup(s: Strategy, memory?: InMemoryOriginMemory) {
  const clock = new FakeClock();
  const transport = new FakeTransport();
  const results: RequestResult[] = [];
  const scheduler = new Scheduler({ strategy: s, transport, clock, ...(memory ? { memory } : {}), observer: { onRequestSettled: (r) => results.push(r) } });
  const add = (url: string, priority: 'image' | 'blocking' | 'document' = 'image') => scheduler.enqueue({ url, priority });
  const finish = (path: string, keepAlive = true, contentType?: string) => {
    const d = transport.dispatchOf(path);
    scheduler.responseStarted(d.id, { status: 200, httpVersion: '1.1', keepAlive, ...(contentType ? { contentType } : {}) });
    scheduler.responseEnded(d.id, { bytes: 100 });
  };
  return { clock, transport, scheduler, results, add, finish };
}

describe('origin memory in the scheduler', () => {
  test('a known-good pipelining origin is pipelined at full depth from its first request; unknown, one at a time', () => {
    const memory = new InMemoryOriginMemory();
    memory.put({ origin: H, pipelining: 'good', protocol: 'http/1.1' });
    const one = { connections: { maxPerOrigin: 1 } };
    const known = setup(strategy('getlist', one), memory);
    const fresh = setup(strategy('getlist', one));
    for (const t of [known, fresh]) {
      for (let i = 0; i < 20; i++) t.add(`${H}/i${i}`);
      t.scheduler.connectionReady(1, { protocol: 'http/1.1' });
    }
    expect(known.transport.on(1)).toHaveLength(16); // maxPipelineDepth
    expect(known.transport.sent.slice(1).every((d) => d.pipelined)).toBe(true);
    expect(fresh.transport.on(1)).toHaveLength(1);
  });

  test('an image-only origin is never proven, over any number of loads: an image behind the document\'s started response cannot be reordered, two images swapped look in order', () => {
    const memory = new InMemoryOriginMemory();
    // P&M's page: a document, then images only. On probation an image may be pipelined behind the
    // document (its response has begun: no server can reorder them) but never behind another image.
    const load = () => {
      // The framing probe (order-probe.ts) is off: what no pair of a document and images proves.
      const t = setup(strategy('getlist', { connections: { maxPerOrigin: 1 }, pipelining: { orderProbe: false } }), memory);
      t.scheduler.enqueue({ url: `${H}/doc`, priority: 'document', resourceType: 'document' });
      t.scheduler.connectionReady(1, { protocol: 'http/1.1' });
      const doc = t.transport.dispatchOf('/doc');
      t.scheduler.responseStarted(doc.id, { status: 200, httpVersion: '1.1', keepAlive: true, contentType: 'text/html' });
      for (let i = 0; i < 4; i++) t.scheduler.enqueue({ url: `${H}/i${i}`, priority: 'image', resourceType: 'image' });
      const behindDoc = t.transport.paths();
      t.scheduler.responseEnded(doc.id, { bytes: 100 });
      t.finish('/i0', true, 'image/gif');
      const afterPair = t.transport.paths();
      return { behindDoc, afterPair };
    };
    for (let visit = 0; visit < 3; visit++) {
      const { behindDoc, afterPair } = load();
      expect(behindDoc).toEqual(['/doc', '/i0']);
      expect(afterPair).toEqual(['/doc', '/i0', '/i1']); // still one image at a time
      expect(memory.get(H)?.pipelining).toBeUndefined();
      expect(memory.get(H)?.pipeliningProofs).toBeUndefined();
    }
  });

  test('the probe\'s proofs are remembered and resumed across loads: a stylesheet and an image the server held at once, answered in order', () => {
    const memory = new InMemoryOriginMemory();
    const load = () => {
      // The framing probe (order-probe.ts) is off: these are the content-type proofs alone.
      const t = setup(strategy('getlist', { connections: { maxPerOrigin: 1 }, pipelining: { probeSuccesses: 2, orderProbe: false } }), memory);
      t.scheduler.enqueue({ url: `${H}/doc`, priority: 'document', resourceType: 'document' });
      t.scheduler.connectionReady(1, { protocol: 'http/1.1' });
      t.finish('/doc', true, 'text/html');
      // Both written at once on the idle connection: the server holds them together.
      t.scheduler.enqueue({ url: `${H}/a.css`, priority: 'blocking', resourceType: 'stylesheet' });
      for (let i = 0; i < 3; i++) t.scheduler.enqueue({ url: `${H}/i${i}`, priority: 'image', resourceType: 'image' });
      t.finish('/a.css', true, 'text/css');
      t.finish('/i0', true, 'image/gif');
      return t.transport.paths();
    };
    expect(load()).toEqual(['/doc', '/a.css', '/i0', '/i1']); // one proof of two: still one image at a time
    expect(memory.get(H)).toMatchObject({ pipeliningProofs: 1 });
    expect(memory.get(H)?.pipelining).toBeUndefined();
    // The second load's proof earns full depth: every image left goes at once.
    expect(load()).toEqual(['/doc', '/a.css', '/i0', '/i1', '/i2']);
    expect(memory.get(H)?.pipelining).toBe('good');
    expect(memory.get(H)?.pipeliningProofs).toBeUndefined();
  });

  test('a strategy without a memory policy ignores the memory', () => {
    const memory = new InMemoryOriginMemory();
    memory.put({ origin: H, pipelining: 'good' });
    const t = setup(strategy('pipelined'), memory);
    for (let i = 0; i < 5; i++) t.add(`${H}/i${i}`);
    t.scheduler.connectionReady(1, { protocol: 'http/1.1' });
    expect(t.transport.on(1)).toHaveLength(1);
  });

  test('an https origin remembered as HTTP/1.1 gets its connections at once, sized by its remembered cap', () => {
    const memory = new InMemoryOriginMemory();
    memory.put({ origin: S, protocol: 'http/1.1', connectionCap: 3, rateBytesPerMs: 200 });
    const t = setup(strategy('getlist'), memory);
    for (let i = 0; i < 20; i++) t.add(`${S}/i${i}`);
    expect(t.transport.opened).toHaveLength(3);
    const fresh = setup(strategy('getlist'));
    for (let i = 0; i < 20; i++) fresh.add(`${S}/i${i}`);
    expect(fresh.transport.opened).toHaveLength(1); // waits for ALPN
  });

  test('a load writes what it learned: protocol, RTT, pipelining, and a request budget', () => {
    const memory = new InMemoryOriginMemory();
    const t = setup(strategy('getlist', { connections: { maxPerOrigin: 1 }, pipelining: { probeSuccesses: 1 } }), memory);
    t.add(`${H}/i0`);
    t.scheduler.connectionReady(1, { protocol: 'http/1.1', handshakeRttMs: 42 });
    t.finish('/i0'); // keep-alive seen: probing at depth 2
    // Written together on the idle connection: a stylesheet and an image the server held at once.
    t.scheduler.enqueue({ url: `${H}/a.css`, priority: 'blocking', resourceType: 'stylesheet' });
    t.scheduler.enqueue({ url: `${H}/i2`, priority: 'image', resourceType: 'image' });
    t.add(`${H}/i3`);
    t.finish('/a.css', true, 'text/css');
    t.finish('/i2', true, 'image/gif'); // answered in order, an order proof: good
    t.finish('/i3', false); // the server closes after its fourth request, with nothing behind it
    expect(t.scheduler.stats().demotions).toEqual([]);
    const f = memory.get(H);
    expect(f).toMatchObject({ protocol: 'http/1.1', rttMs: 42, pipelining: 'good', requestBudget: 4 });
  });

  test('the request budget is one fact: learned from Keep-Alive max into the memory, and a later load\'s connections carry no more', () => {
    const memory = new InMemoryOriginMemory();
    const first = setup(strategy('getlist', { connections: { maxPerOrigin: 1 } }), memory);
    first.add(`${H}/i0`);
    first.scheduler.connectionReady(1, { protocol: 'http/1.1' });
    const d = first.transport.dispatchOf('/i0');
    first.scheduler.responseStarted(d.id, { status: 200, httpVersion: '1.1', keepAlive: true, keepAliveMax: 1 }); // 2 requests in all
    expect(memory.get(H)?.requestBudget).toBe(2);
    // No framing probe (order-probe.ts): its HEAD would be one of the two requests the budget allows.
    const later = setup(strategy('getlist', { connections: { maxPerOrigin: 1 }, pipelining: { orderProbe: false } }), memory);
    for (let i = 0; i < 3; i++) later.add(`${H}/i${i}`);
    later.scheduler.connectionReady(1, { protocol: 'http/1.1' });
    later.finish('/i0');
    later.finish('/i1');
    expect(later.transport.closedByScheduler).toContain(1);
    expect(later.transport.on(1).map((x) => x.request.path)).toEqual(['/i0', '/i1']);
  });

  test('one failure demotes as today, and the memory remembers it', () => {
    const memory = new InMemoryOriginMemory();
    memory.put({ origin: H, pipelining: 'good', protocol: 'http/1.1' });
    const t = setup(strategy('getlist', { connections: { maxPerOrigin: 1 } }), memory);
    for (let i = 0; i < 6; i++) t.add(`${H}/i${i}`);
    t.scheduler.connectionReady(1, { protocol: 'http/1.1' });
    expect(t.transport.on(1)).toHaveLength(6);
    t.scheduler.connectionClosed(1);
    expect(t.scheduler.stats().demotions).toEqual([{ origin: H, reason: 'closed-with-outstanding' }]);
    expect(memory.get(H)?.pipelining).toBe('bad');
    t.scheduler.connectionReady(2, { protocol: 'http/1.1' });
    expect(t.transport.on(2)).toHaveLength(1); // retried alone, and no pipelining now
  });

  test('stale facts expire: the origin starts unknown', () => {
    let now = 0;
    const memory = new InMemoryOriginMemory({ now: () => now, maxAgeMs: 1_000 });
    memory.put({ origin: H, pipelining: 'good' });
    now = 1_001;
    const t = setup(strategy('getlist', { connections: { maxPerOrigin: 1 } }), memory);
    for (let i = 0; i < 5; i++) t.add(`${H}/i${i}`);
    t.scheduler.connectionReady(1, { protocol: 'http/1.1' });
    expect(t.transport.on(1)).toHaveLength(1);
  });
});

describe('zero-RTT starts', () => {
  test('preconnect opens connections before any request, and a later request uses one without opening more', () => {
    const t = setup(strategy('getlist'));
    t.scheduler.preconnect(H, 4);
    expect(t.transport.opened.map((c) => c.origin)).toEqual([H, H, H, H]);
    for (const c of t.transport.opened) t.scheduler.connectionReady(c.id, { protocol: 'http/1.1' });
    t.add(`${H}/doc`, 'document');
    expect(t.transport.opened).toHaveLength(4);
    expect(t.transport.sent).toHaveLength(1);
  });

  test('an https origin of unknown protocol gets one connection until ALPN answers; a closed preconnect is not reopened', () => {
    const t = setup(strategy('getlist'));
    t.scheduler.preconnect(S, 6);
    expect(t.transport.opened).toHaveLength(1);
    t.scheduler.connectionReady(1, { protocol: 'h2' });
    t.scheduler.connectionClosed(1);
    expect(t.transport.opened).toHaveLength(1);
  });

  test('a learned list enqueued while preconnected siblings handshake is shared among them, not piled on the first one up; a connection opened for demand is not waited for', () => {
    const memory = new InMemoryOriginMemory();
    memory.put({ origin: H, pipelining: 'good', protocol: 'http/1.1' });
    const t = setup(strategy('getlist'), memory);
    t.scheduler.preconnect(H, 6);
    t.scheduler.enqueue({ url: `${H}/doc`, priority: 'document', resourceType: 'document' });
    for (let i = 0; i < 15; i++) t.add(`${H}/i${i}`);
    t.clock.advance(50); // one handshake: the siblings, started with it, are nearly up
    t.scheduler.connectionReady(1, { protocol: 'http/1.1' });
    // 16 requests over 6 connections: the first one up takes its share, 3, the document first.
    expect(t.transport.on(1).map((d) => d.request.path)).toEqual(['/doc', '/i0', '/i1']);
    for (let c = 2; c <= 6; c++) t.scheduler.connectionReady(c, { protocol: 'http/1.1' });
    const per = [1, 2, 3, 4, 5, 6].map((c) => t.transport.on(c).length);
    expect(Math.max(...per)).toBeLessThanOrEqual(3);
    expect(per.reduce((a, b) => a + b, 0)).toBe(16);
    // Siblings opened later, for demand, when the first was nearly up: it takes the list at full depth.
    const late = setup(strategy('getlist'), memory);
    late.scheduler.enqueue({ url: `${H}/doc`, priority: 'document', resourceType: 'document' });
    late.clock.advance(45);
    late.scheduler.preconnect(H, 6);
    for (let i = 0; i < 15; i++) late.add(`${H}/i${i}`);
    late.clock.advance(5);
    late.scheduler.connectionReady(1, { protocol: 'http/1.1' });
    expect(late.transport.on(1)).toHaveLength(16);
  });

  test('preconnectCount and preconnectPlan size each origin by its facts', () => {
    const g = strategy('getlist');
    expect(preconnectCount(H, 20, undefined, g)).toBe(6);
    expect(preconnectCount(H, 2, undefined, g)).toBe(2);
    expect(preconnectCount(S, 20, undefined, g)).toBe(1);
    expect(preconnectCount(S, 20, { origin: S, lastSeen: 0, protocol: 'http/1.1', connectionCap: 2 }, g)).toBe(2);
    expect(preconnectCount(S, 20, undefined, strategy('browser'))).toBe(6);
    const memory = new InMemoryOriginMemory();
    memory.putPageOrigins(`${H}/`, [{ origin: S, requests: 3 }, { origin: H, requests: 10 }]);
    memory.put({ origin: S, protocol: 'h2' });
    expect(preconnectPlan(`${H}/`, memory, g)).toEqual([{ origin: H, connections: 6 }, { origin: S, connections: 1 }]);
  });
});

describe('scheduling that never costs', () => {
  /** A blocking request outstanding with three images flowing on an http origin of 4 connections. */
  function busy(memory?: InMemoryOriginMemory) {
    const t = setup(strategy('getlist', { connections: { maxPerOrigin: 4 }, pausing: { maxFlowing: 0 } }), memory);
    for (let i = 0; i < 3; i++) t.add(`${H}/img${i}`);
    for (let i = 1; i <= 3; i++) t.scheduler.connectionReady(i, { protocol: 'http/1.1' });
    t.add(`${H}/css`, 'blocking');
    t.scheduler.connectionReady(4, { protocol: 'http/1.1' });
    return t;
  }

  test('with no bottleneck rate known (a fast path), nothing is paused', () => {
    const t = busy();
    for (let ms = 0; ms < 200; ms += 5) {
      t.clock.advance(5);
      t.scheduler.responseData(t.transport.dispatchOf('/img0').id, 50_000);
    }
    expect(t.scheduler.stats().pauses).toBe(0);
  });

  test('bodies are paused while delivery runs at the bottleneck rate, and resumed once it falls', () => {
    const memory = new InMemoryOriginMemory();
    memory.put({ origin: H, protocol: 'http/1.1', rateBytesPerMs: 1_000, connectionCap: 4 });
    const t = busy(memory);
    expect(t.transport.paused.size).toBe(0);
    const img0 = t.transport.dispatchOf('/img0').id;
    // 1,000 B/ms: the link is full.
    for (let i = 0; i < 30; i++) {
      t.clock.advance(5);
      t.scheduler.responseData(img0, 5_000);
    }
    expect(t.transport.paused.size).toBeGreaterThan(0);
    // Nothing arrives for a while: the link has room, so pausing stops.
    t.clock.advance(150);
    t.scheduler.responseData(t.transport.dispatchOf('/css').id, 100);
    expect(t.transport.paused.size).toBe(0);
  });

  test('an HTTP/2 connection whose streams stall gets a second connection; later requests spread over both', () => {
    const t = setup(strategy('getlist'));
    t.add(`${S}/a`);
    t.add(`${S}/b`);
    t.scheduler.connectionReady(1, { protocol: 'h2', handshakeRttMs: 50 });
    const a = t.transport.dispatchOf('/a').id;
    t.clock.advance(10);
    t.scheduler.responseData(a, 1_000);
    t.clock.advance(150); // under max(200 ms, 2 × RTT): not a stall
    t.scheduler.responseData(a, 1_000);
    expect(t.transport.opened).toHaveLength(1);
    t.clock.advance(400);
    t.scheduler.responseData(t.transport.dispatchOf('/b').id, 1_000);
    expect(t.transport.opened).toHaveLength(2);
    t.scheduler.connectionReady(2, { protocol: 'h2' });
    t.add(`${S}/c`);
    expect(t.transport.dispatchOf('/c').connectionId).toBe(2);
  });

  test('the h2 strategy never opens a second connection', () => {
    const t = setup(strategy('h2'));
    t.add(`${S}/a`);
    t.scheduler.connectionReady(1, { protocol: 'h2' });
    const a = t.transport.dispatchOf('/a').id;
    t.scheduler.responseData(a, 1_000);
    t.clock.advance(5_000);
    t.scheduler.responseData(a, 1_000);
    expect(t.transport.opened).toHaveLength(1);
  });
});
