import type { RunSummary } from '../../src/run';
import type { HandshakeRecord } from '../../src/stats/handshake';
import type { OriginFacts, PageOrigins } from '../../src/origins/origin-facts';
import type { StoreHealth } from '../../src/protocol/store-health';

/**
 * A stored handshake: what the timing connector measured, plus where it came from. `at` is the
 * epoch ms the connection attempt started (HandshakeRecord.startedAt), the store's time key.
 */
export interface StoredHandshake extends HandshakeRecord {
  /**
   * `measure` (the host's handshake for a page the user loaded), `replay`, `cli`, or `browser`:
   * a connection the user's browser opened, from its Resource Timing (src/page/model/browser-handshakes.ts).
   * The stats read `measure` and `replay` as the `host` source (HandshakeSource); records of every
   * version carry one of these, so none needs rewriting.
   */
  source: 'measure' | 'replay' | 'cli' | 'browser';
  /** The page whose load opened it, when known. */
  pageUrl?: string;
}

/**
 * One strategy's result for one page load, as the popup and `export` show it: the run's summary
 * (`summarizeRun`) and where it came from.
 */
export interface PageSummary extends Omit<RunSummary, 'strategy'> {
  pageId: string;
  url: string;
  /** A strategy name as stored (records written by another version may name one this build lacks). */
  strategy: string;
  mode: 'measure' | 'replay';
  /** Epoch ms. */
  at: number;
}

export interface HandshakeQuery {
  /** Only this origin (`https://host:port` form). */
  origin?: string;
  /** Epoch ms, inclusive. */
  since?: number;
  /** Epoch ms, exclusive. */
  until?: number;
}

/**
 * The host's persistent store, shared by every host and CLI process at once. Implementations must
 * be crash-safe: a `kill -9` loses at most the records accepted in the last second and never
 * leaves the store unreadable; a full disk keeps records in memory (bounded) until space returns.
 */
export interface HandshakeStore {
  /** Accepts records; they are durable within about a second. */
  addHandshakes(records: readonly StoredHandshake[]): Promise<void>;
  addPageSummaries(summaries: readonly PageSummary[]): Promise<void>;
  /** Records matching the query, oldest first. */
  handshakes(query?: HandshakeQuery): AsyncIterable<StoredHandshake>;
  pageSummaries(query?: { url?: string; since?: number; until?: number }): AsyncIterable<PageSummary>;
  /**
   * Deletes everything, or everything about one origin (its facts too), so that none of it is
   * left in any file. Returns how many records (handshakes and page summaries) were removed.
   */
  forget(origin?: string): Promise<number>;
  /** Accepts what the engine learned about origins; merged per origin (mergeOriginFacts). */
  putOriginFacts(facts: readonly OriginFacts[]): Promise<void>;
  /** The facts of `origin`, or of every origin (in key order) when none is given. */
  originFacts(origin?: string): AsyncIterable<OriginFacts>;
  /** Accepts the origins page loads used (a newer list of a page replaces an older one). */
  putPageOrigins(pages: readonly PageOrigins[]): Promise<void>;
  /** The origin list of the page at `url`, or of every page (in key order) when none is given. */
  pageOrigins(url?: string): AsyncIterable<PageOrigins>;
  /** Whether writes are succeeding, and how many records wait in memory or were dropped. */
  health(): StoreHealth;
  /** Deletes records older than the retention period. */
  enforceRetention(now?: number): Promise<number>;
  /** Writes what is pending and closes. Idempotent. */
  close(): Promise<void>;
  /** Where the store lives on disk. */
  readonly location: string;
}
