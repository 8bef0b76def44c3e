import { realpathSync } from 'node:fs';
import { ensurePrivateDir, tightenFiles } from './data-dir';
import { expireBefore, forgetAll, forgetOrigin } from './level-deletes';
import { openLevel, readMeta, type Db } from './level-open';
import { META_SEQ, checkHandshake, checkPageSummary, indexKeysOf, originPrefix, parseJson, recordKey, timeRange } from './record-codec';
import { StoreError, describeCause, errorCode } from './store-errors';
import type { HandshakeQuery, HandshakeStore, PageSummary, StoredHandshake } from './store-types';
import { WriteBatcher, type WriteOp } from './write-batcher';

const DAY_MS = 86_400_000;
/** Keys per multi-get: bounds memory on large stores. */
const CHUNK = 512;

export interface OpenStoreOptions {
  /** The store's own folder (e.g. `storeDirIn(dataDirPath())`); created 0700 if missing. */
  dir: string;
  /**
   * Records older than this many days are deleted on open and once a day while open.
   * @default 90
   */
  retentionDays?: number;
  /** @default Date.now */
  now?: () => number;
  /**
   * Longest an accepted record waits in memory before it is written: what a `kill -9` can lose.
   * @default 1000
   */
  flushIntervalMs?: number;
  /** Failures of background work (timed flushes, daily retention). @default a line on stderr */
  onError?: (err: StoreError) => void;
}

/** Counters since open (a plain snapshot, like undici's `stats`). */
export interface StoreStats {
  /** Stored values that were not valid records (corrupt or foreign) and were skipped on read. */
  skipped: number;
  /** Index entries whose record was gone (e.g. removed by retention after a value was corrupt). */
  dangling: number;
  /** Records (handshakes and page summaries) written to disk. */
  written: number;
  /** Records accepted but not yet written. */
  pending: number;
  /** Whether opening needed LevelDB's repair (a damaged manifest or CURRENT file). */
  repaired: boolean;
}

// LevelDB locks with fcntl(F_SETLK), which is per process: a second open of the same folder in
// this process would fail AND, when LevelDB closes that attempt's descriptor, silently drop the
// first handle's lock. Refusing it here, before LevelDB sees it, keeps the lock held.
const openInThisProcess = new Set<string>();

/**
 * Opens (creating if needed) the store at `options.dir`. A store left by a killed process opens
 * normally: LevelDB replays its log, and the kernel released the dead process's lock.
 * @throws StoreError E_DATA_DIR, E_STORE_LOCKED, E_STORE_VERSION, E_STORE_OPEN, E_STORE_OPTIONS
 */
export async function openStore(options: OpenStoreOptions): Promise<LevelStore> {
  const retentionDays = options.retentionDays ?? 90;
  const flushIntervalMs = options.flushIntervalMs ?? 1000;
  if (!(retentionDays > 0)) throw new StoreError('E_STORE_OPTIONS', `retentionDays: expected a number of days > 0, got ${retentionDays}`);
  if (!(flushIntervalMs > 0 && flushIntervalMs <= 60_000)) throw new StoreError('E_STORE_OPTIONS', `flushIntervalMs: expected 1 … 60000, got ${flushIntervalMs}`);
  const dir = realpathSync(ensurePrivateDir(options.dir));
  if (openInThisProcess.has(dir)) {
    throw new StoreError('E_STORE_LOCKED', `the store at ${dir} is already open in this process`);
  }
  openInThisProcess.add(dir);
  try {
    const { db, repaired } = await openLevel(dir);
    try {
      const seq = await readMeta(db, dir);
      await tightenFiles(dir);
      const store = new LevelStore(db, dir, seq, repaired, {
        retentionMs: retentionDays * DAY_MS,
        now: options.now ?? Date.now,
        flushIntervalMs,
        onError: options.onError ?? ((err) => console.error(`getlist: ${err.code}: ${err.message}`)),
      });
      // A failed sweep is retried tomorrow; it must not keep the user from reading their data.
      await store.enforceRetention().catch((err) => store.reportError(err, 'enforcing retention'));
      return store;
    } catch (err) {
      await db.close().catch(() => undefined);
      throw err;
    }
  } catch (err) {
    openInThisProcess.delete(dir);
    throw err;
  }
}

interface StoreConfig {
  retentionMs: number;
  now: () => number;
  flushIntervalMs: number;
  onError: (err: StoreError) => void;
}

/** The {@link HandshakeStore} on LevelDB. See record-codec.ts for the key layout. */
export class LevelStore implements HandshakeStore {
  private readonly batcher: WriteBatcher;
  private readonly retentionTimer: NodeJS.Timeout;
  private readonly counters = { skipped: 0, dangling: 0, written: 0, pendingRecords: 0 };
  private closing: Promise<void> | undefined;

