import { realpathSync } from 'node:fs';
import { CodedError } from '../../src/core/coded-error';
import { checkOriginFacts, checkPageOrigins, type OriginFacts, type PageOrigins } from '../../src/origins/origin-facts';
import type { StoreHealth } from '../../src/protocol/store-health';
import { rewriteGeneration, type Judge } from './compaction';
import { ensurePrivateDir } from './data-dir';
import { readActive } from './generations';
import { asStoreError, type Env } from './lmdb-env';
import { checkHandshake, checkPageSummary, factsKey, originPrefix, pageOriginsKey, parseJson, prefixRange, timeRange } from './record-codec';
import { StoreError, describeCause } from './store-errors';
import { forgetEverything, forgetOriginJudge, olderThanJudge } from './store-judges';
import { openLiveGeneration } from './store-open';
import { checkQuery, valid } from './store-query';
import type { HandshakeQuery, HandshakeStore, PageSummary, StoredHandshake } from './store-types';
import { putItems, readSeq, type PendingItem } from './store-writes';
import { HandshakeSnapshot } from './handshake-snapshot';
import { WriteBatcher } from './write-batcher';

const DAY_MS = 86_400_000;

export interface OpenStoreOptions {
  /** The store's own folder (e.g. `storeDirIn(dataDirPath())`); created 0700 if missing. */
  dir: string;
  /**
   * Records older than this many days are never returned, and are deleted (rewriting the store,
   * see compaction.ts) on open and once a day while open.
   * @default 90
   */
  retentionDays?: number;
  /** @default Date.now */
  now?: () => number;
  /**
   * Longest an accepted record waits in memory before it is written: what a `kill -9` can lose.
   * @default 250
   */
  flushIntervalMs?: number;
  /**
   * Most records kept in memory while writes fail (a full disk); more are refused and counted as
   * dropped. About 0.5 KiB each.
   * @default 50000
   */
  maxPendingRecords?: number;
  /** For readers (stats, export, metrics): no retention sweep on open and no daily timer. @default false */
  readOnly?: boolean;
  /** Failures of background work (timed flushes, daily retention). @default a line on stderr */
  onError?: (err: StoreError) => void;
}

/** Counters since open (a plain snapshot, like undici's `stats`). */
export interface StoreStats {
  /** Stored values that were not valid records (corrupt or foreign) and were skipped on read. */
  skipped: number;
  /** Index entries whose record was gone. */
  dangling: number;
  /** Records (handshakes and page summaries) written to disk by this process. */
  written: number;
  /** Records and facts accepted but not yet written. */
  pending: number;
  /** Records refused because too many were waiting (writes failing): lost. */
  dropped: number;
  /** Records copied from a LevelDB store when this open created the store. */
  migrated: number;
  /** The live generation folder this process reads and writes. */
  generation: string;
}

/**
 * Opens (creating if needed) the store at `options.dir`. Any number of processes may have it open
 * at once; a store left by a killed process opens normally.
 * @throws StoreError E_DATA_DIR, E_STORE_VERSION, E_STORE_OPEN, E_STORE_OPTIONS, E_STORE_LOCKED
 */
export async function openStore(options: OpenStoreOptions): Promise<LmdbStore> {
  const retentionDays = options.retentionDays ?? 90;
  const flushIntervalMs = options.flushIntervalMs ?? 250;
  const maxPending = options.maxPendingRecords ?? 50_000;
  if (!(retentionDays > 0)) throw new StoreError('E_STORE_OPTIONS', `retentionDays: expected a number of days > 0, got ${retentionDays}`);
  if (!(flushIntervalMs > 0 && flushIntervalMs <= 60_000)) throw new StoreError('E_STORE_OPTIONS', `flushIntervalMs: expected 1 … 60000, got ${flushIntervalMs}`);
  if (!(Number.isSafeInteger(maxPending) && maxPending > 0)) throw new StoreError('E_STORE_OPTIONS', `maxPendingRecords: expected an integer > 0, got ${maxPending}`);
  const dir = realpathSync(ensurePrivateDir(options.dir));
  const live = await openLiveGeneration(dir);
  const store = new LmdbStore(dir, live.generation, live.env, live.migrated, {
    retentionMs: retentionDays * DAY_MS,
    now: options.now ?? Date.now,
    flushIntervalMs,
    maxPending,
    readOnly: options.readOnly === true,
    onError: options.onError ?? ((err) => console.error(`getlist: ${err.code}: ${err.message}`)),
  });
  // A failed sweep is retried tomorrow; it must not keep the user from reading their data.
  if (!options.readOnly) await store.enforceRetention().catch((err) => store.reportError(err, 'enforcing retention'));
  return store;
}

