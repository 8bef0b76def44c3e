/**
 * One load's per-request timeline, the same shape for a getlist strategy (from its `RunJson`) and
 * for Chromium (from its CDP network events), so "where did the time go" compares like with like
 * (bench/real/real-timeline.ts prints it beside the lower bound's own timeline).
 *
 * Times are ms from the load's start (the document's discovery), rounded to 0.1 ms; `null` is
 * "not measured" (a request that failed before a connection, a Chromium response with no timing).
 */
import type { CdpNetworkEvents } from './chromium-network-timing';
import { ignoredUrl } from './chromium-network-timing';

export interface TracedRequest {
  url: string;
  /** The connection that carried it (getlist's connection id, Chromium's `connectionId`). */
  connection: number | null;
  /** The client knew of it (getlist: enqueued; Chromium: the renderer issued it). */
  discoveredMs: number;
  /** Written on its connection. */
  sentMs: number | null;
  firstByteMs: number | null;
  doneMs: number | null;
  /** getlist only: sent from the page's learned list before parsing found it (`used`), or never named by the page (`unused`). */
  speculative?: 'used' | 'unused';
}

export interface TracedConnection {
  id: number;
  origin: string;
  /** The connect started (DNS included). */
  startMs: number;
  /** The handshake (TCP, and TLS on https) ended. */
  readyMs: number;
  protocol: string | null;
  /** getlist only: the handshake's phases (src/stats/handshake.ts), and the host's event-loop busy time inside those it timed itself. */
  phases?: { dnsMs?: number; tcpMs: number; tlsMs: number; loopDelayMs?: number };
}

export interface LoadTrace {
  requests: TracedRequest[];
  connections: TracedConnection[];
}

const r1 = (x: number): number => Math.round(x * 10) / 10;
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? r1(v) : null);

/** The trace of runs[0] of `getlist load --json` (a `RunJson`, still unchecked). */
export function getlistTrace(run: Record<string, unknown>): LoadTrace {
  const reqs = Array.isArray(run.requests) ? (run.requests as Array<Record<string, unknown>>) : [];
  const started = typeof run.startedAt === 'number' ? run.startedAt : 0;
  const hs = Array.isArray(run.handshakes) ? (run.handshakes as Array<Record<string, unknown>>) : [];
  return {
    requests: reqs.map((r) => {
      const discovered = typeof r.discoveredMs === 'number' ? r.discoveredMs : 0;
      // ttfbMs counts from discovery, not from the send (request-record.ts).
      const ttfb = typeof r.ttfbMs === 'number' ? r.ttfbMs : null;
      return {
        url: String(r.url ?? ''),
        connection: num(r.connectionId),
        discoveredMs: r1(discovered),
        sentMs: num(r.sentMs),
        firstByteMs: ttfb === null ? null : r1(discovered + ttfb),
        doneMs: num(r.doneMs),
        ...(r.speculative === 'used' || r.speculative === 'unused' ? { speculative: r.speculative } : {}),
      };
    }),
    connections: hs.map((h) => {
      const start = (typeof h.startedAt === 'number' ? h.startedAt : started) - started;
      return {
        id: typeof h.connectionId === 'number' ? h.connectionId : -1,
        origin: String(h.origin ?? ''),
        startMs: r1(start),
        readyMs: r1(start + (typeof h.totalMs === 'number' ? h.totalMs : 0)),
        protocol: typeof h.protocol === 'string' ? h.protocol : null,
        ...(typeof h.tcpMs === 'number' && typeof h.tlsMs === 'number'
          ? { phases: { ...(typeof h.dnsMs === 'number' ? { dnsMs: r1(h.dnsMs) } : {}), tcpMs: r1(h.tcpMs), tlsMs: r1(h.tlsMs), ...(typeof h.loopDelayMs === 'number' ? { loopDelayMs: r1(h.loopDelayMs) } : {}) } }
          : {}),
      };
    }),
  };
}

/**
 * The trace of a Chromium load from its CDP events: discovered at `requestWillBeSent`, sent at
 * `requestTime + sendStart`, first byte at `requestTime + receiveHeadersEnd`, done at
 * `loadingFinished`; a connection is listed by the response that opened it (`connectStart` ≥ 0).
 * Times count from the document's `requestWillBeSent`.
 */
export function chromiumTrace(ev: CdpNetworkEvents): LoadTrace {
  const sent = new Map<string, { url: string; timestamp: number }>();
  for (const s of ev.sent) if (!ignoredUrl(s.url) && !sent.has(s.requestId)) sent.set(s.requestId, s);
  const t0 = [...sent.values()][0]?.timestamp ?? 0;
  const ms = (seconds: number): number => r1((seconds - t0) * 1000);
  const done = new Map<string, number>();
  for (const e of ev.ended) if (!e.failed) done.set(e.requestId, Math.max(done.get(e.requestId) ?? -Infinity, e.timestamp));
  const byId = new Map(ev.responses.map((r) => [r.requestId, r]));
  const connections = new Map<number, TracedConnection>();
  const requests = [...sent].map(([id, s]): TracedRequest => {
    const r = byId.get(id);
    const t = r?.timing;
    const at = (phase: number | undefined): number | null => (t === undefined || phase === undefined || phase < 0 || !(t.requestTime > 0) ? null : ms(t.requestTime + phase / 1000));
    const conn = r?.connectionId ?? null;
    const start = at(t?.connectStart);
    const ready = at(t?.connectEnd);
    if (conn !== null && start !== null && ready !== null && !connections.has(conn)) {
      connections.set(conn, { id: conn, origin: new URL(s.url).origin, startMs: start, readyMs: ready, protocol: r?.protocol ?? null });
    }
    const end = done.get(id);
    return { url: s.url, connection: conn, discoveredMs: ms(s.timestamp), sentMs: at(t?.sendStart), firstByteMs: at(t?.receiveHeadersEnd), doneMs: end === undefined ? null : ms(end) };
  });
  return { requests, connections: [...connections.values()] };
}