  /** @internal Use {@link openStore}. */
  constructor(
    private readonly db: Db,
    readonly location: string,
    private nextSeq: number,
    private readonly repaired: boolean,
    private readonly config: StoreConfig,
  ) {
    this.batcher = new WriteBatcher({
      write: (ops) => this.writeBatch(ops),
      intervalMs: config.flushIntervalMs,
      flushAtOps: 32_768,
      maxPendingOps: 1_000_000,
      onError: config.onError,
    });
    this.retentionTimer = setInterval(() => void this.enforceRetention().catch((err) => this.reportError(err, 'enforcing retention')), DAY_MS);
    this.retentionTimer.unref();
  }

  /** @internal Hands a background failure to `onError`. */
  reportError(err: unknown, doing: string): void {
    this.config.onError(asStoreError(err, 'E_STORE_WRITE', `${doing} in ${this.location}`));
  }

  stats(): StoreStats {
    const { skipped, dangling, written, pendingRecords } = this.counters;
    return { skipped, dangling, written, pending: pendingRecords, repaired: this.repaired };
  }

  async addHandshakes(records: readonly StoredHandshake[]): Promise<void> {
    this.checkOpen();
    const ops: WriteOp[] = [];
    records.forEach((x, i) => {
      const r = valid(checkHandshake(x), `handshakes[${i}]`);
      const seq = this.nextSeq++;
      const key = recordKey('h', r.startedAt, seq);
      ops.push({ type: 'put', key, value: JSON.stringify(r) });
      for (const ix of indexKeysOf(r, seq)) ops.push({ type: 'put', key: ix, value: key });
    });
    this.enqueue(ops, records.length);
  }

  async addPageSummaries(summaries: readonly PageSummary[]): Promise<void> {
    this.checkOpen();
    const ops: WriteOp[] = summaries.map((x, i) => {
      const p = valid(checkPageSummary(x), `summaries[${i}]`);
      return { type: 'put', key: recordKey('p', p.at, this.nextSeq++), value: JSON.stringify(p) };
    });
    this.enqueue(ops, summaries.length);
  }

  /** Writes every accepted record now. @throws StoreError `E_STORE_WRITE` */
  async flush(): Promise<void> {
    await this.batcher.flush();
  }

  async *handshakes(query: HandshakeQuery = {}): AsyncGenerator<StoredHandshake> {
    const { origin, since, until } = checkQuery(query);
    this.checkOpen();
    await this.readYourWrites();
    const inRange = (r: StoredHandshake) => (since === undefined || r.startedAt >= since) && (until === undefined || r.startedAt < until);
    try {
      if (origin === undefined) {
        for await (const value of this.db.values(timeRange('h!', since, until))) {
          const r = this.decode(checkHandshake, value);
          if (r && inRange(r)) yield r;
        }
        return;
      }
      let keys: string[] = [];
      for await (const hKey of this.db.values(timeRange(originPrefix('o', origin), since, until))) {
        keys.push(hKey);
        if (keys.length < CHUNK) continue;
        yield* this.fetchHandshakes(keys, (r) => r.origin === origin && inRange(r));
        keys = [];
      }
      yield* this.fetchHandshakes(keys, (r) => r.origin === origin && inRange(r));
    } catch (err) {
      throw asStoreError(err, 'E_STORE_READ', `reading ${this.location}`);
    }
  }

  async *pageSummaries(query: { url?: string; since?: number; until?: number } = {}): AsyncGenerator<PageSummary> {
    const { since, until } = checkQuery(query);
    this.checkOpen();
    await this.readYourWrites();
    try {
      for await (const value of this.db.values(timeRange('p!', since, until))) {
        const p = this.decode(checkPageSummary, value);
        if (!p || (query.url !== undefined && p.url !== query.url)) continue;
        if ((since === undefined || p.at >= since) && (until === undefined || p.at < until)) yield p;
      }
    } catch (err) {
      throw asStoreError(err, 'E_STORE_READ', `reading ${this.location}`);
    }
  }

  /**
   * Deletes everything, or everything about `origin`: its connections, connections opened by its
   * pages (e.g. to a CDN), and its page summaries. Then compacts, so the data also leaves the
   * files on disk rather than lingering under LevelDB tombstones.
   */
  async forget(origin?: string): Promise<number> {
    this.checkOpen();
    if (origin !== undefined && (typeof origin !== 'string' || origin === '')) {
      throw new StoreError('E_STORE_QUERY', `forget: expected an origin like "https://example.com", got ${JSON.stringify(origin)}`);
    }
    await this.flush();
    try {
      const removed = origin === undefined ? await forgetAll(this.db) : await forgetOrigin(this.db, origin);
      await this.db.compactRange('\x00', '~');
      await tightenFiles(this.location);
      return removed;
    } catch (err) {
      throw asStoreError(err, 'E_STORE_WRITE', `forgetting in ${this.location}`);
    }
  }

