import { lowerBound, segmentsOf, serialisationMs, slowStartRounds, wireBytes } from '../../src/bound/lower-bound';
import { summarisePage } from '../../src/bound/page-structure';
import { pageStructure } from '../../bench/model/page-structure';
import { realBound } from '../../bench/real/real-bounds';

const PM95_LINK = { rttMs: 70, downBitsPerSec: 1_544_000 };
const MCMANUS_LINK = { rttMs: 100, downBitsPerSec: 20_000_000 };
const MCMANUS_300_LINK = { rttMs: 300, downBitsPerSec: 20_000_000 };
/** ms to serialise `wire` bytes at 20 Mbit/s. */
const at20M = (wire: number) => (wire * 8) / 20_000;

describe('page structure', () => {
  it('pm95-2544-10: the document, then ten 2544-byte images one level down on the same origin', () => {
    const s = pageStructure('pm95-2544-10');
    expect(s.depth).toBe(2);
    expect(s.levels.map((l) => [l.requests, l.bytes, l.newOrigins.length])).toEqual([[1, 4191, 1], [10, 25_440, 0]]);
    expect(s.totalBytes).toBe(29_631);
  });

  it('mcmanus-159: the three stylesheet-only background images are level 3', () => {
    const s = pageStructure('mcmanus-159');
    expect(s.requests).toHaveLength(159);
    expect(s.levels.map((l) => [l.level, l.requests, l.bytes])).toEqual([[1, 1, 22_287], [2, 155, 368_284], [3, 3, 10_388]]);
  });

  it('almanac-median: script-inserted images follow the render-blocking scripts and go when asked to', () => {
    const full = pageStructure('almanac-median');
    const noScript = pageStructure('almanac-median', { scriptInserted: false });
    expect(full.requests).toHaveLength(70);
    expect(full.depth).toBe(3);
    expect(full.origins).toBe(10);
    const inserted = full.requests.filter((r) => r.discovery === 'complete');
    expect(inserted).toHaveLength(7);
    for (const r of inserted) expect(r.parents.length).toBe(4); // the document + 3 sync head scripts
    expect(noScript.requests).toHaveLength(63);
    expect(full.totalBytes - noScript.totalBytes).toBe(inserted.reduce((s, r) => s + r.size, 0));
  });
});

describe('building blocks', () => {
  it('slow start: 10 segments, then 20, then 40', () => {
    expect(slowStartRounds(14_480, 10, 1448)).toBe(1);
    expect(slowStartRounds(14_481, 10, 1448)).toBe(2);
    expect(slowStartRounds(43_440, 10, 1448)).toBe(2);
    expect(slowStartRounds(45_566, 10, 1448)).toBe(3);
  });

  it('a response takes at most one segment more than its body fills (its headers)', () => {
    expect(segmentsOf(0)).toBe(1);
    expect(segmentsOf(1448)).toBe(2);
    expect(segmentsOf(22_287)).toBe(17);
  });

  it('serialisation counts 52 header bytes per started segment', () => {
    expect(wireBytes(4191)).toBe(4191 + 3 * 52);
    expect(serialisationMs(4191, PM95_LINK)).toBeCloseTo((4347 * 8) / 1544, 6);
    expect(serialisationMs(1_000_000, { rttMs: 10, downBitsPerSec: 0 })).toBe(0);
  });
});

