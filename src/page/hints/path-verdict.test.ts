import type { Visit } from './hint-types';
import { PATH_SAMPLE_METHOD, pathVerdict } from './path-sample';
import { readBack, URL_ } from '../../../test/support/stored-path-verdict';

describe('the verdict from recorded samples (Chromium 156, bench/hints.js, two warm-up visits)', () => {
  const visit = (criticalBytes: number, deliveryBytesPerMs: number, rttMs: number, method = PATH_SAMPLE_METHOD): Visit => ({ at: 0, url: URL_, hinted: false, resources: [], origins: [], path: { criticalBytes, deliveryBytesPerMs, rttMs, method } });
  // Each pair: one run's two learned visits, sampled by method 2 (rate from `responseStart`).
  // 40 ms / 5 Mbit/s (625 B/ms): one visit of the pair read squeezed (2 000–9 368 B/ms, above the
  // link) in these runs of real-news and almanac-median.
  const slowLinkPairs: Array<[Visit, Visit]> = [
    [visit(356_400, 607.735, 17.7, 2), visit(356_400, 8133.333, 42, 2)],
    [visit(356_400, 2000, 30.9, 2), visit(356_400, 507.066, 41.9, 2)],
    [visit(744_000, 1425.077, 40.3, 2), visit(744_000, 9367.895, 47.7, 2)],
    [visit(744_000, 793.333, 49, 2), visit(744_000, 5933, 78, 2)],
    [visit(744_000, 702.954, 40.3, 2), visit(744_000, 2245.576, 47.8, 2)],
  ];
  // 100 ms / 20 Mbit/s (2 500 B/ms), almanac-median: never bound.
  const farPairs: Array<[Visit, Visit]> = [
    [visit(744_000, 4695.92, 100.1), visit(744_000, 5425.87, 102.2)],
    [visit(744_000, 3007.581, 100), visit(727_340, 8202.137, 102)],
    [visit(744_000, 3178.393, 100.2), visit(744_000, 3236.182, 102.3)],
  ];
  // Method 3 (the rate bound), read from warm-up visits dumped (GETLIST_HINTS_DUMP=1) on the runs of bench/results/raw/hints-queue-bdp.json.gz.
  // 40 ms / 5 Mbit/s: almanac-median 28–31 round trips, real-news 14–19 (bound); real-small 1.7–2.3 (not).
  const slowBound: Array<[Visit, Visit]> = [
    [visit(744_000, 579.058, 43.7), visit(744_000, 542.999, 47.6)],
    [visit(744_000, 554.211, 43.4), visit(744_000, 543.693, 48)],
    [visit(744_000, 580.449, 43.3), visit(744_000, 545.944, 48.4)],
    [visit(744_000, 576.432, 43.1), visit(744_000, 543.629, 47.8)],
    [visit(744_000, 577.811, 43.5), visit(744_000, 544.133, 47.6)],
    [visit(356_400, 565.042, 41.7), visit(356_400, 476.372, 41.8)],
    [visit(356_400, 594.595, 41.6), visit(356_400, 578.872, 41.7)],
    [visit(356_400, 599.455, 41.6), visit(356_400, 578.351, 41.6)],
    [visit(356_400, 601.093, 41.6), visit(356_400, 468.645, 41.5)],
    [visit(356_400, 599.455, 41.5), visit(356_400, 456.505, 41.5)],
  ];
  // real-small's second visits read up to 703 B/ms (1.13 × the link: the measured round trip, 47.5 ms, longer than the path's).
  const slowSmall: Array<[Visit, Visit]> = [
    [visit(57_200, 594.059, 41.9), visit(57_200, 676.692, 47.5)],
    [visit(57_200, 612.245, 42), visit(57_200, 633.803, 47.4)],
    [visit(57_200, 592.105, 42.1), visit(57_200, 703.125, 47.7)],
    [visit(57_200, 586.319, 42), visit(57_200, 674.157, 47.6)],
    [visit(57_200, 602.007, 43.1), visit(57_200, 684.411, 47.6)],
  ];
  // 100 ms / 20 Mbit/s, almanac-median (2.9 round trips at the link's rate): the first visit reads
  // 949–2 416 B/ms, the second 1 586–2 416 — 38–97 % of the link, slow start inside the spans.
  const farBound: Array<[Visit, Visit]> = [
    [visit(744_000, 2048.677, 101.1), visit(744_000, 1942.895, 102.8)],
    [visit(744_000, 1108.238, 101.3), visit(744_000, 2163.958, 102.6)],
    [visit(744_000, 983.402, 101.7), visit(744_000, 2077.4, 102.6)],
    [visit(744_000, 2415.581, 101.2), visit(744_000, 1716.86, 102.4)],
    [visit(744_000, 1146.863, 101.2), visit(744_000, 1585.802, 102.2)],
    [visit(744_000, 949.302, 101.3), visit(744_000, 1953.333, 102.1)],
    [visit(744_000, 952.739, 101.4), visit(744_000, 1806.435, 102.5)],
    [visit(744_000, 1162.446, 102.3), visit(744_000, 2415.581, 102.5)],
    [visit(744_000, 1069.45, 101.3), visit(744_000, 2205.052, 102.3)],
  ];

  test('a squeezed visit never clears a bound path: the method-2 pairs are expired when read back (the less bound rule would have cleared 3 of these 5)', () => {
    // In 3 of the 5 one visit alone reads the path as fast.
    expect(slowLinkPairs.filter((pair) => pair.some((v) => pathVerdict([v])?.bandwidthBound === false)).length).toBe(3);
    for (const pair of slowLinkPairs) expect(readBack(pair)).toBeUndefined();
    for (const pair of farPairs) expect(pathVerdict(pair)?.bandwidthBound).toBe(false);
  });

  test('method 3 at 40 ms / 5 Mbit/s: every pair bound where the page is, none where it is not, by the less bound visit as by the more bound one', () => {
    for (const pair of slowBound) {
      expect(pathVerdict(pair)?.bandwidthBound).toBe(true);
      for (const v of pair) expect(pathVerdict([v])?.bandwidthBound).toBe(true);
    }
    for (const pair of slowSmall) expect(pathVerdict(pair)?.bandwidthBound).toBe(false);
  });

  test('method 3 at 100 ms / 20 Mbit/s: the less bound visit gets the far, fast link back in 7 of 9 runs (the more bound one judged 8 of 9 bound)', () => {
    const judged = farBound.map((pair) => pathVerdict(pair)!);
    expect(judged.filter((v) => !v.bandwidthBound)).toHaveLength(7);
    expect(farBound.filter((pair) => pair.some((v) => pathVerdict([v])?.bandwidthBound === true))).toHaveLength(8);
    // Still a lower bound: no pair reads the page below its 2.9 round trips at the link's rate.
    for (const v of judged) expect(v.criticalRtts).toBeGreaterThan(744_000 / 2500 / 102.8);
  });

  // mcmanus-159 at 100 ms / 20 Mbit/s, five runs: the first (cold) visit of each
  // pair reads 512–729 B/ms, its large responses in slow start; the second 2 984–3 478 B/ms.
  const coldPairs: Array<[Visit, Visit]> = [
    [visit(113_679, 653.617, 101.4), visit(113_679, 2984.262, 102.4)],
    [visit(113_679, 700.837, 101.7), visit(113_679, 3426.154, 102.3)],
    [visit(113_679, 728.538, 101.4), visit(113_679, 2984.262, 104.5)],
    [visit(113_679, 512, 101.7), visit(113_679, 3477.736, 103)],
  ];

  test('a cold first visit reads the far link 4–7× slower than the next one', () => {
    for (const [cold, warm] of coldPairs) {
      expect(warm.path!.deliveryBytesPerMs / cold.path!.deliveryBytesPerMs).toBeGreaterThan(4);
      expect(pathVerdict([cold, warm])?.bandwidthBound).toBe(false);
    }
  });

  test('three visits or more: one slow cold visit does not judge a fast path bound, two do; two squeezed visits of five still do not clear a bound one', () => {
    // A cold first visit as mcmanus-159's slowest above (512 B/ms) on a page with more critical
    // bytes (almanac-median's 744 000): 744 000 / 512 / 101.7 = 14.3 round trips, as one run of
    // five judged mcmanus-159 bound when the more bound visit judged.
    const cold = visit(744_000, 512, 101.7);
    const [a, b] = farPairs[0] as [Visit, Visit];
    // Of two, the less bound judges (the more bound would judge this pair bound).
    expect(pathVerdict([cold, a])?.bandwidthBound).toBe(false);
    expect(pathVerdict([cold, a, b])).toMatchObject({ bandwidthBound: false, samples: 3 });
    expect(pathVerdict([cold, ...farPairs.flat()])?.bandwidthBound).toBe(false);
    // Two cold visits of three agree: bound.
    expect(pathVerdict([cold, a, cold])?.bandwidthBound).toBe(true);
    for (const [x, y] of slowLinkPairs) {
      // The squeezed visit (above the link) as stored: method 2; the bound one read under the link, as method 3 reads.
      const [bound, squeezedOne] = pathVerdict([x])?.bandwidthBound ? [x, y] : [y, x];
      const current = { ...bound, path: { ...bound.path!, method: PATH_SAMPLE_METHOD } };
      expect(readBack([current, squeezedOne, current, squeezedOne, current])?.bandwidthBound).toBe(true);
      expect(readBack([squeezedOne, current, current])?.bandwidthBound).toBe(true);
    }
  });
});
