import { InMemoryOriginMemory } from '../../src/origins/origin-memory';
import { strategy, type Scheduler, type Strategy } from '../../src/scheduler';
import { DocumentWindows } from './document-windows';

const URL_ = 'https://d.test/page';

/** A memory whose latest load, on another site, received `peak` B/ms over a round trip (not held). */
function roomy(peak = 1e6): InMemoryOriginMemory {
  const m = new InMemoryOriginMemory();
  m.put({ origin: 'https://elsewhere.test', peakBytesPerMs: peak, peakHeld: false });
  return m;
}

/** What `tlsStarted` asked of the scheduler after the document's TCP handshake took `rttMs`. */
function opened(o: { memory?: InMemoryOriginMemory; s?: Strategy; url?: string; learned?: boolean; rttMs?: number; tlsOrigin?: string }): Array<[string, number]> {
  const calls: Array<[string, number]> = [];
  const scheduler = { documentWindows: (origin: string, n: number) => calls.push([origin, n]) } as unknown as Scheduler;
  const w = new DocumentWindows();
  const url = o.url ?? URL_;
  w.arm(scheduler, url, o.memory, o.s ?? strategy('getlist'), o.learned ?? false);
  w.tlsStarted(o.tlsOrigin ?? new URL(url).origin, o.rttMs ?? 100);
  w.tlsStarted(new URL(url).origin, o.rttMs ?? 100);
  return calls;
}

describe('when a first visit\'s document origin gets its windows (document-windows.ts)', () => {
  test('a far path to an https origin on a link that took a dozen windows: the strategy\'s count, once', () => {
    expect(opened({ memory: roomy() })).toEqual([['https://d.test', 3]]);
  });

  test('not on a near path, not on a link its latest loads saw small or held, not with no memory of it', () => {
    expect(opened({ memory: roomy(), rttMs: 10 })).toEqual([]);
    expect(opened({ memory: roomy(1_000) })).toEqual([]);
    expect(opened({ memory: new InMemoryOriginMemory() })).toEqual([]);
    expect(opened({})).toEqual([]);
  });

  test('not over http, not for an origin known to speak HTTP/1.1, not when a learned list opens the page\'s connections', () => {
    expect(opened({ memory: roomy(), url: 'http://d.test/page' })).toEqual([]);
    const h1 = roomy();
    h1.put({ origin: 'https://d.test', protocol: 'http/1.1' });
    expect(opened({ memory: h1 })).toEqual([]);
    expect(opened({ memory: roomy(), learned: true })).toEqual([]);
  });

  test('`--h2-connections` caps them, and a strategy with one opens none; another origin\'s handshake is not the document\'s', () => {
    expect(opened({ memory: roomy(), s: strategy('getlist', { http2: { connectionsForDemand: 2 } }) })).toEqual([['https://d.test', 2]]);
    expect(opened({ memory: roomy(), s: strategy('getlist', { http2: { connectionsForDemand: 1 } }) })).toEqual([]);
    expect(opened({ memory: roomy(), s: strategy('h2') })).toEqual([]);
    expect(opened({ memory: roomy(), tlsOrigin: 'https://cdn.test' })).toEqual([['https://d.test', 3]]);
  });
});
