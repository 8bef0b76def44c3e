/**
 * The policies a strategy is made of, each one concern, each field with its `@default`: the value
 * it takes when a preset does not say otherwise, or when an override turns an off policy on
 * (`{ pipelining: {} }` is pipelining with these defaults). A policy that can be off is
 * `Policy | false`; its fields only exist while it is on, so no setting can be meaningful alone.
 */

/** How many connections an origin gets, how long they live, and when they open. */
export interface ConnectionPolicy {
  /** HTTP/1.1 connections per origin at most. @default 6 */
  maxPerOrigin: number;
  /** Keep connections open between requests. `false` = HTTP/1.0 style, one request per connection. @default true */
  keepAlive: boolean;
  /**
   * Open no more HTTP/1.1 connections to an origin than its path can take at once: the first
   * response's first flight gives the bottleneck rate, the handshake the RTT, and the cap is
   * `2 × BDP / initial window` (path-estimate.ts). @default false
   */
  fitToPath: boolean;
  /**
   * Zero-RTT starts (preconnect.ts): open connections at t = 0 to every origin of the page's
   * learned list (with a `memory` policy), and to each origin a `<link rel=preconnect|dns-prefetch>`
   * names as soon as it is parsed, before any request for it is ready. @default false
   */
  preconnect: boolean;
}

/**
 * Pipelining GET/HEAD on HTTP/1.1 connections, earned per origin (pipeline-health.ts; McManus,
 * "The Apex of Pipelines"; RFC 9112 §9.3.2).
 */
export interface PipeliningPolicy {
  /** Requests outstanding on one HTTP/1.1 connection once the origin has proved it pipelines well. @default 16 */
  maxDepth: number;
  /**
   * A response known or declared to be at least this large is not pipelined behind.
   * 128 KiB ≈ one bandwidth-delay product of a 20 Mbit/s, 50 ms path (20e6/8 × 0.05 = 125 kB):
   * a larger response takes more than one extra RTT to drain, longer than opening a new connection.
   * @default 131072
   */
  largeResponseBytes: number;
  /** How long an origin that broke a pipeline is held to persistent-but-not-pipelined. @default 600000 */
  demoteMs: number;
  /**
   * Order proofs (content-type-check.ts `isOrderProof`: a pipelined pair the server held at once,
   * of two type families, answered in order) an origin must deliver at depth 2 before it gets full
   * depth. One, as Firefox's yellow state asked for one good pipelined transaction and no bad one
   * before turning green: a proof is a pair a reordering server could have swapped visibly, so a
   * second adds little and costs a round trip. @default 1
   */
  probeSuccesses: number;
  /**
   * A framing order proof on first contact (order-probe.ts): when more requests wait for an
   * unproven HTTP/1.1 origin than it has connections, one `HEAD` is pipelined ahead of a `GET` of
   * the same URL — a swap of the two shows in the framing, whatever their types — and a clean
   * answer earns full depth. One request a browser never makes, once per origin and load, counted
   * in `SchedulerStats.orderProbes`. @default false
   */
  orderProbe: boolean;
}

/** HTTP/2, negotiated by ALPN on https: origins, multiplexed on one connection when offered. */
export interface Http2Policy {
  /**
   * Streams on one HTTP/2 connection at most; the server's SETTINGS_MAX_CONCURRENT_STREAMS lowers
   * it (undici honours the peer's value). Chromium likewise takes the server's limit, so a lower
   * default of our own would only cost round trips against servers that allow more. @default 256
   */
  maxStreams: number;
  /**
   * HTTP/2 connections an origin may have once its connection stalled (stream-stall.ts); 1 = never
   * a second one. @default 1
   */
  connectionsOnStall: number;
  /**
   * Connections an https origin may open for requests that wait while its connections are still
   * handshaking, before ALPN has answered (h2-windows.ts): one congestion window each instead of
   * all on one h2 connection. Only on a path where a handshake took `demandMinHandshakeMs` or
   * more. 1 = one connection until ALPN answers, as browsers do. @default 1
   */
  connectionsForDemand: number;
  /**
   * Connections a `<link rel=preconnect>` opens to its https origin before ALPN has answered,
   * within what `connectionsForDemand` and the path allow at that moment (h2-windows.ts
   * `h2DemandLimit`): the page named the origin because it loads from it early, and what it loads
   * there (a font family, a CDN's sheets and scripts) is often found all at once, after the
   * connection is up. On one h2 connection such a burst slow-starts through one window; a
   * connection opened then is a whole handshake late. 1 = one connection, as browsers open.
   * @default 1
   */
  connectionsForPreconnect: number;
  /**
   * Connections the document's https origin has once the document's TLS handshake starts on a far
   * path (two of its round trips `demandMinHandshakeMs` or more), where the client's link took a
   * dozen initial windows in a round trip on its latest loads (link-rate.ts) and no learned list is
   * asked for: up when the document names its first burst, which one h2 connection would carry
   * through one window. Its render-blocking requests and fonts go on the warmest of them. At most
   * `connectionsForDemand`; 1 = one connection, as browsers open. @default 1
   */
  connectionsForDocument: number;
  /**
   * The quickest handshake of the load (ms, connection opened to ready) must take this long for
   * `connectionsForDemand` to apply: two round trips of a 15 ms path, more than a busy machine's
   * loopback TLS. @default 30
   */
  demandMinHandshakeMs: number;
}

