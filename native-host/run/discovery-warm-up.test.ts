import { discoveryWarmUpSteps } from '../../src/discovery/warm-up';
import { MIN_WARM_UP_RTT_MS, warmDiscoveryWhileWaiting, warmUpStepsLeft } from './discovery-warm-up';
import { drainImmediates } from '../../test/support/immediates';

const TOTAL = discoveryWarmUpSteps().length;

// One process-wide warm-up: these tests run in order and share it, as loads in one process do.
describe('the discovery warm-up while a document is on its way', () => {
  it('runs nothing where the answer could come within a step: no round trip measured, or a short one', async () => {
    warmDiscoveryWhileWaiting(undefined);
    warmDiscoveryWhileWaiting(MIN_WARM_UP_RTT_MS - 1);
    await drainImmediates();
    expect(warmUpStepsLeft()).toBeUndefined();
  });

  it('runs steps only in the first half of the round trip', async () => {
    let t = 0;
    // Each reading of the clock is 10 ms after the one before: a 100 ms round trip leaves 50 ms, so
    // the steps read at 10, 20, 30 and 40 ms run and the one at 50 ms does not.
    warmDiscoveryWhileWaiting(100, () => (t += 10) - 10);
    await drainImmediates();
    expect(warmUpStepsLeft()).toBe(TOTAL - 4);
  });

  it('stops when told to, and the next load goes on from where it stopped until every step has run', async () => {
    const before = warmUpStepsLeft() as number;
    const w = warmDiscoveryWhileWaiting(100, () => 0);
    w.stop();
    await drainImmediates();
    expect(warmUpStepsLeft()).toBe(before);
    warmDiscoveryWhileWaiting(100, () => 0);
    await drainImmediates();
    expect(warmUpStepsLeft()).toBe(0);
  });
});
