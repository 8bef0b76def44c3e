import { StoreError } from './store-errors';

export const DAY_MS = 86_400_000;

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

/** The options with their defaults applied and checked. */
export interface StoreConfig {
  retentionMs: number;
  now: () => number;
  flushIntervalMs: number;
  maxPending: number;
  readOnly: boolean;
  onError: (err: StoreError) => void;
}

/** @throws StoreError `E_STORE_OPTIONS` naming the option, what it expects and what it got. */
export function storeConfig(options: OpenStoreOptions): StoreConfig {
  const retentionDays = options.retentionDays ?? 90;
  const flushIntervalMs = options.flushIntervalMs ?? 250;
  const maxPending = options.maxPendingRecords ?? 50_000;
  if (!(retentionDays > 0)) throw new StoreError('E_STORE_OPTIONS', `retentionDays: expected a number of days > 0, got ${retentionDays}`);
  if (!(flushIntervalMs > 0 && flushIntervalMs <= 60_000)) throw new StoreError('E_STORE_OPTIONS', `flushIntervalMs: expected 1 … 60000, got ${flushIntervalMs}`);
  if (!(Number.isSafeInteger(maxPending) && maxPending > 0)) throw new StoreError('E_STORE_OPTIONS', `maxPendingRecords: expected an integer > 0, got ${maxPending}`);
  return {
    retentionMs: retentionDays * DAY_MS,
    now: options.now ?? Date.now,
    flushIntervalMs,
    maxPending,
    readOnly: options.readOnly === true,
    onError: options.onError ?? ((err) => console.error(`getlist: ${err.code}: ${err.message}`)),
  };
}
