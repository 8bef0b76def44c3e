/**
 * A load's gap to its lower bound (bench/model/MODEL.md), in parts, read off the request that
 * finished last (the one that set the page's end) beside the bound's timing of the same request:
 *
 * - discovery: how much later than the bound's earliest the client knew of it (the late parents
 *   of its chain show here);
 * - handshakes: of its wait between discovery and send, the time its connection was still
 *   handshaking, beyond the bound's own wait for a connection;
 * - queueing: the rest of that wait — a connection was up but busy, or the client held it;
 * - server: when its first byte is known, the time from send to first byte beyond one round trip
 *   (the server's own time; the bound charges exactly one round trip there);
 * - bandwidth: everything after the send beyond the bound's request-to-complete time (and beyond
 *   the server's time), and whatever the bound's total adds over this request's own bound (its
 *   bandwidth and slow-start families).
 *
 * The parts sum to the gap exactly (end − bound). The benchmarks (bench/real/real-gap.ts) and the
 * extension's diagnosis (src/page/diagnosis/diagnose.ts) both split their gaps here. Pure.
 */
import type { RequestTiming } from './lower-bound';

/** What a client did with the request that finished last, ms from navigation start. */
export interface ObservedLast {
  discoveredMs: number;
  /** The request left the client. */
  sentMs: number;
  /** Its last byte arrived. */
  doneMs: number;
  /** Its first byte arrived; absent when not measured (then server time counts as bandwidth). */
  firstByteMs?: number;
  /** The handshake of the connection it went on, when that connection was opened for the page. */
  handshake?: { startMs: number; readyMs: number };
}

export interface GapParts {
  gapMs: number;
  discoveryMs: number;
  handshakesMs: number;
  queueingMs: number;
  /** 0 when the first byte was not measured. */
  serverMs: number;
  bandwidthMs: number;
}

const overlap = (a0: number, a1: number, b0: number, b1: number): number => Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));

export function gapPartsOf(last: ObservedLast, bound: RequestTiming, boundTotalMs: number, rttMs: number): GapParts {
  const gapMs = last.doneMs - boundTotalMs;
  const discoveryMs = last.discoveredMs - bound.discoveredMs;
  const sent = last.sentMs;
  const handshaking = last.handshake === undefined ? 0 : overlap(last.discoveredMs, sent, last.handshake.startMs, last.handshake.readyMs);
  const boundWait = bound.requestMs - bound.discoveredMs;
  const handshakesMs = handshaking - Math.min(boundWait, handshaking);
  const queueingMs = sent - last.discoveredMs - handshaking - Math.max(0, boundWait - handshaking);
  const serverMs = last.firstByteMs === undefined ? 0 : Math.max(0, last.firstByteMs - sent - rttMs);
  return { gapMs, discoveryMs, handshakesMs, queueingMs, serverMs, bandwidthMs: gapMs - discoveryMs - handshakesMs - queueingMs - serverMs };
}
