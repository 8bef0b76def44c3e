import { PRIORITY_CLASSES, priorityRank, type PriorityClass } from './priority';

/**
 * A FIFO with O(1) push / shift / peek and no per-item allocation beyond the array slot.
 * Invariant: items in `[head, items.length)` are live; the prefix is garbage compacted lazily.
 */
export class Fifo<T> {
  private items: T[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  /** Puts an item back at the front (used for retries, which keep their place in line). */
  unshift(item: T): void {
    if (this.head > 0) {
      this.head -= 1;
      this.items[this.head] = item;
    } else {
      this.items.unshift(item);
    }
  }

  peek(): T | undefined {
    return this.head < this.items.length ? this.items[this.head] : undefined;
  }

  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head] as T;
    this.head += 1;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  *[Symbol.iterator](): IterableIterator<T> {
    for (let i = this.head; i < this.items.length; i++) yield this.items[i] as T;
  }

  clear(): T[] {
    const rest = this.items.slice(this.head);
    this.items = [];
    this.head = 0;
    return rest;
  }
}

/**
 * Requests waiting for a connection, one FIFO per priority class.
 *
 * Invariants: a higher class is always served before a lower one; equal classes keep FIFO order.
 * With `prioritised = false` every item goes to one FIFO (the `browser` and `pipelined` strategies
 * serve in discovery order).
 */
export class PriorityQueue<T extends { priority: PriorityClass }> {
  private readonly lanes: Fifo<T>[];
  private count = 0;

  constructor(private readonly prioritised: boolean) {
    this.lanes = prioritised ? PRIORITY_CLASSES.map(() => new Fifo<T>()) : [new Fifo<T>()];
  }

  get size(): number {
    return this.count;
  }

  private lane(item: T): Fifo<T> {
    return this.lanes[this.prioritised ? priorityRank(item.priority) : 0] as Fifo<T>;
  }

  push(item: T): void {
    this.lane(item).push(item);
    this.count += 1;
  }

  unshift(item: T): void {
    this.lane(item).unshift(item);
    this.count += 1;
  }

  peek(): T | undefined {
    if (this.count === 0) return undefined;
    for (const lane of this.lanes) {
      const item = lane.peek();
      if (item !== undefined) return item;
    }
    return undefined;
  }

  shift(): T | undefined {
    if (this.count === 0) return undefined;
    for (const lane of this.lanes) {
      if (lane.size > 0) {
        this.count -= 1;
        return lane.shift();
      }
    }
    return undefined;
  }

  /** Removes and returns everything, highest class first. */
  drain(): T[] {
    const all: T[] = [];
    for (const lane of this.lanes) all.push(...lane.clear());
    this.count = 0;
    return all;
  }
}
