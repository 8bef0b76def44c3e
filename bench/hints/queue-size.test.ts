import { resolveLinkOptions } from '../link/link-options';
import { linkPreset } from '../run/link-presets';
import { queueBytesOf } from './queue-size';

describe('the hints bench link queue (--queue-bdp)', () => {
  const far = linkPreset('mcmanus-100');
  const slow = { rttMs: 40, downBitsPerSec: 5_000_000, upBitsPerSec: 5_000_000, loss: 0 };

  test('one BDP at 100 ms / 20 Mbit/s is the link’s own default queue; at 40 ms / 5 Mbit/s the default is 64 KiB, 2.6 BDP', () => {
    // The forwarder's configuration as the link resolves it: the observer of what "default" means.
    expect(queueBytesOf(far, 1)).toBe(resolveLinkOptions(far).down.queueBytes);
    expect(queueBytesOf(far, 1)).toBe(250_000);
    expect(resolveLinkOptions(slow).down.queueBytes).toBe(64 * 1024);
    expect(queueBytesOf(slow, 1)).toBe(25_000);
    expect(resolveLinkOptions({ ...slow, queueBytes: queueBytesOf(slow, 1) }).down.queueBytes).toBe(25_000);
  });

  test('a multiple of the BDP, never below one full-size packet; no option keeps the link’s default', () => {
    expect(queueBytesOf(far, 2)).toBe(500_000);
    expect(queueBytesOf(far, 0.001)).toBe(1500);
    expect(queueBytesOf(far, undefined)).toBeUndefined();
  });
});
