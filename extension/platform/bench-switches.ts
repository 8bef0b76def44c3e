/**
 * Pieces of the extension a bench-only build can switch off, to attribute the extension's cost on
 * page loads (bench/overhead.ts `--variants`). `scripts/build.mjs` defines `GETLIST_BENCH_OFF`
 * from the environment variable of that name: '' in every normal and release build, so the shipped
 * extension has every piece on and no setting can turn one off.
 */
export const BENCH_PIECES = {
  /** Subresource and document webRequest listeners (requests, redirects, completions, errors). */
  webrequest: 'webRequest listeners of page-events.ts',
  /** The HAR header lists (`requestHeaders` / `responseHeaders` of the subresource listeners). */
  headers: 'webRequest header lists',
  /** webNavigation listeners: without them no page record exists, so nothing else runs either. */
  navigation: 'webNavigation listeners',
  /** The hints' declarativeNetRequest session rules (never synced). */
  hints: 'early-hint DNR session rules',
  /** `storage.session` writes of the page records. */
  storage: 'storage.session writes',
  /** The host's `measure` after load (the connection it opens per origin). */
  measure: 'host measure after load',
  /** The content script's MutationObserver discovery (and its style scan). */
  discovery: 'content-script discovery',
  /** The content script's Resource Timing observer and report. */
  timings: 'content-script Resource Timing',
  /** The content script itself: the manifest declares none (build.mjs). */
  content: 'content script injected at all',
  /**
   * The `webRequest` and `declarativeNetRequest…` permissions (build.mjs drops them from the
   * manifest; implies `webrequest`, `headers` and `hints`): while any extension holds one, Chromium
   * routes every request of every page through a proxy in its browser process, listeners or not.
   */
  permissions: 'webRequest and declarativeNetRequest permissions held at all',
} as const;

export type BenchPiece = keyof typeof BENCH_PIECES;

/** Pieces that cannot stay on when another is off (no permission, no listener may be added). */
export const BENCH_IMPLIES: Partial<Record<BenchPiece, readonly BenchPiece[]>> = {
  permissions: ['webrequest', 'headers', 'hints'],
};


declare const GETLIST_BENCH_OFF: string | undefined;

/** Comma-separated pieces switched off in this build; '' (none) unless built for a benchmark. */
const OFF: readonly string[] = (typeof GETLIST_BENCH_OFF === 'string' ? GETLIST_BENCH_OFF : '').split(',').filter(Boolean);

/** True when this build was made with `piece` switched off (never in a normal build). */
export function benchOff(piece: BenchPiece): boolean {
  return OFF.includes(piece);
}