describe('worked examples (MODEL.md)', () => {
  it('pm95-2544-10 on pm95, http: 346.66 ms, set by the level-2 bytes', () => {
    const b = lowerBound(pageStructure('pm95-2544-10'), PM95_LINK);
    // Document: connected at 70, first byte at 140, last at 140 + 4347·8/1544 = 162.52.
    // An image: asked at 140, done at 210 + 2648·8/1544 = 223.72.
    expect(b.latencyMs).toBeCloseTo(210 + 21_184 / 1544, 2);
    expect(b.criticalChain.map((t) => t.requestMs)).toEqual([70, 140]);
    // Level 1: 105 + 30,723·8/1544 + 35 = 299.19; level 2: 175 + 26,376·8/1544 + 35 = 346.66.
    expect(b.levels.map((l) => l.boundMs)).toEqual([expect.closeTo(140 + 245_784 / 1544, 6), expect.closeTo(210 + 211_008 / 1544, 6)]);
    // Slow start: 6 × 10 segments from the start, and level 2 adds the document's 3 + 1. One round
    // each carries everything, so each term is its level's bandwidth term: nothing changes here.
    expect(b.slowStart.map((x) => [x.level, x.bytes, x.windowSegments, x.rounds])).toEqual([[1, 29_631, 60, 1], [2, 25_440, 64, 1]]);
    expect(b.slowStart.map((x) => x.boundMs)).toEqual(b.levels.map((l) => expect.closeTo(l.boundMs, 9)));
    expect(b.totalMs).toBeCloseTo(346.66, 2);
    // A tie between families is reported as the earlier one.
    expect(b.limitedBy).toBe('bandwidth');
  });

  it('pm95-2544-10 on pm95, https: one more RTT before anything flows', () => {
    const b = lowerBound(pageStructure('pm95-2544-10'), PM95_LINK, { tls: true });
    expect(b.totalMs).toBeCloseTo(346.66 + 70, 2);
    expect(b.limitedBy).toBe('bandwidth');
  });

  // Before the slow-start family the bound here was the bandwidth bound, 456.92 ms (https 556.92).
  // Both are still checked below; the new family raises the total because 6 connections cannot
  // grow their windows fast enough to carry level 2's 378,672 B in two round trips.
  it('mcmanus-159 at 100 ms, 20 Mbit/s, http: 518.32 ms, set by slow start on level 2', () => {
    const b = lowerBound(pageStructure('mcmanus-159'), MCMANUS_LINK);
    // Document (22,287 B) needs 2 windows: complete at 100 + 100 + 100 = 300.
    expect(b.requests[0]?.rounds).toBe(2);
    expect(b.requests[0]?.completeMs).toBe(300);
    // theme.css asked at 200, first byte 300; masthead.gif (7,168 B) asked at 300: 400 + 7428·8/20e3.
    expect(b.criticalChain.map((t) => t.key.split('/').pop())).toEqual(['index.html', 'theme.css', 'masthead.gif']);
    expect(b.latencyMs).toBeCloseTo(400 + at20M(7428), 6);
    // Level 2 and below: 378,672 B + 262·52 header bytes, sent from 250 ms on, plus 50 ms.
    expect(b.levels[1]?.boundMs).toBeCloseTo(250 + at20M(392_296) + 50, 6);
    expect(b.bandwidthMs).toBeCloseTo(456.92, 2);
    // Slow start, level 2: from 250 ms, 6 × 10 + 17 (the document's 16 segments + 1) = 77 segments.
    // 77·3·1448 = 334,488 B < 378,672 B ≤ 77·7·1448 B: 3 rounds. After 2 RTTs at most 334,488 B
    // can have left; the other 44,184 B (31 segments, 45,796 B on the wire) leave from 450 ms on:
    // 450 + 18.32 + 50 = 518.32.
    const [l1, l2, l3] = b.slowStart;
    expect([l2?.level, l2?.bytes, l2?.earliestSendMs, l2?.windowSegments, l2?.rounds]).toEqual([2, 378_672, 250, 77, 3]);
    expect(l2?.boundMs).toBeCloseTo(450 + at20M(44_184 + 31 * 52) + 50, 9);
    // Level 1: from 150 ms, 60 segments, 3 rounds; 140,319 B (97 segments) left after 2 RTTs.
    expect([l1?.earliestSendMs, l1?.windowSegments, l1?.rounds]).toEqual([150, 60, 3]);
    expect(l1?.boundMs).toBeCloseTo(350 + at20M(140_319 + 97 * 52) + 50, 9);
    // Level 3: 10,388 B fit the first round: its bandwidth term, 404.32.
    expect([l3?.windowSegments, l3?.rounds]).toEqual([576, 1]);
    expect(l3?.boundMs).toBeCloseTo(b.levels[2]?.boundMs ?? NaN, 9);
    expect(b.slowStartMs).toBeCloseTo(518.32, 2);
    expect(b.totalMs).toBe(b.slowStartMs);
    expect(b.limitedBy).toBe('slow-start');
  });

  it('mcmanus-159 at 100 ms, https: 618.32 ms, above its bandwidth term of 556.92: every time 1 RTT later', () => {
    const b = lowerBound(pageStructure('mcmanus-159'), MCMANUS_LINK, { tls: true });
    expect(b.bandwidthMs).toBeCloseTo(556.92, 2);
    expect(b.slowStart[1]?.earliestSendMs).toBe(350);
    expect(b.totalMs).toBeCloseTo(518.32 + 100, 2);
    expect(b.limitedBy).toBe('slow-start');
  });

  it('mcmanus-159 at 300 ms: 1,518.32 ms http, 1,818.32 https; the rounds do not depend on the RTT', () => {
    const http = lowerBound(pageStructure('mcmanus-159'), MCMANUS_300_LINK);
    // Level 2 asked at 600 ms, at the server from 750; 2 RTTs, the last 45,796 wire bytes, 150 ms.
    expect(http.slowStart[1]?.rounds).toBe(3);
    expect(http.totalMs).toBeCloseTo(750 + 600 + at20M(45_796) + 150, 9);
    expect(http.bandwidthMs).toBeCloseTo(1204.32, 2);
    expect(http.limitedBy).toBe('slow-start');
    expect(lowerBound(pageStructure('mcmanus-159'), MCMANUS_300_LINK, { tls: true }).totalMs).toBeCloseTo(1818.32, 2);
  });

  it('mcmanus-159 at 100 ms with one connection (HTTP/2): 676.15 ms http, 776.15 https', () => {
    const b = lowerBound(pageStructure('mcmanus-159'), MCMANUS_LINK, { connectionsPerOrigin: 1 });
    // Level 1 from 150 ms with 10 segments: 5 rounds (10·15·1448 = 217,200 B < 400,959 B ≤ 10·31·1448 B).
    // After 4 RTTs, 183,759 B (127 segments) are left: 550 + 76.15 + 50.
    expect([b.slowStart[0]?.windowSegments, b.slowStart[0]?.rounds]).toEqual([10, 5]);
    expect(b.totalMs).toBeCloseTo(550 + at20M(183_759 + 127 * 52) + 50, 9);
    expect(lowerBound(pageStructure('mcmanus-159'), MCMANUS_LINK, { connectionsPerOrigin: 1, tls: true }).totalMs).toBeCloseTo(776.15, 2);
  });
});

