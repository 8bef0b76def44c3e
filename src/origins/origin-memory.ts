import { checkOriginFacts, checkPageOrigins, MAX_PAGE_ORIGINS, mergeOriginFacts, type OriginFacts, type PageOrigin, type PageOrigins } from './origin-facts';
import { LIST_WINDOW, mergePageList, type ListedResource, type VisitResource } from './page-list';

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
  /**
   * Records the origins a load of `pageUrl` used and, when given, the sub-resources it fetched
   * (`visit`), merged into the page's request list (page-list.ts `mergePageList`). Without `visit`
   * (a replayed list, whose requests the browser already made) the page's list is kept as it was.
   */
  putPageOrigins(pageUrl: string, origins: readonly PageOrigin[], visit?: readonly VisitResource[]): void;
  /**
   * The page's learned request list and how many loads it has recorded; undefined when none is
   * known or it expired with the page's origin list.
   */
  pageList(pageUrl: string): { loads: number; resources: ListedResource[] } | undefined;
  /**
   * The fingerprint of the last trusted response to `url` (response-fingerprint.ts), or undefined
   * when none is known or it expired. Optional: a memory without it never proves order by
   * fingerprint, which costs time and never correctness.
   */
  fingerprint?(url: string): string | undefined;
  /** Records the fingerprint of a trusted response to `url`. */
  putFingerprint?(url: string, fingerprint: string): void;
  /**
   * The facts of every origin written within the last `withinMs`, whatever page used it: what the
   * client's own link showed on its latest loads (src/scheduler/link-rate.ts). Optional: a memory
   * without it, or one loaded with only a page's origins, tells nothing of the link.
   */
  recentFacts?(withinMs: number): OriginFacts[];
}

/** The serialised form (`getlist load --memory FILE`). */
export interface OriginMemoryJson {
  version: 1;
  origins: OriginFacts[];
  pages: PageOrigins[];
  /** `[url, fingerprint, epoch ms]`, oldest first. Absent in files written before fingerprints. */
  fingerprints?: Array<[string, string, number]>;
}

/** URLs whose fingerprints one memory keeps; the oldest written is dropped first. */
export const MAX_FINGERPRINTS = 4096;
const MAX_FINGERPRINT_CHARS = 128;

/** Told of every change, with the whole merged record: how a store-backed memory writes through. */
export interface OriginMemoryListener {
  factsChanged(facts: OriginFacts): void;
  pageChanged(page: PageOrigins): void;
}