interface StoreConfig {
  retentionMs: number;
  now: () => number;
  flushIntervalMs: number;
  maxPending: number;
  readOnly: boolean;
  onError: (err: StoreError) => void;
}

/** Thrown inside a write transaction that found ACTIVE moved: abort, follow, retry. */
class Moved extends CodedError<'E_STORE_MOVED'> {
  constructor() {
    super('E_STORE_MOVED', 'the store moved to a new generation while writing');
  }
}

/** The {@link HandshakeStore} on LMDB. See record-codec.ts for the key layout, generations.ts for the folders. */
export class LmdbStore implements HandshakeStore {
  private readonly batcher: WriteBatcher<PendingItem>;
  private readonly retentionTimer: NodeJS.Timeout | undefined;
  private readonly counters = { skipped: 0, dangling: 0, written: 0 };
  /** Environments of replaced generations, closed once no read is walking them. */
  private retired: Env[] = [];
  private reading = 0;
  private closing: Promise<void> | undefined;

  /** @internal Use {@link openStore}. */
  constructor(
    readonly location: string,
    private generation: string,
    private env: Env,
    private readonly migrated: number,
    private readonly config: StoreConfig,
  ) {
    this.batcher = new WriteBatcher<PendingItem>({
      write: (items) => this.writeItems(items),
      intervalMs: config.flushIntervalMs,
      flushAtOps: 8192,
      maxPendingOps: config.maxPending,
      onError: config.onError,
    });
    if (!config.readOnly) {
      this.retentionTimer = setInterval(() => void this.enforceRetention().catch((err) => this.reportError(err, 'enforcing retention')), DAY_MS);
      this.retentionTimer.unref();
    }
  }

  /** @internal Hands a background failure to `onError`. */
  reportError(err: unknown, doing: string): void {
    this.config.onError(asStoreError(err, 'E_STORE_WRITE', `${doing} in ${this.location}`, this.location));
  }

  stats(): StoreStats {
    const { skipped, dangling, written } = this.counters;
    return { skipped, dangling, written, pending: this.batcher.pendingOps, dropped: this.batcher.dropped, migrated: this.migrated, generation: this.generation };
  }

  health(): StoreHealth {
    const failure = this.batcher.failure;
    const base = { pending: this.batcher.pendingOps, dropped: this.batcher.dropped };
    if (!failure) return { state: 'ok', ...base };
    return { state: failure.code === 'E_STORE_FULL' ? 'full' : 'failing', ...base, error: { code: failure.code, message: failure.message } };
  }

  async addHandshakes(records: readonly StoredHandshake[]): Promise<void> {
    this.checkOpen();
    const items = records.map((x, i): PendingItem => ({ kind: 'h', record: valid(checkHandshake(x), `handshakes[${i}]`) }));
    this.batcher.enqueue(items);
  }

  async addPageSummaries(summaries: readonly PageSummary[]): Promise<void> {
    this.checkOpen();
    const items = summaries.map((x, i): PendingItem => ({ kind: 'p', record: valid(checkPageSummary(x), `summaries[${i}]`) }));
    this.batcher.enqueue(items);
  }

  async putOriginFacts(facts: readonly OriginFacts[]): Promise<void> {
    this.checkOpen();
    const items = facts.map((x, i): PendingItem => ({ kind: 'f', record: valid(checkOriginFacts(x), `facts[${i}]`) }));
    this.batcher.enqueue(items);
  }

  async putPageOrigins(pages: readonly PageOrigins[]): Promise<void> {
    this.checkOpen();
    const items = pages.map((x, i): PendingItem => ({ kind: 'l', record: valid(checkPageOrigins(x), `pages[${i}]`) }));
    this.batcher.enqueue(items);
  }

  /** Writes every accepted record now. @throws StoreError `E_STORE_FULL`, `E_STORE_WRITE` */
  async flush(): Promise<void> {
    await this.batcher.flush();
  }

  async *handshakes(query: HandshakeQuery = {}): AsyncGenerator<StoredHandshake> {
    const { origin, until } = checkQuery(query);
    const since = this.sinceWithRetention(query.since);
    const keep = (r: StoredHandshake) => (origin === undefined || r.origin === origin) && r.startedAt >= since && (until === undefined || r.startedAt < until);
    const env = await this.beginRead();
    try {
      if (origin === undefined) {
        for (const { value } of env.getRange(timeRange('h!', since, until))) {
          const r = this.decode(checkHandshake, value);
          if (r && keep(r)) yield r;
        }
      } else {
        for (const { value: hKey } of env.getRange(timeRange(originPrefix('o', origin), since, until))) {
          const value = env.get(hKey);
          if (value === undefined) this.counters.dangling++;
          const r = value === undefined ? undefined : this.decode(checkHandshake, value);
          if (r && keep(r)) yield r;
        }
      }
    } catch (err) {
      throw asStoreError(err, 'E_STORE_READ', `reading ${this.location}`, this.location);
    } finally {
      this.endRead();
    }
    // Accepted but not on disk (writes failing): still this process's records, so still counted.
    for (const item of this.batcher.pendingItems()) if (item.kind === 'h' && keep(item.record)) yield item.record;
  }

