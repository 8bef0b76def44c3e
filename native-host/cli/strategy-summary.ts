import { Histogram } from '../../src/stats/histogram';
import { loadFigures } from '../../src/stats/load-figures';
import { median } from '../../src/stats/median';
import type { LoadRun, RunFigures } from '../load/run-summary';

/** One row of a comparison table: the median over a strategy's repeated runs. */
export interface StrategySummary extends RunFigures {
  strategy: string;
  runs: number;
  handshakeP50Ms: number;
  handshakeP90Ms: number;
}

/** Groups runs by strategy (first-seen order) and takes medians; handshakes are pooled. */
export function summarizeStrategies(runs: readonly LoadRun[]): StrategySummary[] {
  const groups = new Map<string, LoadRun[]>();
  for (const r of runs) groups.set(r.strategy, [...(groups.get(r.strategy) ?? []), r]);
  return [...groups].map(([strategy, rs]) => {
    const hs = new Histogram();
    for (const r of rs) for (const h of r.handshakes) hs.record(h.totalMs);
    return {
      strategy,
      runs: rs.length,
      totalMs: median(rs.map((r) => r.totalMs)),
      meanTtfbMs: median(rs.map((r) => r.meanTtfbMs)),
      connectionsOpened: median(rs.map((r) => r.connectionsOpened)),
      requestsPerConnection: median(rs.map((r) => r.requestsPerConnection)),
      requests: median(rs.map((r) => r.requests.length)),
      bytes: median(rs.map((r) => r.bytes)),
      handshakeP50Ms: hs.isEmpty ? NaN : hs.percentile(50),
      handshakeP90Ms: hs.isEmpty ? NaN : hs.percentile(90),
      errors: rs.reduce((a, r) => a + r.errors, 0),
    };
  });
}

/** Public JSON shape of a run (`getlist load --json`, `getlist demo --json`). */
export function runToJson(run: LoadRun, repeat: number) {
  return {
    strategy: run.strategy,
    repeat,
    ...loadFigures(run),
    retries: run.retries,
    pauses: run.pauses,
    demotions: run.demotions,
    requests: run.requests.map((r) => ({
      url: r.url,
      priority: r.priority,
      kind: r.kind,
      status: r.status,
      bytes: r.bytes,
      decodedBytes: r.decodedBytes,
      connectionId: r.connectionId,
      reused: r.reused,
      pipelined: r.pipelined,
      protocol: r.protocol,
      attempts: r.attempts,
      discoveredMs: r.discoveredMs,
      sentMs: r.sentMs,
      ttfbMs: r.ttfbMs,
      doneMs: r.doneMs,
      error: r.error,
    })),
    skipped: run.skipped,
    unmatchedCssUrls: run.unmatchedCssUrls,
    handshakes: run.handshakes.map((h) => ({
      origin: h.origin,
      dnsMs: h.dnsMs,
      tcpMs: h.tcpMs,
      tlsMs: h.tlsMs,
      totalMs: h.totalMs,
      protocol: h.protocol,
      resumed: h.resumed,
      tlsVersion: h.tlsVersion,
      remoteAddress: h.remoteAddress,
    })),
  };
}
