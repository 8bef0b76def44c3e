import { ADDRCONFIG, lookup, type LookupAddress } from 'node:dns';

/** What an answer depends on besides the name: the address family asked for and getaddrinfo's hints. */
export interface LookupKey {
  family?: number;
  hints?: number;
}

/**
 * The question `net.connect` asks of a name (family 0 with `ADDRCONFIG`, except on Windows). Every
 * other lookup of a name the page connects to asks it too, so their answers and the connects'
 * share one entry: a cache keyed by the question misses when the same name is asked another way.
 */
export const NET_CONNECT_LOOKUP: LookupKey = process.platform === 'win32' ? {} : { hints: ADDRCONFIG };

export type LookupAllFn = (hostname: string, options: { all: true; family?: number; hints?: number }, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

/**
 * A process's name lookups, kept for a minute and shared while in flight, as Chromium's host
 * cache keeps a system resolver's answer (getaddrinfo gives no TTL, so Chromium keeps it 60 s:
 * `HostResolverManager`'s cache TTL for system lookups) and joins a job already running for the
 * same name. A page's first connections ask for one name together, and its address-space check
 * asked for it just before: without the cache each asks getaddrinfo again, on libuv's thread pool,
 * milliseconds before its SYN. Failures are not kept: the next connect asks again.
 */
export class HostCache {
  private readonly entries = new Map<string, { at: number; answer: Promise<LookupAddress[]> }>();

  constructor(
    private readonly resolve: LookupAllFn = lookup as unknown as LookupAllFn,
    private readonly now: () => number = () => performance.now(),
    private readonly ttlMs = HOST_CACHE_TTL_MS,
    private readonly maxEntries = HOST_CACHE_MAX_ENTRIES,
  ) {}

  /** Every address of `hostname`, in the resolver's order. */
  lookupAll(hostname: string, key: LookupKey = {}): Promise<LookupAddress[]> {
    const id = `${key.family ?? 0}/${key.hints ?? 0}/${hostname}`;
    const kept = this.entries.get(id);
    if (kept !== undefined && this.now() - kept.at < this.ttlMs) return kept.answer;
    if (kept !== undefined) this.entries.delete(id);
    const answer = new Promise<LookupAddress[]>((resolve, reject) => {
      this.resolve(hostname, { all: true, ...(key.family !== undefined ? { family: key.family } : {}), ...(key.hints !== undefined ? { hints: key.hints } : {}) }, (err, addresses) => {
        if (err) reject(err);
        else resolve(addresses);
      });
    });
    answer.catch(() => {
      if (this.entries.get(id)?.answer === answer) this.entries.delete(id);
    });
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(id, { at: this.now(), answer });
    return answer;
  }
}

export const HOST_CACHE_TTL_MS = 60_000;
export const HOST_CACHE_MAX_ENTRIES = 256;

let shared: HostCache | undefined;

/** The process's one host cache: the connection gate and the page's address-space check share it. */
export function sharedHostCache(): HostCache {
  shared ??= new HostCache();
  return shared;
}
