/**
 * What the content script must catch from `document_start`, and nothing more: the parser's
 * insertions (MutationObserver records with their delivery time and phase) and the Resource Timing
 * entries (a buffered PerformanceObserver, so entries past the page's 250-entry buffer are kept).
 * This is the whole of `content-start.js`, registered in Detailed capture only (early-recorder.ts:
 * any script at `document_start` costs the page milliseconds); the classification, mapping and
 * messaging (`content.js`) are injected by the background after `load` (content-injection.ts) and
 * take these records over (same extension, same isolated world), or, without them, start the same
 * observers then (`fromStart` false).
 *
 * Invariant: the observers' callbacks only push; the consumer's hooks run after the push.
 */

/** Mutation records as the observer delivered them, with when and in which phase. */
export interface Pending {
  atMs: number;
  /** Delivered after DOMContentLoaded (or an attribute change): `late`. */
  late: boolean;
  records: MutationRecord[] | Element[];
  /** Records before this index are done. */
  next: number;
}

export interface EarlyRecords {
  /** Started while the document was still loading (`document_start`); false when started after it. */
  fromStart: boolean;
  pending: Pending[];
  /** Resource Timing entries read out of `lists` so far (readEntries). */
  entries: PerformanceResourceTiming[];
  /**
   * The observer's deliveries, kept as the browser gave them: their entries are read only by the
   * consumer after `load` (readEntries), so no entry object is made in this world during the load.
   */
  lists: PerformanceObserverEntryList[];
  /** Set by the consumer: called after new mutation records / timing entries were pushed. */
  onMutations?: () => void;
  onEntries?: () => void;
  /** Disconnects the MutationObserver (the extension is gone). */
  stopMutations(): void;
}

/** Attributes whose change can start a fetch (lazy-loading libraries set `src` from `data-src`). */
const WATCHED_ATTRIBUTES = ['src', 'srcset', 'href', 'style', 'data', 'poster', 'rel'];
/** Where the start script leaves the records for the main script: one isolated world, one global. */
const KEY = '__getlistEarlyRecords';

/** Which observers to start: both in every normal build; a bench-only build may leave one out (bench-switches.ts). */
export interface EarlyParts {
  mutations: boolean;
  timings: boolean;
}

export function startEarlyRecords(doc: Document, parts: EarlyParts = { mutations: true, timings: true }): EarlyRecords {
  let dcl = doc.readyState !== 'loading';
  if (!dcl) doc.addEventListener('DOMContentLoaded', () => (dcl = true), { once: true });
  const mo = new MutationObserver((records) => {
    early.pending.push({ atMs: performance.now(), late: dcl, records, next: 0 });
    early.onMutations?.();
  });
  const early: EarlyRecords = { fromStart: !dcl, pending: [], entries: [], lists: [], stopMutations: () => mo.disconnect() };
  if (parts.mutations) {
    mo.observe(doc, { childList: true, subtree: true, attributes: true, attributeFilter: WATCHED_ATTRIBUTES });
    if (doc.documentElement) early.pending.push({ atMs: performance.now(), late: dcl, records: [doc.documentElement], next: 0 });
  }
  if (parts.timings) try {
    new PerformanceObserver((list) => {
      early.lists.push(list);
      early.onEntries?.();
    }).observe({ type: 'resource', buffered: true });
  } catch {
    // No PerformanceObserver support for `resource`: the buffer is read when the main script starts.
    early.entries.push(...(performance.getEntriesByType('resource') as PerformanceResourceTiming[]));
  }
  return early;
}

/** Moves the entries of the deliveries kept so far into `entries` (in delivery order) and returns it. */
export function readEntries(early: EarlyRecords): PerformanceResourceTiming[] {
  for (const list of early.lists.splice(0)) for (const e of list.getEntries()) early.entries.push(e as PerformanceResourceTiming);
  return early.entries;
}

export function publishEarlyRecords(early: EarlyRecords): void {
  (globalThis as Record<string, unknown>)[KEY] = early;
}

/** The start script's records, or fresh ones when it did not run (then from now on only). */
export function takeEarlyRecords(doc: Document): EarlyRecords {
  const g = globalThis as Record<string, unknown>;
  const early = g[KEY] as EarlyRecords | undefined;
  delete g[KEY];
  return early ?? startEarlyRecords(doc);
}
