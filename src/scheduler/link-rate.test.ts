import { LINK_WINDOWS, linkTakesWindows } from './link-rate';
import { INITIAL_WINDOW_BYTES } from './path-estimate';

const facts = (peakBytesPerMs: number | undefined, peakHeld?: boolean) => ({ origin: 'https://a.test', lastSeen: 0, ...(peakBytesPerMs !== undefined ? { peakBytesPerMs } : {}), ...(peakHeld !== undefined ? { peakHeld } : {}) });

describe('whether the client\'s link takes a document\'s extra windows (link-rate.ts)', () => {
  // At 100 ms the link must have carried 12 initial windows (173,760 B) in a round trip: 1,737.6 B/ms.
  const need = (LINK_WINDOWS * INITIAL_WINDOW_BYTES) / 100;

  test('a recent load that received a dozen windows in a round trip of this path says yes', () => {
    expect(linkTakesWindows([facts(need, false)], 100)).toBe(true);
    expect(linkTakesWindows([facts(need - 1, false)], 100)).toBe(false);
    // The same peak is a smaller share of a longer round trip.
    expect(linkTakesWindows([facts(need, false)], 40)).toBe(false);
  });

  test('a held peak below it, the link\'s own rate, says no whatever else was seen; a held peak above it says yes', () => {
    expect(linkTakesWindows([facts(need * 2, false), facts(need / 2, true)], 100)).toBe(false);
    // A peak written before `peakHeld` was kept reads as held.
    expect(linkTakesWindows([facts(need * 2, false), facts(need / 2)], 100)).toBe(false);
    expect(linkTakesWindows([facts(need * 2, true)], 100)).toBe(true);
  });

  test('no peak, or no round trip, says nothing of the link: no', () => {
    expect(linkTakesWindows([], 100)).toBe(false);
    expect(linkTakesWindows([facts(undefined)], 100)).toBe(false);
    expect(linkTakesWindows([facts(need * 2, false)], 0)).toBe(false);
  });
});
