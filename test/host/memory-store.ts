import { mergeOriginFacts, type OriginFacts, type PageOrigins } from '../../src/origins/origin-facts';
import type { StoreHealth } from '../../src/protocol/store-health';
import type { HandshakeQuery, HandshakeStore, PageSummary, StoredHandshake } from '../../native-host/store/store-types';

/** A `HandshakeStore` in memory, recording calls, with an optional failure to inject. */
export class MemoryStore implements HandshakeStore {
  readonly location = '/memory';
  readonly handshakeRecords: StoredHandshake[] = [];
  readonly pages: PageSummary[] = [];
  readonly facts = new Map<string, OriginFacts>();
  readonly pageLists = new Map<string, PageOrigins>();
  /** What health() reports. */
  healthNow: StoreHealth = { state: 'ok', pending: 0, dropped: 0 };
  closed = false;
  /** When set, reads and writes throw it. */
  failWith: Error | undefined;

  async addHandshakes(records: readonly StoredHandshake[]): Promise<void> {
    this.check();
    this.handshakeRecords.push(...records);
  }

  async addPageSummaries(summaries: readonly PageSummary[]): Promise<void> {
    this.check();
    this.pages.push(...summaries);
  }

  async *handshakes(query: HandshakeQuery = {}): AsyncIterable<StoredHandshake> {
    this.check();
    for (const r of this.handshakeRecords) {
      if (query.origin !== undefined && r.origin !== query.origin) continue;
      if (query.since !== undefined && r.startedAt < query.since) continue;
      if (query.until !== undefined && r.startedAt >= query.until) continue;
      yield r;
    }
  }

  async *pageSummaries(): AsyncIterable<PageSummary> {
    this.check();
    yield* this.pages;
  }

  async forget(origin?: string): Promise<number> {
    this.check();
    const before = this.handshakeRecords.length;
    const keep = this.handshakeRecords.filter((r) => origin !== undefined && r.origin !== origin);
    this.handshakeRecords.splice(0, Infinity, ...keep);
    return before - keep.length;
  }

  async putOriginFacts(facts: readonly OriginFacts[]): Promise<void> {
    this.check();
    for (const f of facts) this.facts.set(f.origin, mergeOriginFacts(this.facts.get(f.origin), f));
  }

  async *originFacts(origin?: string): AsyncIterable<OriginFacts> {
    this.check();
    for (const f of this.facts.values()) if (origin === undefined || f.origin === origin) yield f;
  }

  async putPageOrigins(pages: readonly PageOrigins[]): Promise<void> {
    this.check();
    for (const p of pages) this.pageLists.set(p.url, p);
  }

  async *pageOrigins(url?: string): AsyncIterable<PageOrigins> {
    this.check();
    for (const p of this.pageLists.values()) if (url === undefined || p.url === url) yield p;
  }

  health(): StoreHealth {
    return this.healthNow;
  }

  async enforceRetention(): Promise<number> {
    return 0;
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private check(): void {
    if (this.failWith) throw this.failWith;
    if (this.closed) throw new Error('store closed');
  }
}