export interface InMemoryOriginMemoryOptions {
  /** Facts older than this are forgotten. @default 7 days */
  maxAgeMs?: number;
  /** How long a remembered pipelining failure holds. @default 10 minutes, as `Strategy.pipelining.demoteMs` */
  demoteMs?: number;
  /** Epoch ms. @default Date.now */
  now?: () => number;
  listener?: OriginMemoryListener;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export class InMemoryOriginMemory implements OriginMemory {
  private readonly origins = new Map<string, OriginFacts>();
  private readonly pages = new Map<string, PageOrigins>();
  /** url → fingerprint and when it was written; a Map keeps write order, so the first is the oldest. */
  private readonly fingerprints = new Map<string, { fingerprint: string; at: number }>();
  private readonly maxAgeMs: number;
  private readonly demoteMs: number;
  private readonly now: () => number;
  private readonly listener: OriginMemoryListener | undefined;
  /** Records `fromJSON` skipped as not well formed, each as `where: problem`. */
  readonly skipped: string[] = [];

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

  recentFacts(withinMs: number): OriginFacts[] {
    const since = this.now() - Math.min(withinMs, this.maxAgeMs);
    const out: OriginFacts[] = [];
    for (const f of this.origins.values()) if (f.lastSeen >= since) out.push({ ...f });
    return out;
  }

  pageOrigins(pageUrl: string): PageOrigin[] {
    const p = this.pages.get(pageUrl);
    if (!p || this.now() - p.lastSeen > this.maxAgeMs) return [];
    return p.origins.map((o) => ({ ...o }));
  }

  putPageOrigins(pageUrl: string, origins: readonly PageOrigin[], visit?: readonly VisitResource[]): void {
    const sorted = [...origins].sort((a, b) => b.requests - a.requests).slice(0, MAX_PAGE_ORIGINS);
    const now = this.now();
    const had = this.pages.get(pageUrl);
    // A stale list is not merged into: it expired with its page.
    const prev = had && now - had.lastSeen <= this.maxAgeMs ? had : undefined;
    const page: PageOrigins = { url: pageUrl, lastSeen: now, origins: sorted };
    if (visit) {
      page.resources = mergePageList(prev?.resources, visit);
      page.loads = Math.min(LIST_WINDOW, (prev?.resources ? (prev.loads ?? 1) : 0) + 1);
    } else if (prev?.resources) {
      page.resources = prev.resources;
      page.loads = prev.loads ?? 1;
    }
    this.pages.set(pageUrl, page);
    this.listener?.pageChanged({ ...page, origins: sorted.map((o) => ({ ...o })), ...(page.resources ? { resources: page.resources.map((r) => ({ ...r })) } : {}) });
  }

  pageList(pageUrl: string): { loads: number; resources: ListedResource[] } | undefined {
    const p = this.pages.get(pageUrl);
    if (!p?.resources || this.now() - p.lastSeen > this.maxAgeMs) return undefined;
    return { loads: p.loads ?? 1, resources: p.resources.map((r) => ({ ...r })) };
  }

  fingerprint(url: string): string | undefined {
    const f = this.fingerprints.get(url);
    if (!f) return undefined;
    if (this.now() - f.at > this.maxAgeMs) {
      this.fingerprints.delete(url);
      return undefined;
    }
    return f.fingerprint;
  }

  putFingerprint(url: string, fingerprint: string): void {
    if (fingerprint.length > MAX_FINGERPRINT_CHARS) return;
    this.fingerprints.delete(url);
    this.fingerprints.set(url, { fingerprint, at: this.now() });
    if (this.fingerprints.size > MAX_FINGERPRINTS) this.fingerprints.delete(this.fingerprints.keys().next().value as string);
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
    const fingerprints = [...this.fingerprints].map(([url, f]): [string, string, number] => [url, f.fingerprint, f.at]);
    return { version: 1, origins: [...this.origins.values()], pages: [...this.pages.values()], ...(fingerprints.length > 0 ? { fingerprints } : {}) };
  }

  /**
   * Reads what `toJSON` wrote; records that are not well formed (checkOriginFacts,
   * checkPageOrigins: a page whose request list is corrupt included) are skipped, not trusted, and
   * counted in `skipped` with their problem. Files written before request lists load as they are.
   */
  static fromJSON(json: unknown, options: InMemoryOriginMemoryOptions = {}): InMemoryOriginMemory {
    const m = new InMemoryOriginMemory(options);
    const j = json as Partial<OriginMemoryJson> | null;
    if (!j || j.version !== 1) return m;
    const keep = <T>(r: { value: T } | { problem: string }, what: string): T[] => {
      if ('value' in r) return [r.value];
      m.skipped.push(`${what}: ${r.problem}`);
      return [];
    };
    const origins = (Array.isArray(j.origins) ? j.origins : []).flatMap((x, i) => keep(checkOriginFacts(x), `origins[${i}]`));
    const pages = (Array.isArray(j.pages) ? j.pages : []).flatMap((x, i) => keep(checkPageOrigins(x), `pages[${i}]`));
    m.load(origins, pages);
    // A malformed entry is skipped: a missing fingerprint only costs a proof.
    for (const e of Array.isArray(j.fingerprints) ? j.fingerprints : []) {
      if (!Array.isArray(e) || typeof e[0] !== 'string' || typeof e[1] !== 'string' || e[1].length > MAX_FINGERPRINT_CHARS || typeof e[2] !== 'number' || !Number.isFinite(e[2])) continue;
      m.fingerprints.delete(e[0]);
      m.fingerprints.set(e[0], { fingerprint: e[1], at: e[2] });
      if (m.fingerprints.size > MAX_FINGERPRINTS) m.fingerprints.delete(m.fingerprints.keys().next().value as string);
    }
    return m;
  }
}
