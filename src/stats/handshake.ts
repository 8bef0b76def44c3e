import type { HttpProtocol } from '../core/http-protocol';

/**
 * The handshake of one connection, measured at the socket by the host's timing connector.
 * Durations are milliseconds; a phase that did not happen (DNS for an IP literal, TLS on http:)
 * is 0. Resumed and full TLS handshakes are different populations: keep them apart in stats.
 */
export interface HandshakeRecord {
  connectionId: number;
  origin: string;
  /** Wall-clock epoch ms when the connection was asked for: where DNS (or, for an IP literal, the wait for the SYN) starts. */
  startedAt: number;
  dnsMs: number;
  /**
   * From the first connection attempt (the SYN) to the socket's `connect` event, timed by the
   * host's connect timer, a process whose event loop does nothing else (or, when the host connects
   * in its own loop, there: then bounded by `loopDelayMs`).
   */
  tcpMs: number;
  tlsMs: number;
  /** The call that asked for the connection to the connection being usable: the phases plus the host's own wait to send the SYN. */
  totalMs: number;
  remoteAddress: string | undefined;
  remotePort: number | undefined;
  localPort: number | undefined;
  /** ALPN result (`http/1.1` on plain http). */
  protocol: HttpProtocol;
  /** e.g. `TLSv1.3`; undefined on http:. */
  tlsVersion: string | undefined;
  /**
   * TLS session resumed (abbreviated handshake); false on http:. Undefined where it cannot be told:
   * the browser's Resource Timing does not expose resumption (a TLS 1.3 handshake takes one round
   * trip resumed or not).
   */
  resumed: boolean | undefined;
  /**
   * The most event-loop scheduling delay the phases may include: the host loop's busy time inside
   * the phases it timed itself (the connect call to the lookup, and TLS; TCP too when it connected
   * in its own loop; a socket event is dispatched late only while the loop is busy). Each phase
   * end is late by at most this much. Absent on records taken before it was measured.
   */
  loopDelayMs?: number;
  /**
   * The browser's records only: `unended` when the browser showed the connect begin but not end (a
   * TCP phase of no length: Firefox stamps some connects' end at their start, though each took a
   * round trip on the wire; bench/README.md, "The browser's own handshakes"). Its `tcpMs` and
   * `totalMs` are then no measurement: stats leave them out. Absent: timed as the browser gave it.
   */
  connect?: 'unended';
}

/**
 * Who opened the connection: the user's `browser` (its own Resource Timing, lean capture), the
 * native `host` (a page's measure or replay) or the `cli`. Different populations: the browser's
 * connections go to other origins at other times, with its own TLS session cache.
 */
export type HandshakeSource = 'browser' | 'host' | 'cli';
export const HANDSHAKE_SOURCES: readonly HandshakeSource[] = ['browser', 'host', 'cli'];

export function isHandshakeSource(x: unknown): x is HandshakeSource {
  return typeof x === 'string' && (HANDSHAKE_SOURCES as readonly string[]).includes(x);
}

/**
 * The source of a record as stored (`measure` and `replay` are the host's; a record with none was
 * measured by the host's timing connector in this process).
 */
export function handshakeSource(r: { source?: string }): HandshakeSource {
  return r.source === 'browser' || r.source === 'cli' ? r.source : 'host';
}

export type HandshakePhase = 'dns' | 'tcp' | 'tls' | 'total';
export const HANDSHAKE_PHASES: readonly HandshakePhase[] = ['dns', 'tcp', 'tls', 'total'];

/** Whether the record measured `phase`: an unended connect (`connect`) has no TCP time and no total. */
export function phaseMeasured(r: Pick<HandshakeRecord, 'connect'>, phase: HandshakePhase): boolean {
  return r.connect !== 'unended' || phase === 'dns' || phase === 'tls';
}

export function phaseMs(r: HandshakeRecord, phase: HandshakePhase): number {
  switch (phase) {
    case 'dns':
      return r.dnsMs;
    case 'tcp':
      return r.tcpMs;
    case 'tls':
      return r.tlsMs;
    case 'total':
      return r.totalMs;
  }
}
