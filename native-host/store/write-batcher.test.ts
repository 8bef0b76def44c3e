import { StoreError } from './store-errors';
import { WriteBatcher } from './write-batcher';

type WriteOp = { key: string };

const put = (key: string): WriteOp => ({ key });

function setup(over: { fail?: () => boolean; maxPendingOps?: number; flushAtOps?: number } = {}) {
  const batches: string[][] = [];
  const errors: StoreError[] = [];
  const batcher = new WriteBatcher<WriteOp>({
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
  expect(batcher.dropped).toBe(2);
  expect(batcher.pendingItems().map((o) => o.key)).toEqual(['a', 'b']);
  batcher.stop();
});

test('stop() cancels the pending timer', () => {
  const { batcher } = setup();
  batcher.enqueue([put('a')]);
  expect(jest.getTimerCount()).toBe(1);
  batcher.stop();
  expect(jest.getTimerCount()).toBe(0);
});

test('a full disk keeps the E_STORE_FULL code on refusal; removePending takes items out in order', async () => {
  const full = new StoreError('E_STORE_FULL', 'no space');
  const b2 = new WriteBatcher<WriteOp>({ write: () => { throw full; }, intervalMs: 1000, flushAtOps: 100, maxPendingOps: 2, onError: () => undefined });
  b2.enqueue([put('a')]);
  await expect(b2.flush()).rejects.toBe(full);
  expect(b2.failure).toBe(full);
  expect(() => b2.enqueue([put('b'), put('c')])).toThrow(expect.objectContaining({ code: 'E_STORE_FULL' }) as Error);
  b2.enqueue([put('b')]);
  expect(b2.removePending((o) => o.key === 'a').map((o) => o.key)).toEqual(['a']);
  expect(b2.pendingItems().map((o) => o.key)).toEqual(['b']);
  b2.stop();
});
