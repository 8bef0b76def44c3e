/**
 * The lower-bound model of page-complete time (bench/model/MODEL.md): no client that discovers a
 * page's resources by parsing it can finish loading it on a given link in less time than this.
 *
 * Pure: no I/O, no clock. Everything is in ms, bytes and bits/s.
 *
 * Three families of bounds, and the bound is their maximum:
 * - latency: for each request, the earliest its last byte can arrive, following its dependency
 *   chain (handshake on a new origin, 1 RTT per request, slow-start rounds on a fresh window,
 *   its own serialisation on the bottleneck);
 * - bandwidth with overlap: for each level k, every byte of levels ≥ k must cross the bottleneck
 *   after the first level-k request can have reached a server;
 * - slow start: for each origin and level k, the origin's bytes of levels ≥ k must fit in the
 *   windows of its connections (at most C open at once), which start from C initial windows plus
 *   the growth that shallower levels' segments can have bought, and at most double every RTT.
 *
 * Loss and the uplink are ignored (a loss-free link and a request of a few bytes are the best case).
 */
import type { ModelRequest, PageStructure } from './page-structure';

export interface LinkModel {
  rttMs: number;
  /** Bottleneck rate towards the client; 0 = unlimited. */
  downBitsPerSec: number;
  /** Accepted for completeness; not used (see MODEL.md, "What the bound ignores"). */
  upBitsPerSec?: number;
  /** Not used: the bound assumes no loss. */
  loss?: number;
}

export interface TcpModel {
  /** Initial congestion window in segments. @default 10 */
  initCwnd: number;
  /** Payload bytes per segment. @default 1448 (MTU 1500 − 20 IP − 32 TCP with timestamps) */
  mss: number;
  /** IP + TCP header bytes the link serialises with every segment. @default 52 */
  headerBytes: number;
}

export const DEFAULT_TCP: TcpModel = { initCwnd: 10, mss: 1448, headerBytes: 52 };

export interface BoundOptions {
  /**
   * https: TLS 1.3 full handshake, 1 RTT after TCP's. `true`: every origin; a set: only the origins
   * in it (a page that mixes schemes, as real pages do). @default false
   */
  tls?: boolean | ReadonlySet<string>;
  /**
   * Origins the document names before any of their resources (`<link rel=preconnect|dns-prefetch>`
   * in its head): a client knows them, and may connect, once the document's first byte arrives.
   * @default none
   */
  hintedOrigins?: readonly string[];
  /**
   * When a client may start each origin's handshake: `discovery` (the earliest discovery of
   * anything on it, or its hint) or `start` (t = 0, for every origin of the page: a returning
   * visitor that remembers the page's origins). Connections still pay their handshake; the
   * resources are still found by parsing. @default 'discovery'
   */
  connectFrom?: 'discovery' | 'start';
  /**
   * Every request known at t = 0, not found by parsing: a client that asks for the page's learned
   * request list at once (GETLIST on a revisit, Strategy.memory.speculativeList). Implies
   * `connectFrom: 'start'`; each request still waits for its origin's handshake. @default false
   */
  listAtStart?: boolean;
  tcp?: Partial<TcpModel>;
  /**
   * Segments of a fresh TLS connection's first flight that its server fills before any response:
   * TLS 1.3 NewSessionTickets, which servers on OpenSSL send (two by default, each in a segment of
   * its own) as soon as the handshake ends, ahead of the answer to the request that came with the
   * client's Finished. A response sent the moment such a connection opens has only the rest of
   * the initial window for its first round. A property of the server, measured per server
   * (MODEL.md, "A TLS connection's first flight"). @default 0
   */
  tlsFirstFlightSegments?: number;
  /**
   * Most connections the client keeps open to one origin at once. Every browser's HTTP/1.1 limit,
   * and every `getlist load` strategy's, is 6; an HTTP/2 client uses 1, and a bound for C holds
   * for any client that uses C or fewer. @default 6
   */
  connectionsPerOrigin?: number;
}

/** {@link BoundOptions.connectionsPerOrigin} when not given. */
export const DEFAULT_CONNECTIONS_PER_ORIGIN = 6;

/** The times the latency bound assigns one request, ms from navigation start. */
export interface RequestTiming {
  key: string;
  level: number;
  /** Earliest the client can know of it. */
  discoveredMs: number;
  /** Earliest the request can leave the client (discovered and a connection to its origin up). */
  requestMs: number;
  /** Earliest the last byte can arrive. */
  completeMs: number;
  /** Window rounds of `mss`-sized segments its body needs (1 = fits in the first window). */
  rounds: number;
}

