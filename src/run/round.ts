import type { HandshakeRecord } from '../stats/handshake';

/** Durations in run records are rounded to the microsecond. */
export function roundMs(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** A handshake with its durations rounded to the microsecond, as runs and replies report them. */
export function roundHandshake(h: HandshakeRecord): HandshakeRecord {
  return { ...h, dnsMs: roundMs(h.dnsMs), tcpMs: roundMs(h.tcpMs), tlsMs: roundMs(h.tlsMs), totalMs: roundMs(h.totalMs) };
}
