import { PRIORITY_CLASSES, priorityRank, type PriorityClass } from '../core/priority';

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

  /**
   * Inserts after every item that `compare` does not put after it (stable: equal items keep
   * arrival order). Scans from the tail, so arrivals already in order (live discovery) cost O(1).
   */
  insertOrdered(item: T, compare: (a: T, b: T) => number): void {
    let i = this.items.length;
    while (i > this.head && compare(this.items[i - 1] as T, item) > 0) i -= 1;
    if (i === this.items.length) this.items.push(item);
    else this.items.splice(i, 0, item);
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
 * Requests waiting for a connection, one lane per priority class.
 *
 * Invariants: a higher class is always served before a lower one; within a lane items are served
 * by ascending `rank` (prioritised queues only; all 0 without a `rank`), then in ascending `order`
 * (their discovery order), ties and items without `order` in arrival order. With
 * `prioritised = false` every item goes to one lane (the `browser` and `pipelined` strategies
 * serve in discovery order, whatever order the list arrived in).
 */
export class PriorityQueue<T extends { priority: PriorityClass; order?: number }> {
  private readonly lanes: Fifo<T>[];
  private count = 0;
  /** Invariant: every lane below `first` is empty (so peek/shift start there). */
  private first = 0;
  private readonly compare: (a: T, b: T) => number;

  /** `rank`: an order within a class (priority.ts `rankInClass`), lower first. */
  constructor(private readonly prioritised: boolean, private readonly rank?: (x: T) => number) {
    this.lanes = prioritised ? PRIORITY_CLASSES.map(() => new Fifo<T>()) : [new Fifo<T>()];
    const ranked = prioritised ? rank : undefined;
    this.compare = ranked ? (a, b) => ranked(a) - ranked(b) || orderOf(a) - orderOf(b) || 0 : (a, b) => orderOf(a) - orderOf(b) || 0;
  }

  get size(): number {
    return this.count;
  }

  private laneIndex(item: T): number {
    return this.prioritised ? priorityRank(item.priority) : 0;
  }

  push(item: T): void {
    const i = this.laneIndex(item);
    const lane = this.lanes[i] as Fifo<T>;
    if (item.order === undefined && (this.rank === undefined || !this.prioritised)) lane.push(item);
    else lane.insertOrdered(item, this.compare);
    if (i < this.first) this.first = i;
    this.count += 1;
  }

  unshift(item: T): void {
    const i = this.laneIndex(item);
    (this.lanes[i] as Fifo<T>).unshift(item);
    if (i < this.first) this.first = i;
    this.count += 1;
  }

  peek(): T | undefined {
    return this.count === 0 ? undefined : this.firstLane().peek();
  }

  shift(): T | undefined {
    if (this.count === 0) return undefined;
    this.count -= 1;
    return this.firstLane().shift();
  }

  /** The highest non-empty lane; only call when `count > 0`. */
  private firstLane(): Fifo<T> {
    let lane = this.lanes[this.first] as Fifo<T>;
    while (lane.size === 0) {
      this.first += 1;
      lane = this.lanes[this.first] as Fifo<T>;
    }
    return lane;
  }

  /** Removes and returns everything, highest class first. */
  drain(): T[] {
    const all: T[] = [];
    for (const lane of this.lanes) all.push(...lane.clear());
    this.count = 0;
    this.first = 0;
    return all;
  }
}

/** Items without an order sort as if discovered last so far (arrival order). */
function orderOf(x: { order?: number }): number {
  return x.order ?? Number.POSITIVE_INFINITY;
}
