import { RequestGate, type Release } from './request-gate';

test('serves maxActive at once, then in arrival order; a full queue and a long wait are busy', async () => {
  jest.useFakeTimers();
  try {
    const gate = new RequestGate({ maxActive: 2, maxQueued: 2, maxWaitMs: 1000 });
    const a = (await gate.enter()) as Release;
    const b = (await gate.enter()) as Release;
    const order: string[] = [];
    const c = gate.enter().then((r) => (order.push('c'), r));
    const d = gate.enter().then((r) => (order.push('d'), r));
    expect(await gate.enter()).toBe('busy'); // queue full
    expect([gate.serving, gate.queued]).toEqual([2, 2]);
    a();
    a(); // idempotent: frees one turn only
    const rc = await c;
    expect(typeof rc).toBe('function');
    expect(order).toEqual(['c']);
    jest.advanceTimersByTime(1000);
    expect(await d).toBe('busy'); // waited too long
    b();
    (rc as Release)();
    expect(gate.serving).toBe(0);
    const e = gate.enter();
    gate.close();
    expect(typeof (await e)).toBe('function');
    expect(await gate.enter()).toBe('busy');
  } finally {
    jest.useRealTimers();
  }
});
