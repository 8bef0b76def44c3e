import type { RunSummary } from '../../src/run';
import type { HandshakeRecord } from '../../src/stats/handshake';

/**
 * A stored handshake: what the timing connector measured, plus where it came from. `at` is the
 * epoch ms the connection attempt started (HandshakeRecord.startedAt), the store's time key.
 */
export interface StoredHandshake extends HandshakeRecord {
  /** `measure` (a page the user loaded), `replay`, or `cli`. */
  source: 'measure' | 'replay' | 'cli';
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
 * The host's persistent store. Implementations must be crash-safe: a `kill -9` loses at most the
 * records accepted in the last second and never leaves the store unreadable.
 */
export interface HandshakeStore {
  /** Accepts records; they are durable within about a second. */
  addHandshakes(records: readonly StoredHandshake[]): Promise<void>;
  addPageSummaries(summaries: readonly PageSummary[]): Promise<void>;
  /** Records matching the query, oldest first. */
  handshakes(query?: HandshakeQuery): AsyncIterable<StoredHandshake>;
  pageSummaries(query?: { url?: string; since?: number; until?: number }): AsyncIterable<PageSummary>;
  /** Deletes everything, or everything about one origin. Returns how many records were removed. */
  forget(origin?: string): Promise<number>;
  /** Deletes records older than the retention period. */
  enforceRetention(now?: number): Promise<number>;
  /** Writes what is pending and closes. Idempotent. */
  close(): Promise<void>;
  /** Where the store lives on disk. */
  readonly location: string;
}