  /**
   * A consistent read of the live generation for a reader that keeps its own aggregate and reads
   * only what was added since its last snapshot (see handshake-snapshot.ts). Call `done()` when
   * finished, before closing the store. @throws StoreError `E_STORE_READ`, `E_STORE_CLOSED`
   */
  async snapshot(): Promise<HandshakeSnapshot> {
    const env = await this.beginRead();
    try {
      const txn = env.useReadTransaction();
      try {
        return new HandshakeSnapshot({
          generation: this.generation,
          env,
          txn,
          nextSeq: readSeq(env, { transaction: txn }),
          retainedSince: this.sinceWithRetention(undefined),
          decode: (value) => this.decode(checkHandshake, value),
          release: () => {
            txn.done();
            this.endRead();
          },
        });
      } catch (err) {
        txn.done();
        throw err;
      }
    } catch (err) {
      this.endRead();
      throw asStoreError(err, 'E_STORE_READ', `reading ${this.location}`, this.location);
    }
  }

  async *pageSummaries(query: { url?: string; since?: number; until?: number } = {}): AsyncGenerator<PageSummary> {
    const { until } = checkQuery(query);
    const since = this.sinceWithRetention(query.since);
    const keep = (p: PageSummary) => (query.url === undefined || p.url === query.url) && p.at >= since && (until === undefined || p.at < until);
    const env = await this.beginRead();
    try {
      for (const { value } of env.getRange(timeRange('p!', since, until))) {
        const p = this.decode(checkPageSummary, value);
        if (p && keep(p)) yield p;
      }
    } catch (err) {
      throw asStoreError(err, 'E_STORE_READ', `reading ${this.location}`, this.location);
    } finally {
      this.endRead();
    }
    for (const item of this.batcher.pendingItems()) if (item.kind === 'p' && keep(item.record)) yield item.record;
  }

  async *originFacts(origin?: string): AsyncGenerator<OriginFacts> {
    if (origin !== undefined) checkQuery({ origin });
    const env = await this.beginRead();
    try {
      const range = origin === undefined ? prefixRange('f!') : { start: factsKey(origin), end: `${factsKey(origin)}\x00` };
      for (const { value } of env.getRange(range)) {
        const f = this.decode(checkOriginFacts, value);
        if (f) yield f;
      }
    } catch (err) {
      throw asStoreError(err, 'E_STORE_READ', `reading ${this.location}`, this.location);
    } finally {
      this.endRead();
    }
  }

  async *pageOrigins(url?: string): AsyncGenerator<PageOrigins> {
    const env = await this.beginRead();
    try {
      const range = url === undefined ? prefixRange('l!') : { start: pageOriginsKey(url), end: `${pageOriginsKey(url)}\x00` };
      for (const { value } of env.getRange(range)) {
        const p = this.decode(checkPageOrigins, value);
        if (p && (url === undefined || p.url === url)) yield p;
      }
    } catch (err) {
      throw asStoreError(err, 'E_STORE_READ', `reading ${this.location}`, this.location);
    } finally {
      this.endRead();
    }
  }

  /**
   * Deletes everything, or everything about `origin`: its connections, connections opened by its
   * pages (e.g. to a CDN), its page summaries, its facts and the page origin lists that name it, including those still waiting in
   * memory. The store is rewritten without them (compaction.ts), so they leave the files too.
   */
  async forget(origin?: string): Promise<number> {
    this.checkOpen();
    if (origin !== undefined) checkQuery({ origin });
    const judge = origin === undefined ? forgetEverything : forgetOriginJudge(origin);
    await this.batcher.flush().catch(() => undefined);
    const unsaved = this.batcher.removePending((item) => judge(item.kind === 'f' ? factsKey(item.record.origin) : item.kind === 'l' ? pageOriginsKey(item.record.url) : `${item.kind}!`, JSON.stringify(item.record)) === 'drop');
    const removed = await this.rewrite(judge, `forgetting in ${this.location}`);
    return removed + unsaved.filter((i) => i.kind === 'h' || i.kind === 'p').length;
  }