/**
 * In what order an origin's waiting requests are sent. `priorities`: by priority class, highest
 * first (src/core/priority.ts), documents and stylesheets first within a class, then discovery
 * order; on HTTP/2 each request's class is also sent as an RFC 9218 `priority` field. `fifo`: one
 * queue in discovery order, as HTTP/1.1 browsers without priorities fetch. @default 'fifo'
 */
export type Ordering = 'priorities' | 'fifo';

/**
 * Pausing lower-priority response bodies while a low-latency request is outstanding, so their
 * receive windows close and the bottleneck goes to the urgent response (low-latency-pauser.ts).
 */
export interface PausingPolicy {
  /** Lower-priority responses allowed to keep flowing while a low-latency request is outstanding. @default 2 */
  maxFlowing: number;
  /**
   * A response known to be smaller than this is never paused: it fits in about one initial
   * congestion window (10 × 1448-byte segments ≈ 14 KB), so pausing it saves almost no bandwidth
   * and stalls whatever is pipelined behind it. @default 16384
   */
  minBytes: number;
  /**
   * Pause only while the measured delivery rate shows the link is the bottleneck
   * (delivery-meter.ts); never on a path with room. @default false
   */
  onlyWhenLinkBusy: boolean;
}

/**
 * GETLIST on a returning visit (src/origins/page-list.ts, native-host/run/page-loader.ts): the
 * sub-resources the page's last loads fetched are enqueued at t = 0 right behind the document, as
 * speculative GETs, in the scheduler's rank order; parsing that finds one joins its request. What
 * the page no longer names is reported unused (`Run.speculativeUnused`).
 */
export interface SpeculativeListPolicy {
  /**
   * Learned bytes a returning visit asks for speculatively at most: what a page that changed
   * completely can waste. 2 MiB is about the HTTP Archive's median page weight; past it the rest
   * of the list is left to parsing. @default 2097152
   */
  maxBytes: number;
}

/**
 * Origin memory: each origin starts from what earlier loads learned (origin-recall.ts) and this
 * load writes back what it learns, when the scheduler is given a memory.
 */
export interface MemoryPolicy {
  /** Ask for the page's learned request list before parsing finds it (needs a memory that keeps it). @default false */
  speculativeList: SpeculativeListPolicy | false;
}

/** How the page loader finds a page's resources (native-host/run/page-discovery.ts). */
export interface DiscoveryPolicy {
  /**
   * Request a stylesheet's `@import`s as soon as their statements arrive, not once the whole sheet
   * has: the imported sheet's round trip overlaps the rest of its importer's body. Browsers wait
   * for the whole sheet, so the presets that model them do too. @default false
   */
  earlyImports: boolean;
}

export const CONNECTIONS: ConnectionPolicy = { maxPerOrigin: 6, keepAlive: true, fitToPath: false, preconnect: false };
export const PIPELINING: PipeliningPolicy = { maxDepth: 16, largeResponseBytes: 128 * 1024, demoteMs: 10 * 60 * 1000, probeSuccesses: 1, orderProbe: false };
export const HTTP2: Http2Policy = { maxStreams: 256, connectionsOnStall: 1, connectionsForDemand: 1, connectionsForPreconnect: 1, connectionsForDocument: 1, demandMinHandshakeMs: 30 };
export const PAUSING: PausingPolicy = { maxFlowing: 2, minBytes: 16 * 1024, onlyWhenLinkBusy: false };
export const SPECULATIVE_LIST: SpeculativeListPolicy = { maxBytes: 2 * 1024 * 1024 };
export const MEMORY: MemoryPolicy = { speculativeList: false };
export const DISCOVERY: DiscoveryPolicy = { earlyImports: false };
