import { realpathSync } from 'node:fs';
import { checkOriginFacts, checkPageOrigins, type Checked, type OriginFacts, type PageOrigins } from '../../src/origins/origin-facts';
import type { StoreHealth } from '../../src/protocol/store-health';
import { rewriteGeneration, type Judge } from './compaction';
import { ensurePrivateDir } from './data-dir';
import { asStoreError, type Env } from './lmdb-env';
import { LiveEnv, Moved } from './live-env';
import { checkHandshake, checkPageSummary, factsKey, originPrefix, pageOriginsKey, parseJson, prefixRange, timeRange } from './record-codec';
import { StoreError, describeCause } from './store-errors';
import { forgetEverything, forgetOriginJudge, holdsAnythingOlderThan, olderThanJudge } from './store-judges';
import { openLiveGeneration } from './store-open';
import { DAY_MS, storeConfig, type OpenStoreOptions, type StoreConfig } from './store-options';
import { checkQuery, valid } from './store-query';
import type { HandshakeQuery, HandshakeStore, PageSummary, StoredHandshake } from './store-types';
import { putItems, readSeq, type PendingItem } from './store-writes';
import { HandshakeSnapshot } from './handshake-snapshot';
import { WriteBatcher } from './write-batcher';

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
  const config = storeConfig(options);
  const dir = realpathSync(ensurePrivateDir(options.dir));
  const live = await openLiveGeneration(dir);
  const store = new LmdbStore(new LiveEnv(dir, live.generation, live.env), live.migrated, config);
  // A failed sweep is retried tomorrow; it must not keep the user from reading their data.
  if (!options.readOnly) await store.enforceRetention().catch((err) => store.reportError(err, 'enforcing retention'));
  return store;
}

/** The {@link HandshakeStore} on LMDB. See record-codec.ts for the key layout, generations.ts for the folders. */
export class LmdbStore implements HandshakeStore {
  readonly location: string;
  private readonly batcher: WriteBatcher<PendingItem>;
  private readonly retentionTimer: NodeJS.Timeout | undefined;
  private readonly counters = { skipped: 0, dangling: 0, written: 0 };
  private closing: Promise<void> | undefined;

  /** @internal Use {@link openStore}. */
  constructor(
    private readonly live: LiveEnv,
    private readonly migrated: number,
    private readonly config: StoreConfig,
  ) {
    this.location = live.location;
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
    return { skipped, dangling, written, pending: this.batcher.pendingOps, dropped: this.batcher.dropped, migrated: this.migrated, generation: this.live.generation };
  }

  health(): StoreHealth {
    const failure = this.batcher.failure;
    const base = { pending: this.batcher.pendingOps, dropped: this.batcher.dropped };
    if (!failure) return { state: 'ok', ...base };
    return { state: failure.code === 'E_STORE_FULL' ? 'full' : 'failing', ...base, error: { code: failure.code, message: failure.message } };
  }

  async addHandshakes(records: readonly StoredHandshake[]): Promise<void> {
    this.accept(records, (x, i) => ({ kind: 'h', record: valid(checkHandshake(x), `handshakes[${i}]`) }));
  }

  async addPageSummaries(summaries: readonly PageSummary[]): Promise<void> {
    this.accept(summaries, (x, i) => ({ kind: 'p', record: valid(checkPageSummary(x), `summaries[${i}]`) }));
  }

  async putOriginFacts(facts: readonly OriginFacts[]): Promise<void> {
    this.accept(facts, (x, i) => ({ kind: 'f', record: valid(checkOriginFacts(x), `facts[${i}]`) }));
  }

  async putPageOrigins(pages: readonly PageOrigins[]): Promise<void> {
    this.accept(pages, (x, i) => ({ kind: 'l', record: valid(checkPageOrigins(x), `pages[${i}]`) }));
  }

  /** Writes every accepted record now. @throws StoreError `E_STORE_FULL`, `E_STORE_WRITE` */
  async flush(): Promise<void> {
    await this.batcher.flush();
  }

