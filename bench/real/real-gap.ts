/**
 * A load's gap to its lower bound (bench/model/MODEL.md), in four parts, read off the request that
 * finished last (the one that set page-complete) beside the bound's timing of the same request:
 *
 * - discovery: how much later than the bound's earliest the client knew of it (the late parents
 *   of its chain show here);
 * - handshakes: of its wait between discovery and send, the time its connection was still
 *   handshaking, beyond the bound's own wait for a connection;
 * - queueing: the rest of that wait — a connection was up but busy, or the scheduler held it;
 * - bandwidth: everything after the send beyond the bound's request-to-complete time, and whatever
 *   the bound's total adds over this request's own bound (its bandwidth and slow-start families).
 *
 * The parts sum to the gap exactly (load time − bound). Pure.
 */
import type { LowerBound } from '../../src/bound/lower-bound';
import type { LoadTrace } from '../run/load-trace';
import { boundKey } from './real-timeline';

export interface GapParts {
  gapMs: number;
  discoveryMs: number;
  handshakesMs: number;
  queueingMs: number;
  bandwidthMs: number;
}

const overlap = (a0: number, a1: number, b0: number, b1: number): number => Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));

export function gapParts(trace: LoadTrace, bound: LowerBound): GapParts | undefined {
  const done = trace.requests.filter((r) => r.doneMs !== null && r.speculative !== 'unused');
  const last = done.reduce<(typeof done)[number] | undefined>((a, r) => (a === undefined || (r.doneMs ?? 0) > (a.doneMs ?? 0) ? r : a), undefined);
  if (last === undefined || last.doneMs === null) return undefined;
  const b = bound.requests.find((t) => t.key === boundKey(last.url));
  if (b === undefined) return undefined;
  const gapMs = last.doneMs - bound.totalMs;
  const discoveryMs = last.discoveredMs - b.discoveredMs;
  const sent = last.sentMs ?? last.discoveredMs;
  const conn = trace.connections.find((c) => c.id === last.connection);
  const handshaking = conn === undefined ? 0 : overlap(last.discoveredMs, sent, conn.startMs, conn.readyMs);
  const boundWait = b.requestMs - b.discoveredMs;
  const handshakesMs = handshaking - Math.min(boundWait, handshaking);
  const queueingMs = sent - last.discoveredMs - handshaking - Math.max(0, boundWait - handshaking);
  return { gapMs, discoveryMs, handshakesMs, queueingMs, bandwidthMs: gapMs - discoveryMs - handshakesMs - queueingMs };
}
