import { priorityRank, rankInClass, type PriorityClass } from '../core/priority';
import type { OriginFacts } from '../origins/origin-facts';
import { connectionsForPath, INITIAL_WINDOW_BYTES, SEGMENT_BYTES } from './path-estimate';
import { windowsForDemand, type Strategy } from './strategies';

/**
 * HTTP/2 windows for a returning visit's learned list: how many connections an h2 origin opens at
 * t = 0 for the bytes the list will ask of it.
 *
 * One h2 connection starts from one initial window (10 segments, RFC 6928) that at most doubles
 * every round trip (RFC 5681 slow start). A revisit asks for every remembered resource at t = 0
 * (GETLIST), so on a far path the list's bytes, not its discovery, set the load's end: a hundred
 * kilobytes on one connection take four window rounds, on three connections two. The lower bound
 * lets a client use up to six windows per origin (bench/model/MODEL.md, family 3), and browsers'
 * six HTTP/1.1 connections are the same number of windows.
 *
 * RFC 9113 §9.1 says a client SHOULD NOT open more than one HTTP/2 connection to one origin: the
 * cost is the server's state and the fairness of several windows on one path. So the extra
 * connections are opened only where they buy a window round trip (the fewest that give the
 * fewest rounds), only on a far path (a handshake of `http2.demandMinHandshakeMs` or more, as for
 * first-visit windows, h2-windows.ts), and only within what the client's own link carries as
 * earlier loads measured it (`peakBytesPerMs`, peak-delivery.ts): on a capped link more windows
 * than the path holds only cause loss. With no peak remembered, an origin keeps one.
 *
 * They open together, at t = 0, so none comes a handshake after its siblings: windows opened into
 * the burst once the first handshake ended carried nothing but losses (h2-windows.ts).
 *
 * Pure: no I/O.
 */

/**
 * Bytes of a fresh TLS connection's first window its server fills before any response: two TLS 1.3
 * session tickets, a segment each, as servers on OpenSSL send them (bench/model/MODEL.md, "A TLS
 * connection's first flight").
 */
export const TLS_FIRST_FLIGHT_BYTES = 2 * SEGMENT_BYTES;

/** What a response costs on the wire beyond its body: its HPACK head and its frames' and records' headers, about. */
export const RESPONSE_OVERHEAD_BYTES = 256;

/**
 * Round trips of slow start one connection needs to deliver `bytes`, its window doubling from
 * `initialWindowBytes`, of which `heldBytes` (the server's own first flight) go first.
 */
export function slowStartRounds(bytes: number, initialWindowBytes = INITIAL_WINDOW_BYTES, heldBytes = 0): number {
  let rounds = 1;
  let window = initialWindowBytes;
  let sent = window - heldBytes;
  while (sent < bytes) {
    window *= 2;
    sent += window;
    rounds += 1;
  }
  return rounds;
}

/** Initial windows slow start delivers over `rounds` round trips: 1, 3, 7, … (the window doubling each). */
export function slowStartWindows(rounds: number): number {
  return 2 ** rounds - 1;
}

/** What a learned list (and its document) asks of one origin: each response's bytes (body and overhead), in the order they are sent. */
export interface ListedLoad {
  sizes: number[];
}

/** Total bytes of a listed load. */
export function loadBytes(load: ListedLoad): number {
  return load.sizes.reduce((a, b) => a + b, 0);
}

/** Total bytes a learned list asks of every origin together: what crosses the client's link. */
export function listedBytes(listed: ReadonlyMap<string, ListedLoad>): number {
  let total = 0;
  for (const l of listed.values()) total += loadBytes(l);
  return total;
}

/**
 * A connection filled past this share of what its rounds deliver is as likely as not to need one
 * more: slow start in practice grows by less than double per round trip (delayed ACKs, the server's
 * own write sizes), and the list's sizes are the last load's. Erring costs unevenly: a connection
 * too many costs a TLS handshake's computation, a round too few costs a round trip.
 */
