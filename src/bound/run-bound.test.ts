import { gapPartsOf } from './gap-parts';
import { lowerBound } from './lower-bound';
import { summarisePage, type ModelRequest } from './page-structure';
import { runBound, runRoundTrip, runStructure, type RunBoundHandshake, type RunBoundInput, type RunBoundRequest } from './run-bound';

const A = 'http://a.test';
const B = 'https://b.test';

function req(url: string, foundBy: string | null, bytes: number, t: { d: number; s: number; f: number; e: number }, connectionId = 1): RunBoundRequest {
  return { url, status: 200, bytes, connectionId, discoveredMs: t.d, sentMs: t.s, ttfbMs: t.f - t.d, doneMs: t.e, error: null, foundBy };
}

const hs = (connectionId: number, startMs: number, tcpMs: number, totalMs: number): RunBoundHandshake => ({ connectionId, startedAt: 1_000_000 + startMs, tcpMs, totalMs });

/** document → a.css → @import b.css (another origin, https) → font; the document also names an image. */
function chainRun(): RunBoundInput {
  return {
    url: `${A}/`,
    startedAt: 1_000_000,
    requests: [
      req(`${A}/`, null, 5000, { d: 0, s: 12, f: 40, e: 45 }),
      req(`${A}/a.css`, `${A}/`, 2000, { d: 41, s: 41, f: 62, e: 63 }),
      req(`${A}/hero.jpg`, `${A}/`, 30_000, { d: 42, s: 55, f: 80, e: 95 }, 2),
      req(`${B}/b.css`, `${A}/a.css`, 1500, { d: 63, s: 110, f: 131, e: 132 }, 3),
      req(`${B}/f.woff2`, `${B}/b.css`, 20_000, { d: 133, s: 133, f: 155, e: 170 }, 3),
    ],
    handshakes: [hs(1, 0, 10, 11), hs(2, 43, 12, 12), hs(3, 64, 11, 45)],
  };
}

describe('the bound of a getlist load run', () => {
  test('an @import chain puts each request one level below what named it', () => {
    const built = runStructure(chainRun());
    const rows = built?.structure.requests.map((r) => [r.key, r.level, r.parents]);
    expect(rows).toEqual([
      [`${A}/`, 1, []],
      [`${A}/a.css`, 2, [0]],
      [`${A}/hero.jpg`, 2, [0]],
      [`${B}/b.css`, 3, [1]],
      [`${B}/f.woff2`, 4, [3]],
    ]);
    expect(built?.structure.requests.map((r) => r.size)).toEqual([5000, 2000, 30_000, 1500, 20_000]);
    expect(built?.structure.requests.map((r) => r.origin)).toEqual([A, A, A, B, B]);
  });

  test('the bound is the model\'s for the hand-built structure, on the fastest TCP handshake', () => {
    const byHand: ModelRequest[] = [
      { key: `${A}/`, origin: A, size: 5000, level: 1, parents: [], discovery: 'first-byte' },
      { key: `${A}/a.css`, origin: A, size: 2000, level: 2, parents: [0], discovery: 'first-byte' },
      { key: `${A}/hero.jpg`, origin: A, size: 30_000, level: 2, parents: [0], discovery: 'first-byte' },
      { key: `${B}/b.css`, origin: B, size: 1500, level: 3, parents: [1], discovery: 'first-byte' },
      { key: `${B}/f.woff2`, origin: B, size: 20_000, level: 4, parents: [3], discovery: 'first-byte' },
    ];
    const link = { rttMs: 10, downBitsPerSec: 0 };
    const expected = lowerBound(summarisePage(`${A}/`, byHand), link, { tls: new Set([B]) });
    const got = runBound(chainRun());
    expect(runRoundTrip(chainRun())).toBe(10);
    expect(got?.totalMs).toBeCloseTo(expected.totalMs, 9);
    expect(got?.lastUrl).toBe(`${B}/f.woff2`);
    // The last request's gap, read with the model's own timing of it: its connection (3) was opened at 64 ms for 45 ms.
    const gap = gapPartsOf({ discoveredMs: 133, sentMs: 133, firstByteMs: 155, doneMs: 170, handshake: { startMs: 64, readyMs: 109 } }, expected.requests[4] as never, expected.totalMs, 10);
    expect(got?.gap).toEqual(gap);
    const g = got?.gap;
    expect(g && g.discoveryMs + g.handshakesMs + g.queueingMs + g.serverMs + g.bandwidthMs).toBeCloseTo(170 - expected.totalMs, 9);
  });

  test('a given round trip and rate are the path the bound is computed for', () => {
    const link = { rttMs: 50, downBitsPerSec: 8e6 };
    const structure = runStructure(chainRun())?.structure;
    const got = runBound(chainRun(), link);
    expect(structure).toBeDefined();
    expect(got?.totalMs).toBe(structure && lowerBound(structure, link, { tls: new Set([B]) }).totalMs);
    expect(got?.rttMs).toBe(50);
  });

  test('a run that timed no handshake has no bound', () => {
    expect(runBound({ ...chainRun(), handshakes: [] })).toBeUndefined();
  });

  test('redirect hops, failures and unused guesses are no part of the page', () => {
    const run = chainRun();
    const redirect: RunBoundRequest = { ...req(`${A}/old`, null, 0, { d: 0, s: 1, f: 2, e: 2 }), status: 301 };
    const failed: RunBoundRequest = { ...req(`${A}/gone.png`, `${A}/`, 0, { d: 50, s: 50, f: 60, e: 60 }), error: { code: 'E_X' } };
    const guess: RunBoundRequest = { ...req(`${A}/old.js`, null, 900, { d: 1, s: 1, f: 20, e: 21 }), speculative: 'unused' };
    const built = runStructure({ ...run, requests: [redirect, guess, ...run.requests, failed] });
    expect(built?.structure.requests.map((r) => r.key)).toEqual(runStructure(run)?.structure.requests.map((r) => r.key));
  });

  test('a child listed before its parent (sent from a learned list) still follows it', () => {
    const run = chainRun();
    const [doc, a, hero, b, font] = run.requests as RunBoundRequest[];
    const built = runStructure({ ...run, requests: [doc, font, b, hero, a] as RunBoundRequest[] });
    const levels = new Map(built?.structure.requests.map((r) => [r.key, r.level]));
    expect(levels.get(`${B}/f.woff2`)).toBe(4);
    expect(levels.get(`${B}/b.css`)).toBe(3);
    built?.structure.requests.forEach((r, i) => r.parents.forEach((p) => expect(p).toBeLessThan(i)));
  });
});
