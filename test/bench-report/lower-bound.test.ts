import { lowerBound, serialisationMs, slowStartRounds, wireBytes } from '../../bench/model/lower-bound';
import { pageStructure } from '../../bench/model/page-structure';

const PM95_LINK = { rttMs: 70, downBitsPerSec: 1_544_000 };
const MCMANUS_LINK = { rttMs: 100, downBitsPerSec: 20_000_000 };

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
    expect(b.totalMs).toBeCloseTo(346.66, 2);
    expect(b.limitedBy).toBe('bandwidth');
  });

  it('pm95-2544-10 on pm95, https: one more RTT before anything flows', () => {
    const b = lowerBound(pageStructure('pm95-2544-10'), PM95_LINK, { tls: true });
    expect(b.totalMs).toBeCloseTo(346.66 + 70, 2);
  });

  it('mcmanus-159 at 100 ms, 20 Mbit/s, http: 456.92 ms', () => {
    const b = lowerBound(pageStructure('mcmanus-159'), MCMANUS_LINK);
    // Document (22,287 B) needs 2 windows: complete at 100 + 100 + 100 = 300.
    expect(b.requests[0]?.rounds).toBe(2);
    expect(b.requests[0]?.completeMs).toBe(300);
    // theme.css asked at 200, first byte 300; masthead.gif (7,168 B) asked at 300: 400 + 7428·8/20e3.
    expect(b.criticalChain.map((t) => t.key.split('/').pop())).toEqual(['index.html', 'theme.css', 'masthead.gif']);
    expect(b.latencyMs).toBeCloseTo(400 + (7428 * 8) / 20_000, 6);
    // Level 2 and below: 378,672 B + 262·52 header bytes, sent from 250 ms on, plus 50 ms.
    expect(b.levels[1]?.boundMs).toBeCloseTo(250 + (392_296 * 8) / 20_000 + 50, 6);
    expect(b.totalMs).toBeCloseTo(456.92, 2);
    expect(b.limitedBy).toBe('bandwidth');
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
});
