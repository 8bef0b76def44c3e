import { CHAIN, DOC, entry, nav, record, RTT } from '../../../test/support/recorded-chain';
import type { TimingEntry } from '../model/page-record';
import { diagnose } from './diagnose';

describe('diagnose: the critical path', () => {
  it('names the chain that set the page end, each link found by the one before', () => {
    const d = diagnose(record(CHAIN));
    if (d.status !== 'ok') throw new Error(d.message);
    expect(d.criticalPath.map((l) => [l.url, l.foundBy, l.foundByUrl])).toEqual([
      [DOC, 'navigation', undefined],
      ['http://a.test/a.css', 'markup', DOC],
      ['http://a.test/b.css', 'style-sheet', 'http://a.test/a.css'],
      ['http://a.test/f.woff2', 'style-sheet', 'http://a.test/b.css'],
    ]);
    expect(d.endMs).toBe(351);
  });

  it('splits each link: handshake, discovery wait, queue, server time beyond one RTT, transfer', () => {
    const slowServer = entry('http://a.test/b.css', 'css', 156, { startTime: 156, requestStart: 170, responseStart: 250, responseEnd: 260 });
    const d = diagnose(record([CHAIN[0] as TimingEntry, slowServer, entry('http://a.test/f.woff2', 'css', 300)]));
    if (d.status !== 'ok') throw new Error(d.message);
    const [doc, a, b, font] = d.criticalPath;
    // Its fetch starts 1 ms after navigation start: time spent before the connection, not in it.
    expect(doc).toMatchObject({ handshakeMs: 50, queuedMs: 1, serverMs: 0, transferMs: 1, roundTripMs: 50 });
    // Found 2 ms after the document's first byte; the bound finds it at that first byte (100).
    expect(a).toMatchObject({ discoveryWaitMs: 2, discoveryLateMs: 3, handshakeMs: 0, queuedMs: 0 });
    // Known at 156, sent at 170, first byte 80 ms after: 30 ms beyond the round trip.
    expect(b).toMatchObject({ discoveredMs: 156, queuedMs: 14, serverMs: 30, transferMs: 10, roundTripMs: 80 });
    // The font is found 40 ms after b.css ended (layout: a face is fetched once used).
    expect(font).toMatchObject({ discoveryWaitMs: 50, foundByUrl: 'http://a.test/b.css' });
  });
});

describe('diagnose: the bound and the gap', () => {
  it('bounds the chain at one RTT per level after the handshake, and the list known at t = 0 at one', () => {
    const d = diagnose(record(CHAIN));
    if (d.status !== 'ok') throw new Error(d.message);
    expect(d.rttMs).toBe(RTT);
    expect(d.downBitsPerSec).toBe(0);
    // Handshake 50; the document 50–100; a.css 100–150; b.css 150–200; the font 200–250.
    expect(d.boundMs).toBe(250);
    expect(d.limitedBy).toBe('latency');
    // Every request known at t = 0: each sent when the connection is up (50), done at 100.
    expect(d.idealMs).toBe(100);
  });

  it('splits the gap by cause, and the parts sum to it', () => {
    const d = diagnose(record(CHAIN));
    if (d.status !== 'ok') throw new Error(d.message);
    // The font: known at 300 where the bound knows it at 200; sent at once; 1 ms of transfer.
    expect(d.gap).toEqual({ gapMs: 101, discoveryMs: 100, handshakesMs: 0, queueingMs: 0, serverMs: 0, bandwidthMs: 1 });
  });

  it('charges a late handshake on the last request to handshakes, beyond the bound\'s own', () => {
    const late = entry('http://b.test/late.png', 'img', 110, { connectStart: 110, domainLookupStart: 110, connectEnd: 260, requestStart: 260, responseStart: 310, responseEnd: 400 });
    const d = diagnose(record([...CHAIN, late]));
    if (d.status !== 'ok') throw new Error(d.message);
    expect(d.criticalPath.map((l) => l.url)).toEqual([DOC, 'http://b.test/late.png']);
    // Bound: found at the document's first byte (100), handshake to 150, done at 200.
    expect(d.gap.gapMs).toBe(400 - d.boundMs);
    expect(d.gap.handshakesMs).toBe(150 - 50);
    expect(d.gap.discoveryMs).toBe(10);
    const { gapMs, ...parts } = d.gap;
    expect(Object.values(parts).reduce((s, x) => s + x, 0)).toBeCloseTo(gapMs, 9);
  });
});

describe('diagnose: how the browser found each request', () => {
  it('a script-inserted request is found by the script that ended last before it, once that script ran', () => {
    const timings = [
      entry('http://a.test/app.js', 'script', 103),
      entry('http://a.test/late.jpg', 'img', 200),
    ];
    const d = diagnose(record(timings, { discoveries: [{ url: 'http://a.test/late.jpg', kind: 'image', priority: 'visible-image', atMs: 199, inViewport: true, tag: 'img', late: true }] }));
    if (d.status !== 'ok') throw new Error(d.message);
    const last = d.criticalPath[2];
    expect(last).toMatchObject({ url: 'http://a.test/late.jpg', foundBy: 'script', foundByUrl: 'http://a.test/app.js', discoveredMs: 199 });
    // Found once app.js has arrived (154): the bound's discovery is its last byte, not its first.
    expect(d.bound.requests[2]?.discoveredMs).toBe(150);
  });

  it('a request found by a sheet served from cache is found by what found that sheet', () => {
    const timings = [
      entry('http://a.test/a.css', 'link', 103, { transferSize: 0 }),
      entry('http://a.test/bg.png', 'css', 110),
    ];
    const d = diagnose(record(timings));
    if (d.status !== 'ok') throw new Error(d.message);
    expect(d.load.requests.map((r) => r.url)).toEqual([DOC, 'http://a.test/bg.png']);
    expect(d.criticalPath.map((l) => l.foundByUrl)).toEqual([undefined, DOC]);
  });

  it('the browser\'s own fetch of /favicon.ico, named by no element, is no part of the page', () => {
    const d = diagnose(record([...CHAIN, entry('http://a.test/favicon.ico', 'other', 500)]));
    if (d.status !== 'ok') throw new Error(d.message);
    expect(d.load.requests.map((r) => r.url)).not.toContain('http://a.test/favicon.ico');
    expect(d.endMs).toBe(351);
  });

  it('Firefox names a font fetch `other`: it is still found by the sheet', () => {
    const d = diagnose(record([entry('http://a.test/a.css', 'link', 103), entry('http://a.test/f.woff2', 'other', 160)]));
    if (d.status !== 'ok') throw new Error(d.message);
    expect(d.criticalPath.map((l) => l.foundBy)).toEqual(['navigation', 'markup', 'style-sheet']);
  });
});

describe('diagnose: what it cannot judge', () => {
  it('no navigation timing yet: E_DIAGNOSIS_NO_TIMING', () => {
    const { navigation: _, ...rest } = record(CHAIN);
    expect(diagnose(rest)).toMatchObject({ status: 'unavailable', code: 'E_DIAGNOSIS_NO_TIMING' });
  });

  it('nothing crossed the network: E_DIAGNOSIS_NO_ROUND_TRIP', () => {
    const cached = CHAIN.map((t) => ({ ...t, transferSize: 0 }));
    expect(diagnose(record(cached, { navigation: nav({ transferSize: 0 }) }))).toMatchObject({ status: 'unavailable', code: 'E_DIAGNOSIS_NO_ROUND_TRIP' });
  });
});
