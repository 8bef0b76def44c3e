import { StoreError } from './store-errors';
import { WriteBatcher, type WriteOp } from './write-batcher';

const put = (key: string): WriteOp => ({ type: 'put', key, value: key });

function setup(over: { fail?: () => boolean; maxPendingOps?: number; flushAtOps?: number } = {}) {
  const batches: string[][] = [];
  const errors: StoreError[] = [];
  const batcher = new WriteBatcher({
    write: async (ops) => {
      if (over.fail?.()) throw new Error('disk full');
      batches.push(ops.map((o) => o.key));
    },
    intervalMs: 1000,
    flushAtOps: over.flushAtOps ?? 100,
    maxPendingOps: over.maxPendingOps ?? 1000,
    onError: (e) => errors.push(e),
  });
  return { batcher, batches, errors };
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

test('ops accepted within one interval are written as one batch when the interval ends', async () => {
  const { batcher, batches } = setup();
  batcher.enqueue([put('a')]);
  await jest.advanceTimersByTimeAsync(600);
  batcher.enqueue([put('b'), put('c')]);
  expect(batches).toEqual([]);
  await jest.advanceTimersByTimeAsync(400); // 1000 ms after the first op, not after the last.
  expect(batches).toEqual([['a', 'b', 'c']]);
  expect(batcher.pendingOps).toBe(0);
});

test('reaching flushAtOps writes at once', async () => {
  const { batcher, batches } = setup({ flushAtOps: 3 });
  batcher.enqueue([put('a'), put('b'), put('c')]);
  await jest.advanceTimersByTimeAsync(0);
  expect(batches).toEqual([['a', 'b', 'c']]);
});

test('a failed batch stays pending in order, is reported, and is retried by the timer', async () => {
  let failing = true;
  const { batcher, batches, errors } = setup({ fail: () => failing });
  batcher.enqueue([put('a')]);
  await jest.advanceTimersByTimeAsync(1000);
  expect(errors.map((e) => e.code)).toEqual(['E_STORE_WRITE']);
  expect(errors[0]?.message).toContain('disk full');
  batcher.enqueue([put('b')]);
  failing = false;
  await jest.advanceTimersByTimeAsync(1000);
  expect(batches).toEqual([['a', 'b']]);
});

test('flush() rejects with E_STORE_WRITE when the write fails; a full backlog refuses new ops', async () => {
  const { batcher } = setup({ fail: () => true, maxPendingOps: 3 });
  batcher.enqueue([put('a'), put('b')]);
  await expect(batcher.flush()).rejects.toMatchObject({ code: 'E_STORE_WRITE' });
  expect(() => batcher.enqueue([put('c'), put('d')])).toThrow(expect.objectContaining({ code: 'E_STORE_WRITE', message: expect.stringContaining('disk full') }) as Error);
  batcher.stop();
});

test('stop() cancels the pending timer', () => {
  const { batcher } = setup();
  batcher.enqueue([put('a')]);
  expect(jest.getTimerCount()).toBe(1);
  batcher.stop();
  expect(jest.getTimerCount()).toBe(0);
});
