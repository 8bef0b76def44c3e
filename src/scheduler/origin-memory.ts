/**
 * What the engine remembers about an origin between page loads, and what it remembers about a
 * page: the origins it touched. The scheduler reads an origin's facts when it first meets the
 * origin and writes them as it learns; the store (F's `src/origins/origin-facts.ts`) keeps them on
 * disk, and `InMemoryOriginMemory` keeps them for one process (tests, `getlist load --revisit`).
 *
 * Facts are plain JSON-serialisable records, so an adapter to any store is a get and a put.
 * Invariants: `get` never returns facts older than the memory's `maxAgeMs` (stale facts expire
 * rather than mislead: a path that was fast last month may be a phone today); a remembered
 * pipelining failure lasts only until `pipeliningBadUntil`, like a live demotion; `put` merges,
 * so a writer that knows one fact does not erase the others.
 */

/** Everything the engine learned about one origin. Every field but `origin` and `lastSeen` is optional. */
export interface OriginFacts {
  /** `scheme://host[:port]`, as the scheduler keys origins. */
  origin: string;
  /** When any fact was last written, ms since the epoch (the memory's own clock). */
  lastSeen: number;
  /** Pipelining earned (`good`: full depth at once) or broken (`bad`, until `pipeliningBadUntil`). */
  pipelining?: 'good' | 'bad';
  /** Epoch ms until which a `bad` origin stays unpipelined. */
  pipeliningBadUntil?: number;
  /** What ALPN chose last time: `h2` (one multiplexed connection) or `h1`. */
  protocol?: 'h1' | 'h2';
  /** Requests the server answered on one connection before it closed it, when it did. */
  requestBudget?: number;
  /** TCP handshake time: one round trip, ms. */
  rttMs?: number;
  /** Bottleneck delivery rate from a response's first flight, bytes/ms; `null` = too fast to cap. */
  rateBytesPerMs?: number | null;
  /** HTTP/1.1 connections the path took at once (path-estimate.ts). */
  connectionCap?: number;
}

/** One origin a page used, with how much it carried: enough to open its connections at t = 0. */
export interface PageOrigin {
  origin: string;
  requests: number;
}

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

/** The serialised form (`getlist load --memory FILE`, an adapter's records). */
export interface OriginMemoryJson {
  version: 1;
  origins: OriginFacts[];
  pages: Array<{ url: string; lastSeen: number; origins: PageOrigin[] }>;
}

export interface InMemoryOriginMemoryOptions {
  /** Facts older than this are forgotten. @default 7 days */
  maxAgeMs?: number;
  /** How long a remembered pipelining failure holds. @default 10 minutes, as `Strategy.demoteMs` */
  demoteMs?: number;
  /** Epoch ms. @default Date.now */
  now?: () => number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export class InMemoryOriginMemory implements OriginMemory {
  private readonly origins = new Map<string, OriginFacts>();
  private readonly pages = new Map<string, { lastSeen: number; origins: PageOrigin[] }>();
  private readonly maxAgeMs: number;
  private readonly demoteMs: number;
  private readonly now: () => number;

  constructor(options: InMemoryOriginMemoryOptions = {}) {
    this.maxAgeMs = options.maxAgeMs ?? 7 * DAY_MS;
    this.demoteMs = options.demoteMs ?? 10 * 60 * 1000;
    this.now = options.now ?? Date.now;
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
    const prev = this.origins.get(facts.origin);
    const now = this.now();
    const next: OriginFacts = { ...prev, ...stripUndefined(facts), origin: facts.origin, lastSeen: now };
    if (facts.pipelining === 'bad' && facts.pipeliningBadUntil === undefined) next.pipeliningBadUntil = now + this.demoteMs;
    if (facts.pipelining === 'good') delete next.pipeliningBadUntil;
    this.origins.set(facts.origin, next);
  }

  pageOrigins(pageUrl: string): PageOrigin[] {
    const p = this.pages.get(pageUrl);
    if (!p || this.now() - p.lastSeen > this.maxAgeMs) return [];
    return p.origins.map((o) => ({ ...o }));
  }

  putPageOrigins(pageUrl: string, origins: readonly PageOrigin[]): void {
    const sorted = [...origins].sort((a, b) => b.requests - a.requests);
    this.pages.set(pageUrl, { lastSeen: this.now(), origins: sorted });
  }

  toJSON(): OriginMemoryJson {
    return {
      version: 1,
      origins: [...this.origins.values()],
      pages: [...this.pages].map(([url, p]) => ({ url, lastSeen: p.lastSeen, origins: p.origins })),
    };
  }

  /** Reads what `toJSON` wrote; records that are not well formed are skipped, not trusted. */
  static fromJSON(json: unknown, options: InMemoryOriginMemoryOptions = {}): InMemoryOriginMemory {
    const m = new InMemoryOriginMemory(options);
    const j = json as Partial<OriginMemoryJson> | null;
    if (!j || j.version !== 1) return m;
    for (const f of Array.isArray(j.origins) ? j.origins : []) {
      if (isFacts(f)) m.origins.set(f.origin, f);
    }
    for (const p of Array.isArray(j.pages) ? j.pages : []) {
      if (typeof p?.url === 'string' && typeof p.lastSeen === 'number' && Array.isArray(p.origins)) {
        const origins = p.origins.filter((o) => typeof o?.origin === 'string' && Number.isInteger(o.requests) && o.requests > 0);
        m.pages.set(p.url, { lastSeen: p.lastSeen, origins });
      }
    }
    return m;
  }
}

function isFacts(f: unknown): f is OriginFacts {
  const x = f as Partial<OriginFacts> | null;
  if (!x || typeof x.origin !== 'string' || typeof x.lastSeen !== 'number') return false;
  const optNum = (v: unknown) => v === undefined || (typeof v === 'number' && Number.isFinite(v) && v >= 0);
  return (
    (x.pipelining === undefined || x.pipelining === 'good' || x.pipelining === 'bad') &&
    (x.protocol === undefined || x.protocol === 'h1' || x.protocol === 'h2') &&
    optNum(x.pipeliningBadUntil) && optNum(x.requestBudget) && optNum(x.rttMs) && optNum(x.connectionCap) &&
    (x.rateBytesPerMs === null || optNum(x.rateBytesPerMs))
  );
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
