import type { TimingEntry } from '../../model/page-record';
import type { RequestRecord } from '../../../run/request-record';
import type { HandshakeRecord } from '../../../stats/handshake';

/**
 * The phases of one request, in the order DevTools draws them. `queued` is everything before the
 * first network step (Chromium's "Queueing" + "Stalled"); `tls` is drawn after `connect` and is
 * not inside it (HAR's `connect` includes `ssl`; the waterfall does not double-draw it).
 */
export type PhaseKind = 'queued' | 'dns' | 'connect' | 'tls' | 'wait' | 'download' | 'opaque';

export const PHASE_KINDS: readonly PhaseKind[] = ['queued', 'dns', 'connect', 'tls', 'wait', 'download', 'opaque'];

export const PHASE_LABELS: Readonly<Record<PhaseKind, string>> = {
  queued: 'Queued',
  dns: 'DNS',
  connect: 'Connect',
  tls: 'TLS',
  wait: 'Waiting (TTFB)',
  download: 'Download',
  opaque: 'Not exposed',
};

/** One phase on the time axis, ms from the run's or the navigation's start; `endMs ≥ startMs`. */
export interface Phase {
  kind: PhaseKind;
  startMs: number;
  endMs: number;
}

/**
 * Phases from a Resource Timing entry (ms from navigation start). A restricted entry (cross-origin
 * without Timing-Allow-Origin) is one `opaque` span: the browser zeroes the detail, and zeros drawn
 * as phases would read as measurements. A cached entry has no network phases, only `download`.
 */
export function phasesFromTiming(t: TimingEntry): Phase[] {
  const end = Math.max(t.startTime, t.responseEnd);
  if (t.restricted) return [span('opaque', t.startTime, end)];
  const out: Phase[] = [];
  const fresh = t.connectEnd > t.connectStart;
  const dns = t.domainLookupEnd > t.domainLookupStart;
  const firstNetwork = [dns ? t.domainLookupStart : 0, fresh ? t.connectStart : 0, t.requestStart].find((v) => v > 0) ?? t.startTime;
  push(out, 'queued', t.startTime, firstNetwork);
  if (dns) push(out, 'dns', t.domainLookupStart, t.domainLookupEnd);
  if (fresh) {
    const tlsStart = t.secureConnectionStart > t.connectStart ? t.secureConnectionStart : t.connectEnd;
    push(out, 'connect', t.connectStart, tlsStart);
    push(out, 'tls', tlsStart, t.connectEnd);
    // Between connectEnd and requestStart Chromium may still stall (a connection handed over).
    push(out, 'queued', t.connectEnd, t.requestStart);
  }
  const firstByte = t.responseStart > 0 ? t.responseStart : t.requestStart > 0 ? t.requestStart : t.startTime;
  if (t.requestStart > 0) push(out, 'wait', t.requestStart, firstByte);
  push(out, 'download', firstByte, end);
  return out.length ? out : [span('download', t.startTime, end)];
}

/**
 * Phases of a replayed request from the host's record (ms from the strategy's run start). When the
 * request opened its connection and that handshake is known (`handshakeStartMs` on the same axis),
 * DNS, connect and TLS are drawn from it; otherwise the whole wait for a connection is `queued`.
 */
export function phasesFromRecord(r: RequestRecord, handshake?: { startMs: number; record: HandshakeRecord }): Phase[] {
  const out: Phase[] = [];
  const sent = r.sentMs ?? r.doneMs;
  let from = r.discoveredMs;
  if (handshake) {
    const h = handshake.record;
    const s = Math.max(from, Math.min(handshake.startMs, sent));
    push(out, 'queued', from, s);
    push(out, 'dns', s, s + h.dnsMs);
    // Between the lookup and the SYN the host only waited for its own next tick (timing-connector.ts):
    // that wait is in totalMs and in no phase, so TCP and TLS end where the handshake ended.
    const tcpStart = Math.max(s + h.dnsMs, s + h.totalMs - h.tlsMs - h.tcpMs);
    push(out, 'queued', s + h.dnsMs, tcpStart);
    push(out, 'connect', tcpStart, tcpStart + h.tcpMs);
    push(out, 'tls', tcpStart + h.tcpMs, tcpStart + h.tcpMs + h.tlsMs);
    from = Math.min(sent, s + h.totalMs);
  }
  push(out, 'queued', from, sent);
  if (r.sentMs === null) return out.length ? out : [span('queued', r.discoveredMs, r.doneMs)];
  const firstByte = r.ttfbMs === null ? r.doneMs : Math.min(r.doneMs, Math.max(sent, r.discoveredMs + r.ttfbMs));
  push(out, 'wait', sent, firstByte);
  push(out, 'download', firstByte, r.doneMs);
  return out;
}

/** Total of each phase kind (ms), for tooltips: several `queued` spans add up. */
export function phaseTotals(phases: readonly Phase[]): Partial<Record<PhaseKind, number>> {
  const out: Partial<Record<PhaseKind, number>> = {};
  for (const p of phases) out[p.kind] = (out[p.kind] ?? 0) + (p.endMs - p.startMs);
  return out;
}

function push(out: Phase[], kind: PhaseKind, startMs: number, endMs: number): void {
  if (endMs > startMs) out.push(span(kind, startMs, endMs));
}

function span(kind: PhaseKind, startMs: number, endMs: number): Phase {
  return { kind, startMs, endMs: Math.max(startMs, endMs) };
}
