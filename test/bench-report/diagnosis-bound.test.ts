import { lowerBound, type LinkModel } from '../../src/bound/lower-bound';
import { diagnose, diagnoseLoad } from '../../src/page/diagnosis/diagnose';
import { recordedLoad } from '../../src/page/diagnosis/recorded-load';
import { BENCH_PAGE_NAMES, getBenchPage } from '../../bench/corpus/bench-corpus';
import { recordedBenchPage } from '../../bench/diagnosis/recorded-bench-page';
import { pageStructureOf } from '../../bench/model/page-structure';
import { httpsOrigins } from '../../bench/real/real-bounds';

/**
 * One model serves both: the popup's bound of a recorded load of a bench page (its structure
 * inferred from Resource Timing's initiators and times, src/page/diagnosis/recorded-load.ts)
 * equals the bench's bound of the same page read from the corpus manifest, on the same link —
 * total, family by family, and request by request.
 */
const LINKS: LinkModel[] = [
  { rttMs: 100, downBitsPerSec: 20_000_000 },
  { rttMs: 70, downBitsPerSec: 1_544_000 },
  { rttMs: 40, downBitsPerSec: 0 },
];

describe.each(BENCH_PAGE_NAMES)('%s', (name) => {
  const page = getBenchPage(name);
  const record = recordedBenchPage(page, 100);
  const load = recordedLoad(record);

  it.each(LINKS)('the popup\'s bound is the bench\'s on $rttMs ms, $downBitsPerSec bit/s', (link) => {
    if (load === undefined) throw new Error('no load recorded');
    const bench = lowerBound(pageStructureOf(page, { scriptInserted: false }), link, { tls: httpsOrigins(page) });
    const popup = diagnoseLoad(load, link).bound;
    expect(popup.requests).toHaveLength(bench.requests.length);
    expect([popup.totalMs, popup.latencyMs, popup.bandwidthMs, popup.slowStartMs, popup.limitedBy])
      .toEqual([bench.totalMs, bench.latencyMs, bench.bandwidthMs, bench.slowStartMs, bench.limitedBy]);
    // Request by request: the same discovery, send and completion (keys differ: URL vs origin + path).
    const times = (b: typeof bench) => b.requests.map((t) => [t.level, t.discoveredMs, t.requestMs, t.completeMs]).sort((x, y) => String(x).localeCompare(String(y)));
    expect(times(popup)).toEqual(times(bench));
  });

  it('the path the popup measures from the record is the link it was recorded on', () => {
    const d = diagnose(record);
    if (d.status !== 'ok') throw new Error(d.message);
    expect(d.rttMs).toBeCloseTo(100, 6);
  });
});
