import { PRIORITY_CLASSES, priorityRank, type PriorityClass } from '../core/priority';
import { Fifo, PriorityQueue } from './priority-queue';
import { mulberry32 } from '../core/prng';

type Item = { priority: PriorityClass; n: number };


describe('PriorityQueue', () => {
  test('matches a sort-by-(class, arrival) reference under random interleavings of push and shift', () => {
    const rnd = mulberry32(42);
    for (let round = 0; round < 200; round++) {
      const q = new PriorityQueue<Item>(true);
      const ref: Item[] = [];
      let n = 0;
      for (let step = 0; step < 60; step++) {
        if (rnd() < 0.6) {
          const item = { priority: PRIORITY_CLASSES[Math.floor(rnd() * PRIORITY_CLASSES.length)] as PriorityClass, n: n++ };
          q.push(item);
          ref.push(item);
        } else {
          ref.sort((a, b) => priorityRank(a.priority) - priorityRank(b.priority) || a.n - b.n);
          expect(q.peek()).toBe(ref[0]);
          expect(q.shift()).toBe(ref.shift());
        }
        expect(q.size).toBe(ref.length);
      }
    }
  });

  test('with a rank: (class, rank, order, arrival) under random interleavings; unprioritised ignores the rank', () => {
    type Ranked = Item & { rank: number; order?: number };
    const rnd = mulberry32(7);
    for (const prioritised of [true, false]) {
      for (let round = 0; round < 200; round++) {
        const q = new PriorityQueue<Ranked>(prioritised, (x) => x.rank);
        const ref: Ranked[] = [];
        let n = 0;
        const withOrder = rnd() < 0.5;
        for (let step = 0; step < 60; step++) {
          if (rnd() < 0.6) {
            const item: Ranked = { priority: PRIORITY_CLASSES[Math.floor(rnd() * 3)] as PriorityClass, n: n++, rank: rnd() < 0.4 ? 0 : 1 };
            if (withOrder) item.order = Math.floor(rnd() * 20);
            q.push(item);
            ref.push(item);
          } else {
            const cls = (x: Ranked) => (prioritised ? priorityRank(x.priority) : 0);
            const rank = (x: Ranked) => (prioritised ? x.rank : 0);
            ref.sort((a, b) => cls(a) - cls(b) || rank(a) - rank(b) || (a.order ?? 0) - (b.order ?? 0) || a.n - b.n);
            expect(q.shift()).toBe(ref.shift());
          }
        }
      }
    }
  });

  test('unprioritised: one FIFO whatever the class', () => {
    const q = new PriorityQueue<Item>(false);
    q.push({ priority: 'prefetch', n: 1 });
    q.push({ priority: 'document', n: 2 });
    expect([q.shift()?.n, q.shift()?.n, q.shift()]).toEqual([1, 2, undefined]);
  });

  test('unshift puts an item first within its class; drain returns class order', () => {
    const q = new PriorityQueue<Item>(true);
    q.push({ priority: 'image', n: 1 });
    q.push({ priority: 'script', n: 2 });
    q.unshift({ priority: 'image', n: 0 });
    expect(q.drain().map((x) => x.n)).toEqual([2, 0, 1]);
    expect(q.size).toBe(0);
    q.push({ priority: 'document', n: 9 });
    expect(q.peek()?.n).toBe(9);
  });
});

describe('Fifo', () => {
  test('keeps order across compaction', () => {
    const f = new Fifo<number>();
    for (let i = 0; i < 5000; i++) f.push(i);
    for (let i = 0; i < 3000; i++) expect(f.shift()).toBe(i);
    f.push(5000);
    expect([...f]).toEqual(Array.from({ length: 2001 }, (_, i) => i + 3000));
  });
});