export const FILL_SHARE = 0.9;

/** Bytes slow start delivers on a fresh TLS connection in `rounds` round trips. */
function deliveredIn(rounds: number): number {
  return INITIAL_WINDOW_BYTES * slowStartWindows(rounds) - TLS_FIRST_FLIGHT_BYTES;
}

/**
 * The busiest of `c` connections when `sizes` are dealt as the scheduler deals them: in order,
 * each to the connection expected to carry the fewest bytes (dispatch-policy.ts `pickConnection`).
 * Its bytes, and the slow-start rounds it needs on a fresh TLS connection.
 */
export function dealt(sizes: readonly number[], c: number): { bytes: number; rounds: number } {
  const bins = new Array<number>(c).fill(0);
  for (const n of sizes) {
    let least = 0;
    for (let i = 1; i < c; i++) if ((bins[i] as number) < (bins[least] as number)) least = i;
    bins[least] = (bins[least] as number) + n;
  }
  const bytes = Math.max(...bins);
  return { bytes, rounds: slowStartRounds(bytes, INITIAL_WINDOW_BYTES, TLS_FIRST_FLIGHT_BYTES) };
}

/**
 * The fewest connections, at most `max` and at most one per response, that give `load` the fewest
 * rounds as the scheduler deals it, or `minRounds` when that is more (no window is worth opening
 * to end sooner than the link itself can), none filled past {@link FILL_SHARE} of those rounds
 * unless more connections would fill it no less. Dealt, not shared evenly: a response is never
 * split, and one ranked behind the first few shares a connection with what went there first (a
 * large script behind an `@import`ed sheet ends a round trip later than alone).
 */
export function windowsForList(load: ListedLoad, max: number, minRounds = 1): number {
  const most = Math.max(1, Math.min(max, load.sizes.length));
  const best = dealt(load.sizes, most);
  const rounds = Math.max(best.rounds, minRounds);
  const fillLimit = Math.max(best.bytes, FILL_SHARE * deliveredIn(rounds));
  let c = 1;
  for (; c < most; c++) {
    const d = dealt(load.sizes, c);
    if (d.rounds <= rounds && d.bytes <= fillLimit) break;
  }
  return c;
}

/**
 * What a learned list and its document ask of each origin, in the order the scheduler's queue
 * sends them (priority class, then rank within it, then list order; the document first): each
 * body plus its response's overhead, the document, whose size the list does not keep, as one
 * initial window (as the scheduler counts an unknown size, dispatch-policy.ts `pickConnection`).
 * An empty list asks nothing.
 */
export function listedLoads(pageUrl: string, listed: ReadonlyArray<{ url: string; bytes: number; priority: PriorityClass; resourceType?: string }>): Map<string, ListedLoad> {
  const loads = new Map<string, ListedLoad>();
  if (listed.length === 0) return loads;
  const add = (origin: string, body: number) => {
    const l = loads.get(origin) ?? { sizes: [] };
    l.sizes.push(body + RESPONSE_OVERHEAD_BYTES);
    loads.set(origin, l);
  };
  add(new URL(pageUrl).origin, INITIAL_WINDOW_BYTES);
  const queued = listed.map((r, i) => ({ r, i })).sort((a, b) => priorityRank(a.r.priority) - priorityRank(b.r.priority) || rankInClass(a.r.resourceType) - rankInClass(b.r.resourceType) || a.i - b.i);
  for (const { r } of queued) add(new URL(r.url).origin, r.bytes);
  return loads;
}

/** The client's link as earlier loads measured it. */
export interface RememberedLink {
  /** Bytes/ms, at least. */
  rateBytesPerMs: number;
  /** The shortest remembered round trip of the page's origins, ms. */
  rttMs: number;
  /** The rate was the link's (`peakHeld`: a queue on the path, queue-delay.ts, or a peak held window after window, peak-delivery.ts), not a floor under it. */
  held: boolean;
}

