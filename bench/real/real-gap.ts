/**
 * A load's gap to its lower bound (bench/model/MODEL.md) in four parts — discovery, handshakes,
 * queueing, bandwidth — read off the request that finished last, split by the one rule the
 * extension's diagnosis uses too (src/bound/gap-parts.ts; a load trace has no first-byte times, so
 * server time stays in bandwidth). Pure.
 */
import { gapPartsOf } from '../../src/bound/gap-parts';
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

export function gapParts(trace: LoadTrace, bound: LowerBound): GapParts | undefined {
  const done = trace.requests.filter((r) => r.doneMs !== null && r.speculative !== 'unused');
  const last = done.reduce<(typeof done)[number] | undefined>((a, r) => (a === undefined || (r.doneMs ?? 0) > (a.doneMs ?? 0) ? r : a), undefined);
  if (last === undefined || last.doneMs === null) return undefined;
  const b = bound.requests.find((t) => t.key === boundKey(last.url));
  if (b === undefined) return undefined;
  const conn = trace.connections.find((c) => c.id === last.connection);
  const { gapMs, discoveryMs, handshakesMs, queueingMs, bandwidthMs } = gapPartsOf({
    discoveredMs: last.discoveredMs,
    sentMs: last.sentMs ?? last.discoveredMs,
    doneMs: last.doneMs,
    ...(conn === undefined ? {} : { handshake: { startMs: conn.startMs, readyMs: conn.readyMs } }),
  }, b, bound.totalMs, 0);
  return { gapMs, discoveryMs, handshakesMs, queueingMs, bandwidthMs };
}