  async *handshakes(query: HandshakeQuery = {}): AsyncGenerator<StoredHandshake> {
    const { origin, until } = checkQuery(query);
    const since = this.sinceWithRetention(query.since);
    const keep = (r: StoredHandshake) => (origin === undefined || r.origin === origin) && r.startedAt >= since && (until === undefined || r.startedAt < until);
    // By origin through its index, whose entries hold the record's key.
    const stored = origin === undefined ? this.scan(timeRange('h!', since, until), checkHandshake) : this.scan(timeRange(originPrefix('o', origin), since, until), checkHandshake, true);
    for await (const r of stored) if (keep(r)) yield r;
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
          generation: this.live.generation,
          env,
          txn,
          nextSeq: readSeq(env, { transaction: txn }),
          retainedSince: this.sinceWithRetention(undefined),
          decode: (value) => this.decode(checkHandshake, value),
          release: () => {
            txn.done();
            this.live.endRead();
          },
        });
      } catch (err) {
        txn.done();
        throw err;
      }
    } catch (err) {
      this.live.endRead();
      throw asStoreError(err, 'E_STORE_READ', `reading ${this.location}`, this.location);
    }
  }

  async *pageSummaries(query: { url?: string; since?: number; until?: number } = {}): AsyncGenerator<PageSummary> {
    const { until } = checkQuery(query);
    const since = this.sinceWithRetention(query.since);
    const keep = (p: PageSummary) => (query.url === undefined || p.url === query.url) && p.at >= since && (until === undefined || p.at < until);
    for await (const p of this.scan(timeRange('p!', since, until), checkPageSummary)) if (keep(p)) yield p;
    for (const item of this.batcher.pendingItems()) if (item.kind === 'p' && keep(item.record)) yield item.record;
  }

  async *originFacts(origin?: string): AsyncGenerator<OriginFacts> {
    if (origin !== undefined) checkQuery({ origin });
    yield* this.scan(origin === undefined ? prefixRange('f!') : exactKey(factsKey(origin)), checkOriginFacts);
  }

  async *pageOrigins(url?: string): AsyncGenerator<PageOrigins> {
    for await (const p of this.scan(url === undefined ? prefixRange('l!') : exactKey(pageOriginsKey(url)), checkPageOrigins)) {
      if (url === undefined || p.url === url) yield p;
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
    await this.live.follow();
    if (!holdsAnythingOlderThan(this.live.env, cutoff)) return 0;
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
    await this.live.close();
    if (lost !== undefined) {
      const code = lost instanceof StoreError && lost.code === 'E_STORE_FULL' ? 'E_STORE_FULL' : 'E_STORE_WRITE';
      throw new StoreError(code, `closed ${this.location} with ${this.batcher.pendingOps} records unwritten: ${describeCause(lost)}`, { cause: lost });
    }
  }

  /** Validates every record (`item` throws on a bad one) and hands them all to the write batcher, in memory. */
  private accept<T>(records: readonly T[], item: (x: T, i: number) => PendingItem): void {
    this.checkOpen();
    this.batcher.enqueue(records.map(item));
  }

  private async writeItems(items: PendingItem[]): Promise<void> {
    const records = await this.live.write(`writing ${items.length} records to ${this.location}`, (env) =>
      env.transactionSync(() => {
        if (!this.live.isLive()) throw new Moved();
        return putItems(env, items);
      }),
    );
    this.counters.written += records;
  }

  /** Rewrites the store without what `judge` drops; returns how many records went. */
  private async rewrite(judge: Judge, doing: string): Promise<number> {
    return this.live.write(doing, (env) => {
      const result = rewriteGeneration(this.location, this.live.generation, env, judge);
      if (result === 'moved') throw new Moved();
      this.live.replace(result.generation, result.env);
      if (result.left.length > 0) this.config.onError(new StoreError('E_STORE_WRITE', `${doing}: old generation(s) ${result.left.join(', ')} could not be removed yet (still open?); they go on the next rewrite`));
      return result.removed;
    });
  }

  /**
   * The well-formed records stored under `range` (the others are counted as skipped), read from
   * a fresh snapshot of the live generation. `indexed`: the range is an index whose entries hold
   * the record's key (an entry whose record is gone is counted as dangling).
   * @throws StoreError `E_STORE_READ`, `E_STORE_CLOSED`
   */
  private async *scan<T>(range: { start: string; end: string }, check: (x: unknown) => Checked<T>, indexed = false): AsyncGenerator<T> {
    const env = await this.beginRead();
    try {
      for (const { value } of env.getRange(range)) {
        const stored = indexed ? env.get(value) : value;
        if (stored === undefined) this.counters.dangling++;
        const r = stored === undefined ? undefined : this.decode(check, stored);
        if (r) yield r;
      }
    } catch (err) {
      throw asStoreError(err, 'E_STORE_READ', `reading ${this.location}`, this.location);
    } finally {
      this.live.endRead();
    }
  }

  /** Writes what is pending (a failure is the timer's to report), then begins a read of the live generation. */
  private async beginRead(): Promise<Env> {
    this.checkOpen();
    await this.batcher.flush().catch(() => undefined);
    return this.live.beginRead();
  }

  private sinceWithRetention(since: number | undefined): number {
    return Math.max(since ?? 0, this.config.now() - this.config.retentionMs);
  }

  private decode<T>(check: (x: unknown) => Checked<T>, value: string): T | undefined {
    const result = check(parseJson(value));
    if ('value' in result) return result.value;
    this.counters.skipped++;
    return undefined;
  }

  private checkOpen(): void {
    if (this.closing !== undefined) throw new StoreError('E_STORE_CLOSED', `the store at ${this.location} is closed`);
  }
}

/** The range holding exactly `key`. */
function exactKey(key: string): { start: string; end: string } {
  return { start: key, end: `${key}\x00` };
}