  async enforceRetention(now: number = this.config.now()): Promise<number> {
    this.checkOpen();
    const cutoff = now - this.config.retentionMs;
    await this.batcher.flush().catch(() => undefined);
    await this.follow();
    if (!this.anythingOlderThan(cutoff)) return 0;
    // A stored fact or page list that is not well formed is dropped here, and counted as skipped.
    return this.rewrite(olderThanJudge(cutoff, () => this.counters.skipped++), `enforcing retention in ${this.location}`);
  }

  close(): Promise<void> {
    this.closing ??= this.doClose();
    return this.closing;
  }

  private async doClose(): Promise<void> {
    if (this.retentionTimer) clearInterval(this.retentionTimer);
    let lost: unknown;
    try {
      await this.batcher.flush();
    } catch (err) {
      lost = err;
    }
    this.batcher.stop();
    for (const env of [this.env, ...this.retired.splice(0)]) await env.close().catch(() => undefined);
    if (lost !== undefined) {
      const code = lost instanceof StoreError && lost.code === 'E_STORE_FULL' ? 'E_STORE_FULL' : 'E_STORE_WRITE';
      throw new StoreError(code, `closed ${this.location} with ${this.batcher.pendingOps} records unwritten: ${describeCause(lost)}`, { cause: lost });
    }
  }

  private async writeItems(items: PendingItem[]): Promise<void> {
    const records = await this.inLiveGeneration(`writing ${items.length} records to ${this.location}`, (env) =>
      env.transactionSync(() => {
        if (readActive(this.location) !== this.generation) throw new Moved();
        return putItems(env, items);
      }),
    );
    this.counters.written += records;
  }

  /** Rewrites the store without what `judge` drops; returns how many records went. */
  private async rewrite(judge: Judge, doing: string): Promise<number> {
    return this.inLiveGeneration(doing, (env) => {
      const result = rewriteGeneration(this.location, this.generation, env, judge);
      if (result === 'moved') throw new Moved();
      this.retire(result.generation, result.env);
      if (result.left.length > 0) this.config.onError(new StoreError('E_STORE_WRITE', `${doing}: old generation(s) ${result.left.join(', ')} could not be removed yet (still open?); they go on the next rewrite`));
      return result.removed;
    });
  }

  /** Runs `fn` on the live generation, following ACTIVE when another process replaced it. */
  private async inLiveGeneration<T>(doing: string, fn: (env: Env) => T): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      await this.follow();
      try {
        return fn(this.env);
      } catch (err) {
        if (err instanceof Moved && attempt < 5) continue;
        throw asStoreError(err, 'E_STORE_WRITE', doing, this.location);
      }
    }
  }

  /** Switches to the live generation if another process replaced ours. */
  private async follow(): Promise<void> {
    if (readActive(this.location) === this.generation) return;
    const live = await openLiveGeneration(this.location);
    this.retire(live.generation, live.env);
  }

  private retire(generation: string, env: Env): void {
    this.retired.push(this.env);
    this.env = env;
    this.generation = generation;
    this.closeRetired();
  }

  private closeRetired(): void {
    if (this.reading > 0) return;
    for (const env of this.retired.splice(0)) void env.close().catch(() => undefined);
  }

  /** Writes what is pending (a failure is the timer's to report), follows ACTIVE, takes a fresh snapshot. */
  private async beginRead(): Promise<Env> {
    this.checkOpen();
    await this.batcher.flush().catch(() => undefined);
    await this.follow();
    this.env.resetReadTxn();
    this.reading++;
    return this.env;
  }

  private endRead(): void {
    this.reading--;
    this.closeRetired();
  }

  private sinceWithRetention(since: number | undefined): number {
    return Math.max(since ?? 0, this.config.now() - this.config.retentionMs);
  }

  private anythingOlderThan(cutoff: number): boolean {
    this.env.resetReadTxn();
    for (const prefix of ['h!', 'p!']) {
      for (const _ of this.env.getKeys({ ...timeRange(prefix, undefined, cutoff), limit: 1 })) return true;
    }
    for (const { value } of this.env.getRange(prefixRange('f!'))) {
      const f = checkOriginFacts(parseJson(value));
      if (!('value' in f) || f.value.lastSeen < cutoff) return true;
    }
    for (const { value } of this.env.getRange(prefixRange('l!'))) {
      const l = checkPageOrigins(parseJson(value));
      if (!('value' in l) || l.value.lastSeen < cutoff) return true;
    }
    return false;
  }

  private decode<T>(check: (x: unknown) => { value: T } | { problem: string }, value: string): T | undefined {
    const result = check(parseJson(value));
    if ('value' in result) return result.value;
    this.counters.skipped++;
    return undefined;
  }

  private checkOpen(): void {
    if (this.closing !== undefined) throw new StoreError('E_STORE_CLOSED', `the store at ${this.location} is closed`);
  }
}
