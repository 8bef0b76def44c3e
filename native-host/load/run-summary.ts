import type { PriorityClass, RequestResult, SchedulerStats, StrategyName } from '../../src/scheduler';
import type { HandshakeRecord } from '../../src/stats/handshake';
import type { LoadFigures } from '../../src/stats/load-figures';

/** One request of a run, as `getlist load --json` prints it. Times are ms from the load start. */
export interface RequestRecord {
  url: string;
  method: string;
  priority: PriorityClass;
  kind: string | undefined;
  status: number | undefined;
  /** Body bytes as they crossed the wire (still content-encoded). */
  bytes: number;
  /** Body bytes after undoing `Content-Encoding` (equal to `bytes` for an unencoded body). */
  decodedBytes: number;
  connectionId: number | undefined;
  reused: boolean;
  pipelined: boolean;
  attempts: number;
  protocol: string | undefined;
  discoveredMs: number;
  sentMs: number | undefined;
  /** Time to first byte from when the request was known (discovered), not from when it was sent. */
  ttfbMs: number | undefined;
  doneMs: number;
  error: { code: string; message: string } | undefined;
}

/** The load figures plus how many requests the load made (document included). */
export interface RunFigures extends LoadFigures {
  requests: number;
}

/** A URL the page names that a browser would not fetch on load, and so neither did the run. */
export interface SkippedResource {
  url: string;
  kind: string;
  /** `mixed-content`: `http:` script/style/font/frame in an `https:` page; `lazy`: beyond the fold with `--no-lazy`. */
  reason: 'mixed-content' | 'lazy';
}

export interface LoadRun extends LoadFigures {
  url: string;
  strategy: StrategyName;
  /** Epoch ms. */
  startedAt: number;
  retries: number;
  pauses: number;
  demotions: SchedulerStats['demotions'];
  requests: RequestRecord[];
  handshakes: HandshakeRecord[];
  skipped: SkippedResource[];
  /** Style sheet `url()`s no element matched (never fetched, as in a browser). */
  unmatchedCssUrls: number;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** A handshake with its durations rounded to the microsecond, as results report them. */
export function roundHandshake(h: HandshakeRecord): HandshakeRecord {
  return { ...h, dnsMs: round(h.dnsMs), tcpMs: round(h.tcpMs), tlsMs: round(h.tlsMs), totalMs: round(h.totalMs) };
}

export function summarizeRun(input: {
  url: string;
  strategy: StrategyName;
  startedAt: number;
  t0: number;
  results: RequestResult[];
  handshakes: HandshakeRecord[];
  stats: SchedulerStats;
  /** Decoded body bytes by request id, for encoded bodies; others decode to their wire bytes. */
  decodedBytes?: ReadonlyMap<number, number>;
  skipped?: SkippedResource[];
  unmatchedCssUrls?: number;
}): LoadRun {
  const { t0 } = input;
  const requests: RequestRecord[] = [...input.results]
    .sort((a, b) => a.id - b.id)
    .map((r) => ({
      url: r.url,
      method: r.method,
      priority: r.priority,
      kind: r.tag,
      status: r.status,
      bytes: r.bytes,
      decodedBytes: input.decodedBytes?.get(r.id) ?? r.bytes,
      connectionId: r.connectionId,
      reused: r.reused,
      pipelined: r.pipelined,
      attempts: r.attempts,
      protocol: r.protocol,
      discoveredMs: round(r.discoveredAt - t0),
      sentMs: r.sentAt === undefined ? undefined : round(r.sentAt - t0),
      ttfbMs: r.firstByteAt === undefined ? undefined : round(r.firstByteAt - r.discoveredAt),
      doneMs: round(r.doneAt - t0),
      error: r.error ? { code: r.error.code, message: r.error.message } : undefined,
    }));
  const ok = requests.filter((r) => !r.error);
  const ttfbs = ok.map((r) => r.ttfbMs).filter((x): x is number => x !== undefined);
  const used = new Set(ok.map((r) => r.connectionId));
  return {
    url: input.url,
    strategy: input.strategy,
    startedAt: input.startedAt,
    totalMs: round(requests.reduce((m, r) => Math.max(m, r.doneMs), 0)),
    meanTtfbMs: round(ttfbs.length ? ttfbs.reduce((a, b) => a + b, 0) / ttfbs.length : 0),
    connectionsOpened: input.handshakes.length,
    requestsPerConnection: round(used.size ? ok.length / used.size : 0),
    bytes: requests.reduce((a, r) => a + r.bytes, 0),
    errors: requests.length - ok.length,
    retries: input.stats.retries,
    pauses: input.stats.pauses,
    demotions: input.stats.demotions,
    requests,
    handshakes: input.handshakes.map(roundHandshake),
    skipped: input.skipped ?? [],
    unmatchedCssUrls: input.unmatchedCssUrls ?? 0,
  };
}
