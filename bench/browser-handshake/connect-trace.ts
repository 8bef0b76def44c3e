/**
 * The browser's connect phases lined up with the packets that made them (packet-trace.ts): each
 * entry that shows a TCP connect is matched to the connection whose SYN-ACK reached the client at
 * its `connectEnd` (the connect ends when the kernel takes the SYN-ACK), and judged by when that
 * connection's SYN left:
 *
 * - `whole`: the SYN left at the entry's `connectStart` — the browser timed the whole handshake;
 * - `joined`: the SYN left before it — the connect was under way before the request took the
 *   socket, and the browser shows only the rest (Chromium clamps a connect that began before the
 *   request's start to that start);
 * - `unended`: a connect phase of no length whose SYN left at its `connectStart`: the browser saw the
 *   connect begin but stamped its end at its start (Firefox does, for some of the connections it
 *   opens beside the first), so the length it shows is not the handshake's;
 * - `unmatched`: no SYN-ACK arrived near the entry's `connectEnd` (nor, for a phase of no length,
 *   a SYN near its `connectStart`).
 */
import { showsConnect } from '../../src/page/model/connection-count';
import type { RawResourceTiming } from '../../src/page/model/timing-mapping';
import type { PageTiming } from './page-timing';
import type { TracedConnect } from './packet-trace';

export type ConnectVerdict = 'whole' | 'joined' | 'unended' | 'unmatched';

export interface TracedEntry {
  name: string;
  /** The entry's own phases, ms from `timeOrigin`. */
  fetchStart: number;
  domainLookupStart: number;
  domainLookupEnd: number;
  connectStart: number;
  connectEnd: number;
  requestStart: number;
  /** The browser's TCP phase: `connectEnd − connectStart` (http: origins). */
  tcpMs: number;
  /** The matched connection's client port, SYN and SYN-ACK, ms after the entry's `connectStart` on the wall clock. */
  port?: number;
  synAfterConnectStartMs?: number;
  synAckAfterConnectEndMs?: number;
  /** SYN → SYN-ACK on the link: the whole handshake as the client saw it. */
  handshakeMs?: number;
  verdict: ConnectVerdict;
}

/**
 * How far apart the page's and the packets' clocks may be for one event: the browsers' coarsened
 * timers (Firefox's reduced precision is 1 ms), the clock offset's own read, the kernel's wake-up.
 */
export const MATCH_TOLERANCE_MS = 2;

type ConnectFields = Pick<RawResourceTiming, 'name' | 'domainLookupStart' | 'domainLookupEnd' | 'connectStart' | 'connectEnd' | 'requestStart' | 'nextHopProtocol'> & { fetchStart?: number; transferSize?: number; encodedBodySize?: number };

/** Every http: entry of the load that shows a TCP connect (the document first), as the extension selects them. */
export function connectEntries(t: PageTiming, url: string): ConnectFields[] {
  const all: ConnectFields[] = [{ ...t.nav, name: url } as ConnectFields, ...t.resources];
  return all.filter((e) => e.name.startsWith('http:') && !(e.transferSize === 0 && (e.encodedBodySize ?? 0) > 0)
    && e.connectStart > 0 && showsConnect({ ...e, fetchStart: e.fetchStart }));
}

/** Lines the load's connect entries up with the traced connections. */
export function traceEntries(url: string, t: PageTiming, connects: readonly TracedConnect[]): TracedEntry[] {
  const wall = (ms: number): number => t.timeOrigin + ms + t.clockOffsetMs;
  return connectEntries(t, url).map((e) => {
    const base = {
      name: e.name, fetchStart: e.fetchStart ?? 0, domainLookupStart: e.domainLookupStart, domainLookupEnd: e.domainLookupEnd,
      connectStart: e.connectStart, connectEnd: e.connectEnd, requestStart: e.requestStart, tcpMs: round(e.connectEnd - e.connectStart),
    };
    const end = wall(e.connectEnd);
    const start = wall(e.connectStart);
    const byEnd = nearest(connects, (c) => c.synAckAt, end);
    if (byEnd) {
      const synAfter = byEnd.synAt - start;
      return { ...base, ...packetsOf(byEnd, start, end), verdict: synAfter >= -MATCH_TOLERANCE_MS ? ('whole' as const) : ('joined' as const) };
    }
    const byStart = e.connectEnd === e.connectStart ? nearest(connects, (c) => c.synAt, start) : undefined;
    if (byStart) return { ...base, ...packetsOf(byStart, start, end), verdict: 'unended' as const };
    return { ...base, verdict: 'unmatched' as const };
  });
}

/** The connection whose `at` lies nearest `target`, if within the tolerance. */
function nearest(connects: readonly TracedConnect[], at: (c: TracedConnect) => number | undefined, target: number): TracedConnect | undefined {
  let best: TracedConnect | undefined;
  let bestGap = Infinity;
  for (const c of connects) {
    const t = at(c);
    if (t === undefined || c.synAckAt === undefined) continue;
    const gap = Math.abs(t - target);
    if (gap < bestGap) [best, bestGap] = [c, gap];
  }
  return bestGap <= MATCH_TOLERANCE_MS ? best : undefined;
}

function packetsOf(c: TracedConnect, start: number, end: number): Pick<TracedEntry, 'port' | 'synAfterConnectStartMs' | 'synAckAfterConnectEndMs' | 'handshakeMs'> {
  const synAckAt = c.synAckAt as number;
  return { port: c.port, synAfterConnectStartMs: round(c.synAt - start), synAckAfterConnectEndMs: round(synAckAt - end), handshakeMs: round(synAckAt - c.synAt) };
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
