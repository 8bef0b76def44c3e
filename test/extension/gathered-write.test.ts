import { GatheredWrite } from '../../extension/background/gathered-write';
import { FakeTimers } from './background-fakes';

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('GatheredWrite', () => {
  test('changes within the delay share one write, made when the delay ends', async () => {
    const timers = new FakeTimers();
    let writes = 0;
    const w = new GatheredWrite(async () => void writes++, 1000, timers.setTimeout);
    w.schedule();
    w.schedule();
    w.schedule();
    expect(writes).toBe(0);
    expect(timers.due.map((t) => t.ms)).toEqual([1000]);
    timers.fire();
    await settle();
    expect(writes).toBe(1);
    w.schedule();
    timers.fire();
    await settle();
    expect(writes).toBe(2);
  });

  test('a flush writes now, and the write scheduled before it is not made again', async () => {
    const timers = new FakeTimers();
    let writes = 0;
    const w = new GatheredWrite(async () => void writes++, 1000, timers.setTimeout);
    w.schedule();
    await w.flush();
    expect(writes).toBe(1);
    timers.fire();
    await settle();
    expect(writes).toBe(1);
  });

  test('writes run one at a time, in order, and one that fails does not stop the next', async () => {
    const timers = new FakeTimers();
    const log: string[] = [];
    let n = 0;
    const w = new GatheredWrite(async () => {
      const i = ++n;
      log.push(`start ${i}`);
      await settle();
      log.push(`end ${i}`);
      if (i === 1) throw new Error('quota');
    }, 1000, timers.setTimeout);
    const first = w.flush();
    const second = w.flush();
    await expect(first).rejects.toThrow('quota');
    await second;
    expect(log).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
  });
});
