/**
 * Pieces of the extension a benchmark build can switch off, to attribute the extension's cost on
 * page loads piece by piece (bench/overhead/ `--variants`). The names only: which of them a build
 * has off is bench-switches.ts's to say.
 */
export const BENCH_PIECES = {
  /** Subresource and document webRequest listeners (requests, redirects, completions, errors); detailed builds only. */
  webrequest: 'webRequest listeners of page-events.ts',
  /** The HAR header lists (`requestHeaders` / `responseHeaders` of the subresource listeners); detailed builds only. */
  headers: 'webRequest header lists',
  /** webNavigation listeners: without them no page record exists, so nothing else runs either. */
  navigation: 'webNavigation listeners',
  /** Early hints: the DNR session rules (detailed) and the `<link>` elements pushed at commit (hint-push.ts). */
  hints: 'early hints (DNR session rules / <link> elements pushed at commit)',
  /** `storage.session` writes of the page records. */
  storage: 'storage.session writes',
  /** The host's `measure` after load (the connection it opens per origin). */
  measure: 'host measure after load',
  /** The content script's MutationObserver discovery (and its style scan). */
  discovery: 'content-script discovery',
  /** The content script's Resource Timing observer and report. */
  timings: 'content-script Resource Timing',
  /** The content scripts themselves: the background injects none (no content.js, no hint push) and registers no early recorder. */
  content: 'content script injected at all',
} as const;

export type BenchPiece = keyof typeof BENCH_PIECES;

/** Pieces that exist only in a detailed build (the shipped lean build adds no webRequest listener). */
export const DETAILED_ONLY_PIECES: readonly BenchPiece[] = ['webrequest', 'headers'];