/**
 * The client's link from what earlier loads received (`peakBytesPerMs`, peak-delivery.ts): the
 * highest peak remembered on the page's origins (every origin reaches the client over the same
 * link, and a peak is at most its rate), over their shortest round trip. Undefined when no peak
 * or round trip is known: nothing to size extra windows by.
 */
export function rememberedLink(facts: ReadonlyArray<OriginFacts | undefined>): RememberedLink | undefined {
  let rate: number | undefined;
  let held = true;
  let rttMs = Infinity;
  for (const f of facts) {
    if (f?.rttMs !== undefined) rttMs = Math.min(rttMs, f.rttMs);
    if (f?.peakBytesPerMs !== undefined && f.peakBytesPerMs > (rate ?? 0)) {
      rate = f.peakBytesPerMs;
      held = f.peakHeld !== false;
    }
  }
  if (rate === undefined || rttMs === Infinity) return undefined;
  return { rateBytesPerMs: rate, rttMs, held };
}

/** Initial windows `link` takes at once: `2 × BDP ÷ initial window` (path-estimate.ts). */
export function linkWindows(link: RememberedLink): number {
  return connectionsForPath(link.rateBytesPerMs, link.rttMs, Number.MAX_SAFE_INTEGER);
}

/**
 * The preconnect plan with each remembered h2 origin's windows for its share of the learned list
 * (`listed`, by origin). Two budgets from the remembered link: its initial windows (those left after
 * every origin's planned connections go to the origins with the most listed bytes first), and its
 * time: the whole list takes `bytes ÷ rate` through the link whatever the windows, so an origin
 * gets none that would only end it sooner than that (on a capped link a page's list is the
 * link's, and windows added there only queue and lose). The time budget needs the link's rate: a
 * peak that was not the link's (`peakHeld` false: no queue on the path) is the measuring load's own
 * demand, a floor under a link it did not fill (a first visit, paced by discovery, on a fast
 * link), and would hold the list to the rounds of a link slower than the one it has. Origins not
 * remembered as h2, or on a near path, keep what the plan gave them.
 */
export function withListWindows<T extends { origin: string; connections: number; listWindows?: true }>(
  plan: readonly T[],
  listed: ReadonlyMap<string, ListedLoad>,
  factsOf: (origin: string) => OriginFacts | undefined,
  strategy: Strategy,
): T[] {
  const h2 = windowsForDemand(strategy);
  const facts = plan.map((t) => factsOf(t.origin));
  const link = h2 ? rememberedLink(facts) : undefined;
  if (h2 === undefined || link === undefined) return [...plan];
  let room = linkWindows(link) - plan.reduce((n, t) => n + t.connections, 0);
  const linkMs = listedBytes(listed) / link.rateBytesPerMs;
  const rows = plan.map((t, i) => {
    const f = facts[i];
    const load = listed.get(t.origin);
    const bytes = load ? loadBytes(load) : 0;
    // TCP's handshake and TLS 1.3's: two round trips before the first request.
    const far = f?.rttMs !== undefined && 2 * f.rttMs >= h2.demandMinHandshakeMs;
    const minRounds = far && link.held ? Math.ceil(linkMs / (f.rttMs as number)) : 1;
    const wanted = load && f?.protocol === 'h2' && t.connections === 1 && far ? windowsForList(load, h2.connectionsForDemand, minRounds) - 1 : 0;
    return { target: t, bytes, wanted, granted: 0 };
  });
  for (const r of [...rows].sort((a, b) => b.bytes - a.bytes)) {
    r.granted = Math.max(0, Math.min(r.wanted, room));
    room -= r.granted;
  }
  return rows.map(({ target, granted }) => (granted > 0 ? { ...target, connections: target.connections + granted, listWindows: true } : target));
}
