import { SchedulerError } from './errors';

export const STRATEGY_NAMES = ['http10', 'serial', 'browser', 'pipelined', 'getlist', 'h2'] as const;
export type StrategyName = (typeof STRATEGY_NAMES)[number];

/**
 * How a request list is loaded. The named presets below are the experiments of the seed papers;
 * every field can be overridden to explore around them.
 */
export interface Strategy {
  name: StrategyName;
  /** Connections per origin at most (HTTP/1.1). @default 6 */
  maxConnectionsPerOrigin: number;
  /** Keep connections open between requests. `false` = HTTP/1.0 style, one request per connection. @default true */
  keepAlive: boolean;
  /** Pipeline GET/HEAD requests on HTTP/1.1 connections (subject to per-origin health). @default false */
  pipelining: boolean;
  /** Requests outstanding on one HTTP/1.1 connection once the origin has proved it pipelines well. @default 16 */
  maxPipelineDepth: number;
  /** Serve requests by priority class (FIFO within a class). `false` = one FIFO in discovery order. */
  priorities: boolean;
  /** Pause lower-priority response bodies while a low-latency request is outstanding. */
  pauseLowPriority: boolean;
  /** Lower-priority responses allowed to keep flowing while a low-latency request is outstanding. @default 2 */
  maxLowPriorityFlowing: number;
  /**
   * A response known to be smaller than this is never paused: it fits in about one initial
   * congestion window (10 × 1448-byte segments ≈ 14 KB), so pausing it saves almost no bandwidth
   * and stalls whatever is pipelined behind it. @default 16384
   */
  minPauseBytes: number;
  /** Negotiate HTTP/2 by ALPN on https: origins and multiplex on one connection when offered. */
  http2: boolean;
  /**
   * Streams on one HTTP/2 connection at most; the server's SETTINGS_MAX_CONCURRENT_STREAMS lowers
   * it (undici honours the peer's value). Chromium likewise takes the server's limit, so a lower
   * default of our own would only cost round trips against servers that allow more. @default 256
   */
  maxConcurrentStreams: number;
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
   * Open no more HTTP/1.1 connections to an origin than its path can take at once: the first
   * response's first flight gives the bottleneck rate, the handshake the RTT, and the cap is
   * `2 × BDP / initial window` (src/scheduler/path-estimate.ts). @default false
   */
  adaptConnectionsToPath: boolean;
  /**
   * Order proofs (content-type-check.ts `isOrderProof`: a pipelined pair the server held at once,
   * of two type families, answered in order) an origin must deliver at depth 2 before it gets full
   * depth. One, as Firefox's yellow state asked for one good pipelined transaction and no bad one
   * before turning green: a proof is a pair a reordering server could have swapped visibly, so a
   * second adds little and costs a round trip. @default 1
   */
  probeSuccesses: number;
  /**
   * Start each origin from what origin memory remembers (origin-recall.ts) and write back what
   * this load learns, when the scheduler is given a memory. @default false
   */
  useOriginMemory: boolean;
  /**
   * Zero-RTT starts (preconnect.ts): open connections at t = 0 to every origin of the page's
   * learned list, and to each origin a `<link rel=preconnect|dns-prefetch>` names as soon as it is
   * parsed, before any request for it is ready. @default false
   */
  preconnect: boolean;
  /**
   * Request a stylesheet's `@import`s as soon as their statements arrive, not once the whole sheet
   * has (native-host/run/page-discovery.ts): the imported sheet's round trip overlaps the rest of
   * its importer's body. Browsers wait for the whole sheet, so the presets that model them do too.
   * @default false
   */
  earlyImports: boolean;
  /**
   * Pause lower-priority bodies only while the measured delivery rate shows the link is the
   * bottleneck (delivery-meter.ts); never on a path with room. @default false
   */
  pauseOnlyWhenLinkBusy: boolean;
  /**
   * HTTP/2 connections an origin may have once its connection stalled (stream-stall.ts); 1 = never
   * a second one. @default 1
   */
  h2ConnectionsOnStall: number;
  /**
   * Connections an https origin may open for requests that wait while its connections are still
   * handshaking, before ALPN has answered (h2-windows.ts): one congestion window each instead of
   * all on one h2 connection. Only on a path where a handshake took `h2DemandMinHandshakeMs` or
   * more. 1 = one connection until ALPN answers, as browsers do. @default 1
   */
  h2ConnectionsForDemand: number;
  /** The quickest handshake of the load (ms, connection opened to ready) must take this long for `h2ConnectionsForDemand` to apply: two round trips of a 15 ms path, more than a busy machine's loopback TLS. @default 30 */
  h2DemandMinHandshakeMs: number;
  /**
   * A framing order proof on first contact (order-probe.ts): when more requests wait for an
   * unproven HTTP/1.1 origin than it has connections, one `HEAD` is pipelined ahead of a `GET` of
   * the same URL — a swap of the two shows in the framing, whatever their types — and a clean
   * answer earns full depth. One request a browser never makes, once per origin and load, counted
   * in `SchedulerStats.orderProbes`. @default false
   */
  orderProbe: boolean;
  /**
   * GETLIST on a returning visit (src/origins/page-list.ts, native-host/run/page-loader.ts): the
   * sub-resources the page's last loads fetched are enqueued at t = 0 right behind the document,
   * as speculative GETs, in the scheduler's rank order; parsing that finds one joins its request.
   * What the page no longer names is reported unused (`Run.speculativeUnused`). Needs
   * `useOriginMemory` and a memory that keeps the page's list. @default false
   */
  speculativeList: boolean;
  /**
   * Learned bytes a returning visit asks for speculatively at most: what a page that changed
   * completely can waste. 2 MiB is about the HTTP Archive's median page weight; past it the rest
   * of the list is left to parsing. @default 2097152
   */
  maxSpeculativeBytes: number;
}