export interface LevelBound {
  level: number;
  /** Earliest a byte of this level can leave a server. */
  earliestSendMs: number;
  /** Bytes of this level and every deeper one, as payload. */
  bytes: number;
  /** `earliestSendMs` + their serialisation (headers included) + RTT/2. */
  boundMs: number;
}

/** The slow-start bound on one origin's bytes of one level and every deeper one. */
export interface SlowStartBound {
  origin: string;
  level: number;
  /** Payload bytes of the origin's requests at this level and deeper. */
  bytes: number;
  /** Earliest a request among them can reach the server (its earliest `requestMs` + RTT/2). */
  earliestSendMs: number;
  /**
   * Most segments the origin's connections can send in the first RTT from `earliestSendMs`:
   * C initial windows, plus one segment for every segment of the origin's shallower responses.
   */
  windowSegments: number;
  /** Least n ≥ 1 with windowSegments·mss·(2ⁿ − 1) ≥ bytes: the RTTs of sending these bytes take. */
  rounds: number;
  /**
   * Earliest the last of these bytes can arrive: the largest, over m = 0 … rounds − 1, of
   * `earliestSendMs` + m·RTT + serialisation of what m RTTs of windows cannot have carried, + RTT/2.
   */
  boundMs: number;
}

export interface LowerBound {
  /** max(latencyMs, bandwidthMs, slowStartMs). */
  totalMs: number;
  latencyMs: number;
  /** The largest {@link LevelBound.boundMs}. */
  bandwidthMs: number;
  /** The largest {@link SlowStartBound.boundMs}. */
  slowStartMs: number;
  /** Which family set `totalMs` (on a tie, the first of latency, bandwidth, slow start). */
  limitedBy: 'latency' | 'bandwidth' | 'slow-start';
  /** The request whose completion sets `latencyMs`, and its chain from the document. */
  criticalChain: RequestTiming[];
  levels: LevelBound[];
  /** One entry per origin and level at which the origin has requests, in origin then level order. */
  slowStart: SlowStartBound[];
  requests: RequestTiming[];
}

/** Bytes the link carries for `payload` bytes of bodies: each full segment adds its headers. */
export function wireBytes(payload: number, tcp: TcpModel = DEFAULT_TCP): number {
  return payload + Math.ceil(payload / tcp.mss) * tcp.headerBytes;
}

/** Time to serialise `payload` body bytes on the bottleneck, ms (0 on an unlimited link). */
export function serialisationMs(payload: number, link: LinkModel, tcp: TcpModel = DEFAULT_TCP): number {
  return link.downBitsPerSec > 0 ? (wireBytes(payload, tcp) * 8 * 1000) / link.downBitsPerSec : 0;
}

/**
 * Most segments a response of `size` body bytes takes: ⌈size/mss⌉ for the body, and at most one
 * more for its headers (in a segment of their own, or pushing the body one segment further). Used
 * where acknowledged segments may have grown a window, so too many is safe and too few is not.
 */
export function segmentsOf(size: number, tcp: TcpModel = DEFAULT_TCP): number {
  return Math.ceil(size / tcp.mss) + 1;
}

/**
 * Round trips of slow start needed to send `bytes` starting from a window of `cwnd` segments that
 * doubles every RTT: the least n ≥ 1 with cwnd·mss·(2ⁿ − 1) ≥ bytes.
 */
export function slowStartRounds(bytes: number, cwnd: number, mss: number): number {
  let rounds = 1;
  while (cwnd * mss * (2 ** rounds - 1) < bytes) rounds++;
  return rounds;
}

function validate(link: LinkModel, tcp: TcpModel, connections: number, firstFlight: number): void {
  const bad = (what: string, v: number) => new RangeError(`lower bound: ${what} must be a finite number ≥ 0; got ${v}`);
  if (!Number.isFinite(link.rttMs) || link.rttMs < 0) throw bad('rttMs', link.rttMs);
  if (!Number.isFinite(link.downBitsPerSec) || link.downBitsPerSec < 0) throw bad('downBitsPerSec', link.downBitsPerSec);
  if (!(tcp.initCwnd >= 1) || !(tcp.mss >= 1)) throw new RangeError(`lower bound: initCwnd and mss must be ≥ 1; got ${tcp.initCwnd}, ${tcp.mss}`);
  if (!Number.isInteger(connections) || connections < 1) throw new RangeError(`lower bound: connectionsPerOrigin must be a whole number ≥ 1; got ${connections}`);
  if (!Number.isInteger(firstFlight) || firstFlight < 0 || firstFlight >= tcp.initCwnd) {
    throw new RangeError(`lower bound: tlsFirstFlightSegments must be a whole number from 0 to initCwnd − 1; got ${firstFlight}`);
  }
}