describe('connections per origin', () => {
  const pages = ['pm95-2544-10', 'pm95-45566-40', 'mcmanus-159', 'almanac-median'];
  const links = [PM95_LINK, MCMANUS_LINK, MCMANUS_300_LINK, { rttMs: 80, downBitsPerSec: 2_000_000 }, { rttMs: 40, downBitsPerSec: 0 }];

  it('defaults to 6 and must be a whole number ≥ 1', () => {
    const s = pageStructure('mcmanus-159');
    expect(lowerBound(s, MCMANUS_LINK)).toEqual(lowerBound(s, MCMANUS_LINK, { connectionsPerOrigin: 6 }));
    for (const c of [0, 1.5, NaN]) expect(() => lowerBound(s, MCMANUS_LINK, { connectionsPerOrigin: c })).toThrow(RangeError);
  });

  it.each(pages)('%s: more connections never raise the bound, so C = 1 is never below C = 6', (name) => {
    const s = pageStructure(name);
    for (const link of links) {
      for (const tls of [false, true]) {
        const b = [1, 2, 3, 6, 12, 100].map((connectionsPerOrigin) => lowerBound(s, link, { tls, connectionsPerOrigin }));
        for (let i = 1; i < b.length; i++) {
          expect(b[i]?.slowStartMs).toBeLessThanOrEqual(b[i - 1]?.slowStartMs ?? NaN);
          expect(b[i]?.totalMs).toBeLessThanOrEqual(b[i - 1]?.totalMs ?? NaN);
        }
      }
    }
  });

  it.each(pages)('%s: the slow-start bound never falls when RTT rises or the initial window shrinks', (name) => {
    const s = pageStructure(name);
    for (const down of [375_000, 2_000_000, 20_000_000, 0]) {
      for (const connectionsPerOrigin of [1, 6]) {
        let previous = 0;
        for (const rttMs of [0, 10, 20, 40, 70, 100, 150, 200, 300]) {
          const t = lowerBound(s, { rttMs, downBitsPerSec: down }, { connectionsPerOrigin }).slowStartMs;
          expect(t).toBeGreaterThanOrEqual(previous);
          previous = t;
        }
        previous = 0;
        for (const initCwnd of [64, 32, 10, 4, 1]) {
          const t = lowerBound(s, { rttMs: 100, downBitsPerSec: down }, { connectionsPerOrigin, tcp: { initCwnd } }).slowStartMs;
          expect(t).toBeGreaterThanOrEqual(previous);
          previous = t;
        }
      }
    }
  });
});