  async enforceRetention(now: number = this.config.now()): Promise<number> {
    this.checkOpen();
    const cutoff = now - this.config.retentionMs;
    await this.flush();
    try {
      return await expireBefore(this.db, cutoff);
    } catch (err) {
      throw asStoreError(err, 'E_STORE_WRITE', `enforcing retention in ${this.location}`);
    }
  }

  close(): Promise<void> {
    this.closing ??= this.doClose();
    return this.closing;
  }

  private async doClose(): Promise<void> {
    clearInterval(this.retentionTimer);
    let lost: unknown;
    try {
      await this.batcher.flush();
    } catch (err) {
      lost = err;
    }
    this.batcher.stop();
    try {
      await this.db.close();
      await tightenFiles(this.location);
    } finally {
      openInThisProcess.delete(this.location);
    }
    if (lost !== undefined) {
      throw new StoreError('E_STORE_WRITE', `closed ${this.location} with ${this.counters.pendingRecords} records unwritten: ${describeCause(lost)}`, { cause: lost });
    }
  }

  /** Writes what is pending before a read; a failure is the timer's to report, not the reader's. */
  private async readYourWrites(): Promise<void> {
    await this.batcher.flush().catch(() => undefined);
  }

  private enqueue(ops: WriteOp[], records: number): void {
    this.batcher.enqueue(ops);
    this.counters.pendingRecords += records;
  }

  private async writeBatch(ops: WriteOp[]): Promise<void> {
    const records = ops.filter((op) => op.type === 'put' && (op.key.startsWith('h!') || op.key.startsWith('p!'))).length;
    try {
      // The counter rides in the same atomic batch as the records it numbered. sync: the batch
      // is on disk, not just in the page cache, before the next one starts.
      await this.db.batch([...ops, { type: 'put', key: META_SEQ, value: String(this.nextSeq) }], { sync: true });
    } catch (err) {
      throw asStoreError(err, 'E_STORE_WRITE', `writing ${records} records to ${this.location}`);
    }
    this.counters.written += records;
    this.counters.pendingRecords -= records;
    await tightenFiles(this.location).catch(() => undefined);
  }

  private async *fetchHandshakes(hKeys: string[], keep: (r: StoredHandshake) => boolean): AsyncGenerator<StoredHandshake> {
    if (hKeys.length === 0) return;
    const values = await this.db.getMany(hKeys);
    for (let i = 0; i < hKeys.length; i++) {
      const value = values[i];
      if (value === undefined) {
        this.counters.dangling++;
        continue;
      }
      const r = this.decode(checkHandshake, value);
      if (r && keep(r)) yield r;
    }
  }

  private decode<T>(check: (x: unknown) => { value: T } | { problem: string }, value: string, count = true): T | undefined {
    const result = check(parseJson(value));
    if ('value' in result) return result.value;
    if (count) this.counters.skipped++;
    return undefined;
  }

  private checkOpen(): void {
    if (this.closing !== undefined) throw new StoreError('E_STORE_CLOSED', `the store at ${this.location} is closed`);
  }
}

function valid<T>(result: { value: T } | { problem: string }, where: string): T {
  if ('value' in result) return result.value;
  throw new StoreError('E_STORE_RECORD', `${where}.${result.problem}`);
}

function checkQuery<Q extends { origin?: string; since?: number; until?: number }>(q: Q): Q {
  for (const name of ['since', 'until'] as const) {
    const v = q[name];
    if (v !== undefined && !(typeof v === 'number' && Number.isFinite(v))) {
      throw new StoreError('E_STORE_QUERY', `${name}: expected epoch ms, got ${String(v)}`);
    }
  }
  if (q.origin !== undefined && (typeof q.origin !== 'string' || q.origin === '')) {
    throw new StoreError('E_STORE_QUERY', `origin: expected an origin like "https://example.com", got ${JSON.stringify(q.origin)}`);
  }
  return q;
}

function asStoreError(err: unknown, code: 'E_STORE_READ' | 'E_STORE_WRITE', doing: string): StoreError {
  if (err instanceof StoreError) return err;
  const closed = errorCode(err) === 'LEVEL_DATABASE_NOT_OPEN' || errorCode(err) === 'LEVEL_ITERATOR_NOT_OPEN';
  return new StoreError(closed ? 'E_STORE_CLOSED' : code, `${doing}: ${describeCause(err)}`, { cause: err });
}
