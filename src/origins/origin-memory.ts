import { checkOriginFacts, checkPageOrigins, MAX_PAGE_ORIGINS, mergeOriginFacts, type OriginFacts, type PageOrigin, type PageOrigins } from './origin-facts';

/**
 * What the engine remembers about an origin between page loads, and what it remembers about a
 * page: the origins it touched. The scheduler reads an origin's facts when it first meets the
 * origin and writes them as it learns. `InMemoryOriginMemory` keeps them for one process (tests,
 * `getlist load --revisit`, `--memory FILE`); the native host's store-backed memory
 * (native-host/store/store-origin-memory.ts) is one loaded from the store, writing back to it.
 *
 * Invariants: `get` never returns facts older than the memory's `maxAgeMs` (stale facts expire
 * rather than mislead: a path that was fast last month may be a phone today); a remembered
 * pipelining failure lasts only until `pipeliningBadUntil`, like a live demotion; `put` merges
 * (mergeOriginFacts), so a writer that knows one fact does not erase the others.
 */
export interface OriginMemory {
  /** Fresh facts for `origin`, or undefined when none are known or they expired. */
  get(origin: string): OriginFacts | undefined;
  /**
   * Merges `facts` into what is known of `facts.origin` and stamps `lastSeen`; a `bad` pipelining
   * verdict without `pipeliningBadUntil` is dated by the memory (its own clock, plus its demotion time).
   */
  put(facts: Omit<OriginFacts, 'lastSeen'>): void;
  /** Origins the page at `pageUrl` used on its last load, most requests first; empty if unknown or stale. */
  pageOrigins(pageUrl: string): PageOrigin[];
  /** Records the origins a load of `pageUrl` used. */
  putPageOrigins(pageUrl: string, origins: readonly PageOrigin[]): void;
}

/** The serialised form (`getlist load --memory FILE`). */
export interface OriginMemoryJson {
  version: 1;
  origins: OriginFacts[];
  pages: PageOrigins[];
}

/** Told of every change, with the whole merged record: how a store-backed memory writes through. */
export interface OriginMemoryListener {
  factsChanged(facts: OriginFacts): void;
  pageChanged(page: PageOrigins): void;
}

export interface InMemoryOriginMemoryOptions {
  /** Facts older than this are forgotten. @default 7 days */
  maxAgeMs?: number;
  /** How long a remembered pipelining failure holds. @default 10 minutes, as `Strategy.demoteMs` */
  demoteMs?: number;
  /** Epoch ms. @default Date.now */
  now?: () => number;
  listener?: OriginMemoryListener;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export class InMemoryOriginMemory implements OriginMemory {
  private readonly origins = new Map<string, OriginFacts>();
  private readonly pages = new Map<string, PageOrigins>();
  private readonly maxAgeMs: number;
  private readonly demoteMs: number;
  private readonly now: () => number;
  private readonly listener: OriginMemoryListener | undefined;

  constructor(options: InMemoryOriginMemoryOptions = {}) {
    this.maxAgeMs = options.maxAgeMs ?? 7 * DAY_MS;
    this.demoteMs = options.demoteMs ?? 10 * 60 * 1000;
    this.now = options.now ?? Date.now;
    this.listener = options.listener;
  }

  get(origin: string): OriginFacts | undefined {
    const f = this.origins.get(origin);
    if (!f) return undefined;
    const now = this.now();
    if (now - f.lastSeen > this.maxAgeMs) {
      this.origins.delete(origin);
      return undefined;
    }
    if (f.pipelining === 'bad' && (f.pipeliningBadUntil ?? 0) <= now) {
      const { pipelining: _p, pipeliningBadUntil: _u, ...rest } = f;
      return { ...rest };
    }
    return { ...f };
  }

  put(facts: Omit<OriginFacts, 'lastSeen'>): void {
    const now = this.now();
    const learned: OriginFacts = { ...facts, lastSeen: now };
    if (facts.pipelining === 'bad' && facts.pipeliningBadUntil === undefined) learned.pipeliningBadUntil = now + this.demoteMs;
    const next = mergeOriginFacts(this.origins.get(facts.origin), learned);
    this.origins.set(facts.origin, next);
    this.listener?.factsChanged({ ...next });
  }

  pageOrigins(pageUrl: string): PageOrigin[] {
    const p = this.pages.get(pageUrl);
    if (!p || this.now() - p.lastSeen > this.maxAgeMs) return [];
    return p.origins.map((o) => ({ ...o }));
  }

  putPageOrigins(pageUrl: string, origins: readonly PageOrigin[]): void {
    const sorted = [...origins].sort((a, b) => b.requests - a.requests).slice(0, MAX_PAGE_ORIGINS);
    const page: PageOrigins = { url: pageUrl, lastSeen: this.now(), origins: sorted };
    this.pages.set(pageUrl, page);
    this.listener?.pageChanged({ ...page, origins: sorted.map((o) => ({ ...o })) });
  }

  /** Takes records as stored (already dated), without telling the listener: how a memory is loaded. */
  load(origins: Iterable<OriginFacts>, pages: Iterable<PageOrigins> = []): void {
    for (const f of origins) this.origins.set(f.origin, mergeOriginFacts(this.origins.get(f.origin), f));
    for (const p of pages) {
      const had = this.pages.get(p.url);
      if (!had || had.lastSeen <= p.lastSeen) this.pages.set(p.url, p);
    }
  }

  toJSON(): OriginMemoryJson {
    return { version: 1, origins: [...this.origins.values()], pages: [...this.pages.values()] };
  }

  /** Reads what `toJSON` wrote; records that are not well formed (checkOriginFacts, checkPageOrigins) are skipped, not trusted. */
  static fromJSON(json: unknown, options: InMemoryOriginMemoryOptions = {}): InMemoryOriginMemory {
    const m = new InMemoryOriginMemory(options);
    const j = json as Partial<OriginMemoryJson> | null;
    if (!j || j.version !== 1) return m;
    const origins = (Array.isArray(j.origins) ? j.origins : []).map(checkOriginFacts).flatMap((r) => ('value' in r ? [r.value] : []));
    const pages = (Array.isArray(j.pages) ? j.pages : []).map(checkPageOrigins).flatMap((r) => ('value' in r ? [r.value] : []));
    m.load(origins, pages);
    return m;
  }
}