describe('monotonicity', () => {
  const pages = ['pm95-2544-1', 'pm95-45566-40', 'mcmanus-159', 'almanac-median'];
  it.each(pages)('%s: more RTT never lowers the bound', (name) => {
    const s = pageStructure(name);
    for (const down of [375_000, 2_000_000, 20_000_000, 0]) {
      let previous = 0;
      for (const rttMs of [0, 10, 20, 40, 70, 100, 150, 200, 300]) {
        for (const tls of [false, true]) {
          const t = lowerBound(s, { rttMs, downBitsPerSec: down }, { tls }).totalMs;
          if (!tls) {
            expect(t).toBeGreaterThanOrEqual(previous);
            previous = t;
          } else expect(t).toBeGreaterThanOrEqual(previous);
        }
      }
    }
  });

  it.each(pages)('%s: more bandwidth never raises the bound', (name) => {
    const s = pageStructure(name);
    for (const rttMs of [20, 70, 200]) {
      let previous = Infinity;
      for (const down of [375_000, 1_544_000, 2_000_000, 20_000_000, 1e9]) {
        const t = lowerBound(s, { rttMs, downBitsPerSec: down }).totalMs;
        expect(t).toBeLessThanOrEqual(previous);
        previous = t;
      }
    }
  });

  it('a larger initial window never raises the bound', () => {
    const s = pageStructure('mcmanus-159');
    const t = [1, 4, 10, 32].map((initCwnd) => lowerBound(s, MCMANUS_LINK, { tcp: { initCwnd } }).totalMs);
    expect([...t].sort((a, b) => b - a)).toEqual(t);
  });
});

describe('the bound is below what was measured', () => {
  // bench/results/engine-latest.json, `npm run bench:engine` demo: 100 ms RTT, 20 Mbit/s down
  // (link proxy), medians of 3 loads. The bound must not exceed even the fastest contender.
  const measured = [
    { page: 'pm95-2544-10', http10: 2266.5, browser: 518.7, pipelined: 525.7, getlist: 420.8 },
    { page: 'mcmanus-159', http10: 32_874.2, browser: 3123.2, pipelined: 809, getlist: 679 },
  ];
  it.each(measured)('$page', ({ page, ...times }) => {
    const bound = lowerBound(pageStructure(page), { rttMs: 100, downBitsPerSec: 20_000_000 }).totalMs;
    for (const t of Object.values(times)) expect(bound).toBeLessThanOrEqual(t);
    // http10 pays a handshake and a request round trip per request: far above the bound.
    expect(times.http10 / bound).toBeGreaterThan(4);
  });

  // Packet-level runs (link emulator, nginx origins, `npm run bench`): the lowest getlist medians
  // seen so far (a `npm run bench:quick` run, bench/results/bench-<quick|full>-latest.json, had 816 and 937 ms for mcmanus-159).
  // getlist over http used 6 HTTP/1.1 connections per origin; getlist-tls negotiated HTTP/2, one
  // connection per origin, so the https times must stay above even the bound for C = 1.
  const packetLevel = [
    { cell: 'mcmanus-159 @ mcmanus-100', page: 'mcmanus-159', link: MCMANUS_LINK, http: 760, https: 850 },
    { cell: 'pm95-2544-10 @ pm95', page: 'pm95-2544-10', link: PM95_LINK, http: 446, https: 497 },
    { cell: 'almanac-median @ spdy-dsl-80-0', page: 'almanac-median', link: { rttMs: 80, downBitsPerSec: 2_000_000 }, https: 8094 },
  ];
  it.each(packetLevel)('$cell', ({ page, link, http, https }) => {
    // getlist runs no scripts: its bound is that of the page without script-inserted requests.
    const s = pageStructure(page, { scriptInserted: false });
    if (http !== undefined) expect(lowerBound(s, link).totalMs).toBeLessThanOrEqual(http);
    expect(lowerBound(s, link, { tls: true }).totalMs).toBeLessThanOrEqual(https);
    expect(lowerBound(s, link, { tls: true, connectionsPerOrigin: 1 }).totalMs).toBeLessThanOrEqual(https);
  });
});

