/**
 * The browser-handshake bench's section of bench/RESULTS.md, from its results file (`--out`): per
 * browser and RTT, the records' TCP figures beside the packets' own handshakes (connect-trace.ts),
 * the goal, and why a goal was missed, worked out from the same packets.
 */
import { median } from '../../src/stats/median';
import type { TracedConnect } from './packet-trace';
import type { TracedEntry } from './connect-trace';

export const BROWSER_HANDSHAKE_HEADING = "The browser's own handshakes against the link";

export interface BrowserHandshakeResults {
  bench: 'browser-handshake';
  at: string;
  page: string;
  rows: Array<{
    browser: string; rttMs: number; loads: number; connections: number; unended: number; marksAgree: boolean; partial: number;
    tcp: { p50: number; p90: number };
    packets: { whole: number; joined: number; unended: number; unmatched: number; handshakeP50: number; wholeTcpP50: number };
    goal: string; pass: boolean;
  }>;
  trace: Record<string, Array<{ entries: TracedEntry[]; connects: TracedConnect[] }>>;
}

const f = (v: number): string => (Number.isFinite(v) ? v.toFixed(1) : '–');

/** Why a row missed its goal, from its packets. */
export function missReasons(row: BrowserHandshakeResults['rows'][number], entries: readonly TracedEntry[]): string[] {
  const out: string[] = [];
  const p = row.packets;
  if (p.handshakeP50 > row.rttMs + 3) out.push(`the link itself: SYN → SYN-ACK p50 ${f(p.handshakeP50)} ms on the packets (the emulator's user-space forwarder on a busy machine)`);
  if (p.joined > 0) {
    const lead = median(entries.filter((e) => e.verdict === 'joined').map((e) => -(e.synAfterConnectStartMs as number)));
    out.push(`${p.joined} of ${p.whole + p.joined} matched connects were under way before the request took the socket (SYN a median ${f(lead)} ms before connectStart): Chromium clamps such a connect's start to the request's, so it shows only the rest, and nothing in its entries tells those from whole ones (bench/README.md, "The browser's own handshakes")`);
  }
  return out;
}

/** The section: heading and body for `replaceSection`. */
export function browserHandshakeSection(doc: BrowserHandshakeResults, source: string): { heading: string; body: string } {
  const lines = [
    `Written by \`node dist/bench/report.js … --browser-handshake ${source}\` (or \`node dist/bench/browser-handshake.js --from ${source} --results-md bench/RESULTS.md\`) from \`node dist/bench/browser-handshake.js --browsers chromium,firefox --rtts 50,100 --rounds 5 --out ${source}\` (bench/browser-handshake/), run ${doc.at}.`,
    `Real Chromium and Firefox ESR in the client namespace of the packet-level link load ${doc.page}, a fresh profile per load; their Resource Timing goes through the extension's own mapping to handshake records (src/page/model/browser-handshakes.ts).`,
    'tcpdump on the client\'s end of the link times every SYN and SYN-ACK; each connect phase is matched to the connection whose SYN-ACK arrived at its `connectEnd` (the page clock related to the wall clock through `Date.now()`) and judged by when that SYN left:',
    '**whole** (at `connectStart`), **joined** (before it: a connect under way before the request took the socket), **unended** (a phase of no length whose SYN left at its `connectStart`), **?** (no packet within 2 ms).',
    'Records of a TCP phase of no length are marked `connect: "unended"` (src/page/model/browser-handshakes.ts): counted, but their TCP time left out of the p50, the goal and the options page\'s CDF; "packets agree" says the trace judged as many connects unended.',
    'The per-connect trace is in the results file (`trace`).',
    '',
    '| browser | RTT ms | loads | records | marked unended (packets agree) | timed < RTT | TCP p50 | TCP p90 | whole / joined / unended / ? | SYN → SYN-ACK p50 | whole TCP p50 | goal | why |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|',
  ];
  for (const r of doc.rows) {
    const entries = (doc.trace[`${r.browser} ${r.rttMs}`] ?? []).flatMap((l) => l.entries);
    const why = r.pass ? '' : missReasons(r, entries).join('; ');
    lines.push(`| ${r.browser} | ${r.rttMs} | ${r.loads} | ${r.connections} | ${r.unended} (${r.marksAgree ? 'yes' : 'NO'}) | ${r.partial} | ${f(r.tcp.p50)} | ${f(r.tcp.p90)} | ${r.packets.whole} / ${r.packets.joined} / ${r.packets.unended} / ${r.packets.unmatched} | ${f(r.packets.handshakeP50)} | ${f(r.packets.wholeTcpP50)} | ${r.goal}: ${r.pass ? 'PASS' : 'MISS'} | ${why} |`);
  }
  return { heading: BROWSER_HANDSHAKE_HEADING, body: lines.join('\n') };
}
