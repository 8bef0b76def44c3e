import type { OriginFacts, PageOrigins } from '../../src/origins/origin-facts';
import { InMemoryOriginMemory, type InMemoryOriginMemoryOptions, type OriginMemoryListener } from '../../src/origins/origin-memory';
import type { HandshakeStore } from './store-types';

/**
 * Origin memory kept in the store: what earlier loads (in this process or any other writing the
 * same store: hosts of other browsers, `getlist load --record`) learned about origins and pages.
 *
 * The scheduler reads facts synchronously on its hot path, so a `StoreOriginMemory` is loaded
 * before a load starts (the facts it may need, the page lists it may need) and then served from
 * memory, expiring as `InMemoryOriginMemory` does. Every fact learned is handed to the store as
 * the whole merged record (`putOriginFacts`, `putPageOrigins`): accepting is in memory and the
 * store's write batching puts it on disk within about a second; the store merges it with what
 * another process may have written meanwhile (mergeOriginFacts). A store failure never fails a
 * load: it is reported to `onError`, and the store's health says so.
 */
export class StoreMemoryWriter implements OriginMemoryListener {
  private readonly writes = new Set<Promise<void>>();

  constructor(
    private readonly store: HandshakeStore,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  factsChanged(facts: OriginFacts): void {
    this.track(this.store.putOriginFacts([facts]));
  }

  pageChanged(page: PageOrigins): void {
    this.track(this.store.putPageOrigins([page]));
  }

  /** Resolves once every write handed over so far was accepted (or reported) by the store. */
  async settled(): Promise<void> {
    await Promise.all([...this.writes]);
  }

  private track(write: Promise<void>): void {
    const p = write.catch(this.onError).finally(() => this.writes.delete(p));
    this.writes.add(p);
  }
}

export interface StoreOriginMemoryOptions extends Omit<InMemoryOriginMemoryOptions, 'listener'> {
  /** A failed store write (the load goes on). @default ignored */
  onError?: (err: unknown) => void;
}

/** What a load may ask of the memory: the page lists of `pages`, and the facts of `origins` (and of every origin those lists name). */
export interface MemoryNeeds {
  pages?: readonly string[];
  /** `all`: every origin's facts (a load that discovers its origins as it goes). */
  origins?: Iterable<string> | 'all';
}

export class StoreOriginMemory extends InMemoryOriginMemory {
  private readonly writer: StoreMemoryWriter;

  private constructor(writer: StoreMemoryWriter, options: StoreOriginMemoryOptions) {
    super({ ...options, listener: writer });
    this.writer = writer;
  }

  /** Reads what `needs` names from `store`; what is learned afterwards is written back to it. */
  static async open(store: HandshakeStore, needs: MemoryNeeds, options: StoreOriginMemoryOptions = {}): Promise<StoreOriginMemory> {
    const memory = new StoreOriginMemory(new StoreMemoryWriter(store, options.onError), options);
    const pages: PageOrigins[] = [];
    for (const url of new Set(needs.pages ?? [])) for await (const p of store.pageOrigins(url)) pages.push(p);
    const facts: OriginFacts[] = [];
    if (needs.origins === 'all') {
      for await (const f of store.originFacts()) facts.push(f);
    } else {
      const origins = new Set(needs.origins ?? []);
      for (const p of pages) for (const o of p.origins) origins.add(o.origin);
      for (const origin of origins) for await (const f of store.originFacts(origin)) facts.push(f);
    }
    memory.load(facts, pages);
    return memory;
  }

  /** Resolves once every fact learned so far was handed to the store. */
  settled(): Promise<void> {
    return this.writer.settled();
  }
}