describe('mixed schemes, hints and a returning visitor (real-shaped pages)', () => {
  const link = { rttMs: 100, downBitsPerSec: 0 };
  const shop = pageStructure('real-shop', { scriptInserted: false });
  const origins = [...new Set(shop.requests.map((r) => r.origin))];
  const chain = (b: ReturnType<typeof lowerBound>) => b.criticalChain.map((t) => [t.key.replace('.example.test/real-shop', '').replace(/^(www)?/, ''), t.requestMs, t.completeMs]);

  it('a set of https origins: every origin in it is tls: true, none is tls: false', () => {
    expect(lowerBound(shop, link, { tls: new Set(origins) })).toEqual(lowerBound(shop, link, { tls: true }));
    expect(lowerBound(shop, link, { tls: new Set() })).toEqual(lowerBound(shop, link));
    // Only the document's origin on https: the document waits one RTT more, and so does its chain.
    const one = lowerBound(shop, link, { tls: new Set(['www.example.test']) });
    expect(one.requests[0]?.requestMs).toBe(200);
    expect(lowerBound(shop, link).requests[0]?.requestMs).toBe(100);
  });

  // real-shop, all https at 100 ms: document → www stylesheet → @import on static → background on
  // cdn1. cdn1 is first named by the imported sheet, so its handshake starts at that sheet's first
  // byte (600): 600 + 2 RTT → 800, first byte 900.
  it('the chain waits for a late origin\'s handshake; a hint for it starts the handshake at the document\'s first byte', () => {
    const first = lowerBound(shop, link, { tls: true });
    expect(chain(first)).toEqual([['/index.html', 200, 400], ['/css/s0.css', 300, 400], ['static/css/imported.css', 500, 600], ['cdn1/bg/b0.gif', 800, 900]]);
    const hinted = lowerBound(shop, link, { tls: true, hintedOrigins: ['cdn1.example.test'] });
    // cdn1 is up at 300 + 200 = 500: the background goes at the imported sheet's first byte, 600.
    expect(hinted.requests.find((r) => r.key.endsWith('/bg/b0.gif'))?.requestMs).toBe(600);
    expect(hinted.totalMs).toBe(800);
  });

  it('a returning visitor: every handshake from t = 0, the resources still found by parsing', () => {
    const revisit = lowerBound(shop, link, { tls: true, connectFrom: 'start' });
    expect(chain(revisit)).toEqual([['/index.html', 200, 400], ['/css/s0.css', 300, 400], ['static/css/imported.css', 400, 500], ['cdn1/bg/b0.gif', 500, 600]]);
    // Never above the first visit's bound, nor above one with hints.
    for (const rttMs of [40, 100, 200]) {
      for (const downBitsPerSec of [0, 10_000_000]) {
        const l = { rttMs, downBitsPerSec };
        const start = lowerBound(shop, l, { tls: true, connectFrom: 'start' }).totalMs;
        const hinted = lowerBound(shop, l, { tls: true, hintedOrigins: origins }).totalMs;
        expect(start).toBeLessThanOrEqual(hinted);
        expect(hinted).toBeLessThanOrEqual(lowerBound(shop, l, { tls: true }).totalMs);
      }
    }
  });
});

describe('a client that knows the request list at t = 0 (GETLIST on a revisit)', () => {
  const shop = pageStructure('real-shop', { scriptInserted: false });
  const link = { rttMs: 100, downBitsPerSec: 0 };

  it('every request leaves once its origin is up: the chain collapses to handshake + 1 RTT (+ slow-start rounds)', () => {
    const list = lowerBound(shop, link, { tls: true, listAtStart: true });
    // All https: each origin is up at 2 RTT = 200, so each request goes at 200, and a response
    // that fits the first window ends one RTT later.
    expect(list.requests.every((t) => t.discoveredMs === 0 && t.requestMs === 200)).toBe(true);
    for (const t of list.requests) expect(t.completeMs).toBe(200 + 100 * t.rounds);
    expect(list.requests.find((t) => t.key.endsWith('/bg/b0.gif'))?.completeMs).toBe(300);
  });

  it('never above the revisit bound (parsing), on every link', () => {
    for (const rttMs of [40, 100, 200]) {
      for (const downBitsPerSec of [0, 10_000_000]) {
        for (const name of ['real-news', 'real-shop', 'real-small']) {
          const l = { rttMs, downBitsPerSec };
          const b = (v: 'revisit' | 'list') => realBound(name, { rttMs, capBitsPerSec: downBitsPerSec || undefined }, v).totalMs;
          expect(b('list')).toBeLessThanOrEqual(b('revisit'));
          expect(lowerBound(pageStructure(name, { scriptInserted: false }), l, { tls: true, listAtStart: true }).totalMs).toBeLessThanOrEqual(lowerBound(pageStructure(name, { scriptInserted: false }), l, { tls: true, connectFrom: 'start' }).totalMs);
        }
      }
    }
  });
});