export function lowerBound(page: PageStructure, link: LinkModel, options: BoundOptions = {}): LowerBound {
  const tcp: TcpModel = { ...DEFAULT_TCP, ...options.tcp };
  const connections = options.connectionsPerOrigin ?? DEFAULT_CONNECTIONS_PER_ORIGIN;
  const firstFlight = options.tlsFirstFlightSegments ?? 0;
  validate(link, tcp, connections, firstFlight);
  const tls = options.tls ?? false;
  const hinted = new Set(options.hintedOrigins ?? []);
  const timings = latencyTimings(page.requests, link, tcp, {
    tls: (origin) => (typeof tls === 'boolean' ? tls : tls.has(origin)),
    hinted: (origin) => hinted.has(origin),
    fromStart: options.connectFrom === 'start' || options.listAtStart === true,
    listAtStart: options.listAtStart === true,
    tlsFirstFlight: firstFlight,
  });
  const levels = levelBounds(page, timings, link, tcp);
  const slowStart = slowStartBounds(page, timings, link, tcp, connections);
  let last = 0;
  timings.forEach((t, i) => {
    if (t.completeMs > (timings[last] as RequestTiming).completeMs) last = i;
  });
  const latencyMs = (timings[last] as RequestTiming).completeMs;
  const bandwidthMs = Math.max(...levels.map((l) => l.boundMs));
  const slowStartMs = Math.max(...slowStart.map((b) => b.boundMs));
  const totalMs = Math.max(latencyMs, bandwidthMs, slowStartMs);
  return {
    totalMs,
    latencyMs,
    bandwidthMs,
    slowStartMs,
    limitedBy: latencyMs === totalMs ? 'latency' : bandwidthMs === totalMs ? 'bandwidth' : 'slow-start',
    criticalChain: chainTo(last, page.requests, timings),
    levels,
    slowStart,
    requests: timings,
  };
}

interface ConnectRule {
  tls: (origin: string) => boolean;
  /** Known from the document's first byte (a hint in its head). */
  hinted: (origin: string) => boolean;
  /** Every origin known at t = 0. */
  fromStart: boolean;
  /** Every request known at t = 0 (a learned list). */
  listAtStart: boolean;
  /** {@link BoundOptions.tlsFirstFlightSegments}. */
  tlsFirstFlight: number;
}

/**
 * Earliest discovery, request and completion of every request. A connection to an origin can be up
 * one handshake after the earliest discovery of anything on it (or its hint, or t = 0 for a
 * returning visitor); requests found later reuse it. An origin's earliest discovery may come from a
 * later entry, so this repeats until no time changes (times only fall from one pass to the next,
 * and each pass settles at least one more level).
 */
function latencyTimings(requests: readonly ModelRequest[], link: LinkModel, tcp: TcpModel, rule: ConnectRule): RequestTiming[] {
  const rtt = link.rttMs;
  const handshakeOf = (origin: string): number => rtt * (rule.tls(origin) ? 2 : 1);
  const segmentsOn = new Map<string, number>();
  for (const r of requests) segmentsOn.set(r.origin, (segmentsOn.get(r.origin) ?? 0) + segmentsOf(r.size, tcp));
  let firstKnown = new Map<string, number>();
  let timings: RequestTiming[] = [];
  for (let pass = 0; pass <= requests.length + 1; pass++) {
    timings = [];
    for (const r of requests) {
      const parents = r.parents.map((p) => timings[p] as RequestTiming);
      const discoveredMs = parents.length === 0 || rule.listAtStart ? 0
        : Math.max(...parents.map((p) => (r.discovery === 'complete' ? p.completeMs : p.requestMs + rtt)));
      // The document (entry 0) comes first, so its first byte is known when a hint needs it.
      const hintMs = rule.fromStart ? 0 : rule.hinted(r.origin) && timings[0] ? timings[0].requestMs + rtt : Infinity;
      const connectedMs = Math.min(firstKnown.get(r.origin) ?? Infinity, discoveredMs, hintMs) + handshakeOf(r.origin);
      const requestMs = Math.max(discoveredMs, connectedMs);
      // Sent the moment its connection opens: no byte has grown that window yet. Sent later: the
      // window can have grown by at most one segment per segment of this origin's other responses.
      const atOpen = discoveredMs <= connectedMs;
      const cwnd = atOpen ? tcp.initCwnd : tcp.initCwnd + (segmentsOn.get(r.origin) ?? 0) - segmentsOf(r.size, tcp);
      // On a fresh TLS connection the server's tickets go first: the first round carries that much less.
      const ahead = atOpen && rule.tls(r.origin) ? rule.tlsFirstFlight * tcp.mss : 0;
      const rounds = slowStartRounds(r.size + ahead, cwnd, tcp.mss);
      const completeMs = requestMs + rtt + Math.max((rounds - 1) * rtt, serialisationMs(r.size, link, tcp));
      timings.push({ key: r.key, level: r.level, discoveredMs, requestMs, completeMs, rounds });
    }
    const known = new Map<string, number>();
    requests.forEach((r, i) => known.set(r.origin, Math.min(known.get(r.origin) ?? Infinity, (timings[i] as RequestTiming).discoveredMs)));
    if ([...known].every(([o, t]) => firstKnown.get(o) === t)) break;
    firstKnown = known;
  }
  return timings;
}

