import { runSelfCheck, type SelfCheckResult } from '../../bench/link/self-check';
import { describeNetns } from './netns-gate';

describeNetns('link emulator self-check', () => {
  let result: SelfCheckResult;
  beforeAll(async () => {
    result = await runSelfCheck();
  }, 60_000);

  test('TCP runs reno with the recorded initial window', () => {
    expect(result.info).toMatchObject({ congestionControl: 'reno', initCwnd: 10, mtu: 1500 });
    expect([0, 1]).toContain(result.info.slowStartAfterIdle);
  });

  // Each check carries its measured value, so a failure prints what was seen.
  test.each(['connect time', 'tcp in use', 'throughput', 'loss'])('%s', (name) => {
    const check = result.checks.find((c) => c.name === name);
    expect(check).toMatchObject({ passed: true });
  });

  test('finishes within 60 s', () => {
    expect(result.elapsedMs).toBeLessThan(60_000);
  });
});