describe('real-shaped pages: the bound stays below what real loads achieved', () => {
  // `node dist/bench/real.js --rtts 100 --caps none,10 --runs 5` on the packet-level link (medians,
  // ms; README "Real-shaped pages"): the first-visit bound must not exceed any contender's median,
  // and the revisit bound (every handshake from t = 0) must not exceed getlist-revisit's.
  const measured = [
    { page: 'real-news', cap: undefined, fastest: 944, revisit: 826 },
    { page: 'real-shop', cap: undefined, fastest: 1061, revisit: 923 },
    { page: 'real-small', cap: undefined, fastest: 840, revisit: 615 },
    { page: 'real-news', cap: 10_000_000, fastest: 1010, revisit: 1083 },
    { page: 'real-shop', cap: 10_000_000, fastest: 1185, revisit: 965 },
    { page: 'real-small', cap: 10_000_000, fastest: 854, revisit: 645 },
  ];
  it.each(measured)('$page at 100 ms, cap $cap', ({ page, cap, fastest, revisit }) => {
    const link = { rttMs: 100, capBitsPerSec: cap };
    expect(realBound(page, link, 'first').totalMs).toBeLessThanOrEqual(fastest);
    expect(realBound(page, link, 'revisit').totalMs).toBeLessThanOrEqual(revisit);
  });
});

describe('a TLS connection\'s first flight (tlsFirstFlightSegments)', () => {
  const link = { rttMs: 100, downBitsPerSec: 0 };
  // A 12,000-byte document alone: one initial window (14,480 B) holds it; the window less two
  // ticket segments (11,584 B) does not.
  const page = (size: number) => summarisePage('one', [{ key: 'a.test/', origin: 'a.test', size, level: 1, parents: [], discovery: 'first-byte' }]);

  it('a response sent as its TLS connection opens has the initial window less the server\'s tickets for its first round', () => {
    const without = lowerBound(page(12_000), link, { tls: true });
    const withTickets = lowerBound(page(12_000), link, { tls: true, tlsFirstFlightSegments: 2 });
    expect(without.requests[0]).toMatchObject({ requestMs: 200, rounds: 1, completeMs: 300 });
    expect(withTickets.requests[0]).toMatchObject({ requestMs: 200, rounds: 2, completeMs: 400 });
    // What fits in the rest of the window still takes one round.
    expect(lowerBound(page(11_584), link, { tls: true, tlsFirstFlightSegments: 2 }).requests[0]?.rounds).toBe(1);
  });

  it('costs nothing over plain http, where there are no tickets', () => {
    expect(lowerBound(page(12_000), link, { tls: false, tlsFirstFlightSegments: 2 }).requests[0]).toMatchObject({ rounds: 1, completeMs: 200 });
  });

  it('only raises the bound, on every real-shaped page and link (each server the bench measured)', () => {
    for (const name of ['real-news', 'real-shop', 'real-small', 'real-late']) {
      for (const l of [{ rttMs: 40, downBitsPerSec: 0 }, { rttMs: 100, downBitsPerSec: 10_000_000 }]) {
        const s = pageStructure(name, { scriptInserted: false });
        for (const options of [{ tls: true }, { tls: true, listAtStart: true }]) {
          expect(lowerBound(s, l, { ...options, tlsFirstFlightSegments: 2 }).totalMs).toBeGreaterThanOrEqual(lowerBound(s, l, options).totalMs);
        }
      }
    }
  });

  it('a count that is not a whole number of segments below the initial window is refused', () => {
    for (const bad of [-1, 1.5, 10]) {
      expect(() => lowerBound(page(1_000), link, { tls: true, tlsFirstFlightSegments: bad })).toThrow(/tlsFirstFlightSegments/);
    }
  });
});