/** Level k's bytes and every deeper level's cannot leave a server before level k's first request arrives. */
function levelBounds(page: PageStructure, timings: readonly RequestTiming[], link: LinkModel, tcp: TcpModel): LevelBound[] {
  return page.levels.map(({ level }) => {
    const earliestSendMs = Math.min(...timings.filter((t) => t.level === level).map((t) => t.requestMs)) + link.rttMs / 2;
    const bytes = page.requests.filter((r) => r.level >= level).reduce((s, r) => s + r.size, 0);
    return { level, earliestSendMs, bytes, boundMs: earliestSendMs + serialisationMs(bytes, link, tcp) + link.rttMs / 2 };
  });
}

/**
 * An origin's bytes of level k and deeper cannot leave its server before the first of their
 * requests arrives. From then on, its connections (at most C open at once) can send in any RTT at
 * most what their windows hold, and in slow start a window grows by at most one segment per segment
 * acknowledged, so the sum of the windows at most doubles every RTT. When the first of those
 * requests arrives, that sum is at most C initial windows plus one segment per segment sent
 * before, and only the origin's shallower responses can have been sent before ({@link segmentsOf}).
 * MODEL.md, family 3, gives the argument in full.
 */
function slowStartBounds(page: PageStructure, timings: readonly RequestTiming[], link: LinkModel, tcp: TcpModel, connections: number): SlowStartBound[] {
  const rtt = link.rttMs;
  const out: SlowStartBound[] = [];
  // Each origin's requests, in one pass (origins in order of first appearance).
  const byOrigin = new Map<string, { r: ModelRequest; t: RequestTiming }[]>();
  page.requests.forEach((r, i) => {
    const on = byOrigin.get(r.origin);
    if (on === undefined) byOrigin.set(r.origin, [{ r, t: timings[i] as RequestTiming }]);
    else on.push({ r, t: timings[i] as RequestTiming });
  });
  for (const [origin, on] of byOrigin) {
    for (const level of [...new Set(on.map(({ r }) => r.level))].sort((a, b) => a - b)) {
      const deeper = on.filter(({ r }) => r.level >= level);
      const bytes = deeper.reduce((s, { r }) => s + r.size, 0);
      const earliestSendMs = Math.min(...deeper.map(({ t }) => t.requestMs)) + rtt / 2;
      const grown = on.filter(({ r }) => r.level < level).reduce((s, { r }) => s + segmentsOf(r.size, tcp), 0);
      const windowSegments = connections * tcp.initCwnd + grown;
      const rounds = slowStartRounds(bytes, windowSegments, tcp.mss);
      // Before earliestSendMs + m·RTT at most windowSegments·(2ᵐ − 1) segments can have left; the
      // rest (more than 0 bytes for every m < rounds) leaves later, and crosses the bottleneck after.
      let lastCrossedMs = earliestSendMs;
      for (let m = 0; m < rounds; m++) {
        const rest = bytes - windowSegments * tcp.mss * (2 ** m - 1);
        lastCrossedMs = Math.max(lastCrossedMs, earliestSendMs + m * rtt + serialisationMs(rest, link, tcp));
      }
      out.push({ origin, level, bytes, earliestSendMs, windowSegments, rounds, boundMs: lastCrossedMs + rtt / 2 });
    }
  }
  return out;
}

function chainTo(index: number, requests: readonly ModelRequest[], timings: readonly RequestTiming[]): RequestTiming[] {
  const chain: RequestTiming[] = [];
  for (let i: number | undefined = index; i !== undefined;) {
    chain.unshift(timings[i] as RequestTiming);
    const parents: readonly number[] = (requests[i] as ModelRequest).parents;
    // Follow the parent that released it last.
    i = parents.length === 0 ? undefined : parents.reduce((a, b) => ((timings[b] as RequestTiming).completeMs > (timings[a] as RequestTiming).completeMs ? b : a));
  }
  return chain;
}
