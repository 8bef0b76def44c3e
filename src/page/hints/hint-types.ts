/**
 * The learned-hints model's records: what one visit taught, what is kept per page and per site
 * template, and the hint list a navigation gets. Plain JSON throughout: the state lives in
 * `storage.local` and is validated when read back (learned-state-json.ts).
 */

/** A preload's destination, as the `as` attribute spells it. Only destinations we can match exactly. */
export type HintAs = 'font' | 'style' | 'image' | 'script';

/** A resource one visit fetched, in the form a preload of it must take. */
export interface LearnedResource {
  url: string;
  as: HintAs;
  /**
   * The consuming request's CORS mode: `anonymous` for fonts (always fetched with CORS,
   * credentials same-origin); absent for no-cors fetches (CSS images, `<img>`, `@import`).
   * A preload whose mode differs is not matched and the resource is fetched twice.
   */
  crossorigin?: 'anonymous';
  /** MIME type for the preload's `type` (fonts, style sheets); absent when the URL does not say. */
  type?: string;
  /** Found by the browser after its preload scanner would have (named in CSS, inserted by script, after DOMContentLoaded). */
  late: boolean;
  /** ms from navigation start to the request. */
  atMs: number;
  inViewport: boolean;
  /** Encoded body bytes (0 when not exposed). */
  size: number;
  /** Named by the host's discovery of the page, not seen in the page's own timeline (host-fill-in.ts). */
  host?: true;
  /** The visit got it from the browser's HTTP cache (its Resource Timing entry exposed, nothing transferred). */
  cached?: true;
}

/** An origin a visit connected to, with the connection pool its requests needed. */
export interface LearnedOrigin {
  origin: string;
  /** `anonymous`: some request to it was CORS without credentials (fonts) — a separate socket pool. */
  crossorigin?: 'anonymous';
  /** ms from navigation start to its first request. */
  atMs: number;
  /** It served a style sheet or a parser-blocking script the page asked for before DOMContentLoaded: on the way to first paint. */
  critical?: true;
  /** Encoded body bytes of its responses (those whose size was exposed); absent in visits learned before. */
  bytes?: number;
  /** ms from navigation start to its last response end. */
  endMs?: number;
  /**
   * ms the first request the page asked of it waited between asked for and sent, less that
   * request's own DNS and connection time (held with its socket open); absent when its phases were not exposed.
   */
  heldMs?: number;
  /** Every request the visit made to it was served from the browser's HTTP cache (entries exposed, nothing transferred). */
  cached?: true;
}

/** What one load measured of its network path (path-sample.ts). */
export interface PathSample {
  /** Bytes of the document and of the style sheets and scripts requested before DOMContentLoaded. */
  criticalBytes: number;
  /** Bytes per ms the path delivered, a lower bound on its rate no response timing can push above it (path-sample.ts `deliveryRate`). */
  deliveryBytesPerMs: number;
  /** The smallest request-to-first-byte time of a response that crossed the network, ms. */
  rttMs: number;
  /** The measuring method (PATH_SAMPLE_METHOD): samples of another are dropped when read back. */
  method: number;
}

/** Whether the visits' path is bandwidth-bound (path-sample.ts). */
export interface PathVerdict {
  /** Median over the visits that measured their path: the critical bytes' serialization, in round trips. */
  criticalRtts: number;
  /** `criticalRtts` ≥ BANDWIDTH_BOUND_RTTS: only what the first paint needs is preloaded. */
  bandwidthBound: boolean;
  /**
   * Bytes the link carries in BANDWIDTH_BOUND_RTTS round trips beyond the critical bytes (the
   * smallest over the visits; 0 when bandwidth-bound): what preloads the paint does not need may take.
   */
  budgetBytes: number;
  /** Visits the verdict rests on. */
  samples: number;
}

/** What one visit of a page taught. */
export interface Visit {
  /** Epoch ms of the navigation. */
  at: number;
  url: string;
  /** The load had hints applied (its timings are not a baseline for "time saved"). */
  hinted: boolean;
  /** Navigation start → last response end, ms; absent when not measured. */
  completeMs?: number;
  /** The path as this load measured it; absent when it could not (no large response, no round trip). */
  path?: PathSample;
  /** The document's first byte (Navigation Timing `responseStart`), ms from navigation start: when hints sent with the response act. */
  documentMs?: number;
  /**
   * First contentful paint, ms from navigation start; only of a load that had no font preloaded
   * (a preloaded font can hold Chromium's paint, and the font rule, paint-slack.ts, must compare
   * against a paint without the hold); absent otherwise and where the browser gave none.
   */
  paintMs?: number;
  resources: LearnedResource[];
  origins: LearnedOrigin[];
}

/** The recent visits under one key: a page URL, or a site template (`origin` + path shape). */
export interface LearnedEntry {
  key: string;
  kind: 'page' | 'template';
  /** Hostname, for forgetting a site and per-site bounds. */
  host: string;
  /** Most recent last; at most `HintLimits.visitsKept`. */
  visits: Visit[];
  /** URLs that were fetched twice when hinted (a mismatched preload): never hinted again. */
  blocked: string[];
}

export interface LearnedState {
  version: 1;
  /** key → entry; Map order is recency of the last visit (least recent first). */
  entries: Map<string, LearnedEntry>;
}