const base: Omit<Strategy, 'name'> = {
  maxConnectionsPerOrigin: 6,
  keepAlive: true,
  pipelining: false,
  maxPipelineDepth: 16,
  priorities: false,
  pauseLowPriority: false,
  maxLowPriorityFlowing: 2,
  minPauseBytes: 16 * 1024,
  http2: false,
  maxConcurrentStreams: 256,
  largeResponseBytes: 128 * 1024,
  demoteMs: 10 * 60 * 1000,
  probeSuccesses: 1,
  adaptConnectionsToPath: false,
  useOriginMemory: false,
  preconnect: false,
  earlyImports: false,
  pauseOnlyWhenLinkBusy: false,
  h2ConnectionsOnStall: 1,
  h2ConnectionsForDemand: 1,
  h2DemandMinHandshakeMs: 30,
  orderProbe: false,
  speculativeList: false,
  maxSpeculativeBytes: 2 * 1024 * 1024,
};

const PRESETS: Record<StrategyName, Strategy> = {
  /** Padmanabhan & Mogul's baseline: a new connection per request, one at a time. */
  http10: { ...base, name: 'http10', maxConnectionsPerOrigin: 1, keepAlive: false },
  /** One persistent connection, stop-and-wait. */
  serial: { ...base, name: 'serial', maxConnectionsPerOrigin: 1 },
  /** Today's HTTP/1.1 browsers: six persistent connections per origin, no pipelining, FIFO. */
  browser: { ...base, name: 'browser' },
  /** P&M's GETLIST: one persistent connection per origin, the list pipelined on it, no priorities. */
  pipelined: { ...base, name: 'pipelined', maxConnectionsPerOrigin: 1, pipelining: true, maxPipelineDepth: 64 },
  /** Everything: pipelining over parallel persistent connections, priorities, pausing, HTTP/2 where offered. */
  getlist: { ...base, name: 'getlist', pipelining: true, priorities: true, pauseLowPriority: true, http2: true, adaptConnectionsToPath: true, useOriginMemory: true, preconnect: true, earlyImports: true, pauseOnlyWhenLinkBusy: true, h2ConnectionsOnStall: 2, h2ConnectionsForDemand: 6, orderProbe: true, speculativeList: true },
  /** One multiplexed HTTP/2 connection per origin that offers it; browser-style HTTP/1.1 elsewhere. */
  h2: { ...base, name: 'h2', http2: true, priorities: true },
};

export function isStrategyName(value: unknown): value is StrategyName {
  return typeof value === 'string' && (STRATEGY_NAMES as readonly string[]).includes(value);
}

/** A preset by name, with overrides applied and validated. */
export function strategy(name: string, overrides: Partial<Omit<Strategy, 'name'>> = {}): Strategy {
  if (!isStrategyName(name)) {
    throw new SchedulerError('E_UNKNOWN_STRATEGY', `unknown strategy ${JSON.stringify(name)}; expected one of ${STRATEGY_NAMES.join(', ')}`);
  }
  const s: Strategy = { ...PRESETS[name], ...stripUndefined(overrides) };
  validateStrategy(s);
  return s;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function positiveInt(s: Strategy, key: keyof Strategy, min: number): void {
  const v = s[key];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) {
    throw new SchedulerError('E_INVALID_OPTION', `strategy ${s.name}: ${key} must be an integer ≥ ${min}, got ${String(v)}`);
  }
}

export function validateStrategy(s: Strategy): void {
  positiveInt(s, 'maxConnectionsPerOrigin', 1);
  positiveInt(s, 'maxPipelineDepth', 1);
  positiveInt(s, 'maxLowPriorityFlowing', 0);
  positiveInt(s, 'minPauseBytes', 0);
  positiveInt(s, 'maxConcurrentStreams', 1);
  positiveInt(s, 'largeResponseBytes', 0);
  positiveInt(s, 'demoteMs', 0);
  positiveInt(s, 'probeSuccesses', 0);
  positiveInt(s, 'h2ConnectionsOnStall', 1);
  positiveInt(s, 'h2ConnectionsForDemand', 1);
  positiveInt(s, 'h2DemandMinHandshakeMs', 0);
  positiveInt(s, 'maxSpeculativeBytes', 0);
}
