/**
 * What `dist/bench/demo-link.js` prints: the same comparison table and handshake CDF as
 * `getlist demo`, plus the measured TCP connect times, which on the packet-level link equal the
 * link's RTT (on the relay of `getlist demo` they are loopback connects).
 */
import { asciiCdf } from '../../native-host/cli/ascii-cdf';
import { demoComparisonTable } from '../../native-host/cli/demo-command';
import { summarizeStrategies, type RunJson, type StrategySummary } from '../../src/run';
import { HANDSHAKE_PHASES, phaseMs } from '../../src/stats/handshake';
import { Histogram } from '../../src/stats/histogram';
import { median } from '../../src/stats/median';
import { nearestRank } from '../engine/stats';
import type { DemoLinkResult } from './run-demo-link';

export interface TcpConnectSummary {
  connections: number;
  medianMs: number;
  minMs: number;
  p90Ms: number;
  maxMs: number;
  /** The link's configured RTT: a real handshake cannot complete faster. */
  linkRttMs: number;
}

export function tcpConnectSummary(runs: readonly RunJson[], linkRttMs: number): TcpConnectSummary {
  const ms = runs.flatMap((r) => r.handshakes.map((h) => h.tcpMs)).sort((a, b) => a - b);
  return { connections: ms.length, medianMs: median(ms), minMs: ms[0] ?? NaN, p90Ms: nearestRank(ms, 0.9), maxMs: ms[ms.length - 1] ?? NaN, linkRttMs };
}

/** e.g. "TCP connect: median 100.5 ms over 172 connections (link RTT 100 ms; min 100.3, p90 100.8, max 103.6)". */
export function formatTcpConnect(s: TcpConnectSummary, scope?: string): string {
  const head = `TCP connect${scope === undefined ? '' : ` (${scope})`}`;
  if (s.connections === 0) return `${head}: no connections measured (link RTT ${s.linkRttMs} ms)`;
  return `${head}: median ${s.medianMs.toFixed(1)} ms over ${s.connections} connection${s.connections === 1 ? '' : 's'} `
    + `(link RTT ${s.linkRttMs} ms; min ${s.minMs.toFixed(1)}, p90 ${s.p90Ms.toFixed(1)}, max ${s.maxMs.toFixed(1)})`;
}

function summaries(page: DemoLinkResult['pages'][number]): StrategySummary[] {
  return summarizeStrategies(page.runs);
}

/** The comparison table of `getlist demo`, with its ratio columns. */
export function formatPageTable(page: DemoLinkResult['pages'][number]): string {
  return demoComparisonTable(page.runs);
}

function phaseHistograms(result: DemoLinkResult): Array<{ phase: string; histogram: Histogram }> {
  return HANDSHAKE_PHASES.map((phase) => {
    const histogram = new Histogram();
    for (const page of result.pages) for (const run of page.runs) for (const h of run.handshakes) histogram.record(phaseMs(h, phase));
    return { phase, histogram };
  });
}

export function describeLink(result: DemoLinkResult): string {
  const { link, info } = result;
  const rate = (b: number): string => (b > 0 ? `${b / 1e6} Mbit/s` : 'unlimited');
  return `link ${link.name}: RTT ${link.rttMs} ms, ${rate(link.downBitsPerSec)} down, ${rate(link.upBitsPerSec)} up, loss ${link.loss * 100}% `
    + `(kernel TCP ${info.congestionControl}, initcwnd ${info.initCwnd}, MTU ${info.mtu}, ${info.privilege ?? 'root'})`;
}

/** The text report (stdout); progress went to stderr while the demo ran. */
export function formatDemoLinkText(result: DemoLinkResult): string {
  const out: string[] = [`getlist demo over the packet-level ${describeLink(result)}`, `demo server: ${result.server.origin} (${result.server.address}), getlist's Node HTTP/1.1 demo server`];
  for (const page of result.pages) {
    out.push('', `${page.page}: ${page.title}`, formatPageTable(page), formatTcpConnect(tcpConnectSummary(page.runs, result.link.rttMs)));
    const failed = page.runs.reduce((a, r) => a + r.errors, 0);
    if (failed > 0) out.push(`${failed} request(s) failed; run with --json to see each error.`);
  }
  const phases = phaseHistograms(result).filter((p) => p.phase === 'tcp' || p.phase === 'total');
  out.push('', 'Handshake time CDF, every connection opened (measured at the socket)', asciiCdf(phases.map((p) => ({ label: p.phase, histogram: p.histogram }))));
  out.push('');
  if (result.pages.length > 1) out.push(formatTcpConnect(tcpConnectSummary(result.pages.flatMap((p) => p.runs), result.link.rttMs), 'all pages'));
  out.push('Packet-level link: each TCP handshake crosses the emulated link, so the measured connect time is',
    'one round trip (the relay of `getlist demo` completes it on loopback instead, so its TCP figure is a loopback connect plus event-loop delay).');
  return `${out.join('\n')}\n`;
}

/** The `--json` report: `getlist demo --json`'s shape plus the link's settings and the connect times. */
export function demoLinkJson(result: DemoLinkResult) {
  return {
    link: { ...result.link, emulation: 'packet-level: kernel TCP in two network namespaces joined by a forwarder applying delay, rate and loss', info: result.info },
    server: result.server,
    pages: result.pages.map((page) => ({
      ...page,
      summary: summaries(page),
      tcpConnect: tcpConnectSummary(page.runs, result.link.rttMs),
    })),
    tcpConnect: tcpConnectSummary(result.pages.flatMap((p) => p.runs), result.link.rttMs),
    handshakeCdf: Object.fromEntries(phaseHistograms(result).map((p) => [p.phase, p.histogram.cdf()])),
  };
}