export interface HintLimits {
  /** Visits kept per key. @default 5 */
  visitsKept: number;
  /** Visits among the kept ones an item must appear in to be hinted. @default 2 */
  minRecurrence: number;
  /** Resources kept per visit (late ones first). @default 32 */
  resourcesPerVisit: number;
  /** Origins kept per visit. @default 16 */
  originsPerVisit: number;
  /** Keys (pages + templates) per hostname. @default 24 */
  keysPerSite: number;
  /** Keys in total. @default 300 */
  keysTotal: number;
  /** Blocked URLs per key. @default 32 */
  blockedPerKey: number;
  /** Preconnects per navigation. @default 6 */
  maxPreconnects: number;
  /** Preloads per navigation. @default 10 */
  maxPreloads: number;
  /** Of those, font preloads. @default 10 */
  maxFontPreloads: number;
  /**
   * `any`: a late font is preloaded like any other late resource. `before-paint` (Chromium, a
   * `Link` header): only where earlier visits say it arrives before the page paints anyway
   * (paint-slack.ts). `after-body` (Chromium, `<link>` elements pushed at commit): every late font,
   * its `<link>` inserted once the document has a `<body>` (`PreloadHint.afterBody`), where it no
   * longer holds the first paint. @default 'any'
   */
  fontPreloads: 'any' | 'before-paint' | 'after-body';
  /**
   * On a bandwidth-bound path: `paint-path`, preconnect the origins of the render-blocking bytes
   * and preload what the first paint waits for; `none` (Firefox, FIREFOX_HINT_LIMITS), no hint at
   * all. @default 'paint-path'
   */
  boundPathHints: 'paint-path' | 'none';
}

export const DEFAULT_HINT_LIMITS: HintLimits = {
  visitsKept: 5,
  minRecurrence: 2,
  resourcesPerVisit: 32,
  originsPerVisit: 16,
  keysPerSite: 24,
  keysTotal: 300,
  blockedPerKey: 32,
  maxPreconnects: 6,
  maxPreloads: 10,
  maxFontPreloads: 10,
  fontPreloads: 'any',
  boundPathHints: 'paint-path',
};

/**
 * Chromium holds the first paint for a font preloaded before the body is parsed until the font
 * arrives, up to about 100 ms, whatever its `font-display` (`swap` included) and `fetchpriority`:
 * Blink's `RenderBlockingResourceManager::AddPendingFontPreload` makes a font preload
 * render-blocking only while the document has no `<body>`. So the `<link>` elements pushed at
 * commit carry a late font once the body exists (`after-body`), asked for while the page's style
 * sheets are still in flight and never holding the paint. A `Link` header acts before any body:
 * there a font is preloaded only where earlier visits say it arrives in time (`before-paint`,
 * paint-slack.ts, headerHintLimits); otherwise its origin is still preconnected with
 * `crossorigin`. Firefox has no such hold (DEFAULT_HINT_LIMITS). Measured: docs/extension.md, "The
 * font rule (Chromium)", and bench/hints/font-paint-hold.ts.
 */
export const CHROMIUM_HINT_LIMITS: HintLimits = { ...DEFAULT_HINT_LIMITS, fontPreloads: 'after-body' };

/** The limits for a `Link` header (DNR rules, Detailed capture in Chromium): a header cannot wait for a body, so `after-body` fonts go by the font rule. */
export function headerHintLimits(limits: HintLimits): HintLimits {
  return limits.fontPreloads === 'after-body' ? { ...limits, fontPreloads: 'before-paint' } : limits;
}

/**
 * Firefox paints later with any hint on a bandwidth-bound path: preconnects to the render-blocking
 * origins and a preload of the one sheet the first paint waits for both made its first paint later
 * than Firefox alone and than the extension with its hints off. Firefox holds a page's images while
 * its render-blocking requests are in flight, but not in every load; a hint makes the loads that
 * send the images beside the render-blocking bytes more common, and the preloaded sheet arrived no
 * sooner. So on such a path Firefox gets no hint; off it, every hint. Measured: docs/extension.md,
 * "Firefox: no hint on a bandwidth-bound path".
 */
export const FIREFOX_HINT_LIMITS: HintLimits = { ...DEFAULT_HINT_LIMITS, boundPathHints: 'none' };

export interface PreconnectHint {
  rel: 'preconnect';
  /** An origin (`https://host[:port]`). */
  href: string;
  crossorigin?: 'anonymous';
}

export interface PreloadHint {
  rel: 'preload';
  href: string;
  as: HintAs;
  crossorigin?: 'anonymous';
  type?: string;
  /**
   * `low` for images outside the first viewport, so they never compete with critical ones; `high`
   * only where the user applied it to the LCP image (src/page/diagnosis/applied-suggestion.ts).
   */
  fetchpriority?: 'low' | 'high';
  /** Inserted only once the document has a `<body>` (a Chromium font: `HintLimits.fontPreloads` `after-body`); never in a `Link` header. */
  afterBody?: true;
}

export type Hint = PreconnectHint | PreloadHint;

/** The hints one navigation gets, and which learned keys they came from. */
export interface HintList {
  url: string;
  /** The keys whose visits justified the list (page first). */
  keys: string[];
  preconnects: PreconnectHint[];
  preloads: PreloadHint[];
  /** The path verdict the list was cut by; absent when no visit measured its path. */
  path?: PathVerdict;
}
