/**
 * `node dist/bench/browser-handshake.js [--browsers chromium,firefox] [--rounds N] [--rtts 50,100]
 * [--out FILE] [--json]` — the browser's own handshake records against the link they crossed: real
 * Chromium and Firefox ESR in the client namespace of the packet-level link (bench/link) load a demo
 * page, a fresh profile per round (no socket, DNS or TLS state carries over); their Resource Timing
 * goes through the extension's own mapping (src/page/model/timing-mapping.ts) and
 * `browserHandshakes` (src/page/model/browser-handshakes.ts), the records the extension sends the
 * host. A TCP connect takes one round trip, so the goal is the records' TCP p50 within the
 * configured RTT + 0..3 ms.
 *
 * The independent observer: tcpdump on the client's end of the link (packet-trace.ts) times every
 * SYN and SYN-ACK, and connect-trace.ts lines each entry's connect phase up with them, on the wall
 * clock (the page's `timeOrigin` related to `Date.now()`, page-timing.ts): whether the browser timed
 * the whole handshake or joined one already under way.
 *
 * `--serve` and `--firefox-load` are internal: the demo server started in the server namespace, and
 * one Firefox load run in the client namespace (firefox-load.ts).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getPage } from '../../native-host/demo/corpus';
import { browserHandshakes } from '../../src/page/model/browser-handshakes';
import type { TimingEntry } from '../../src/page/model/page-record';
import { toNavigationTiming, toTimingEntry } from '../../src/page/model/timing-mapping';
import type { BrowserHandshake } from '../../src/protocol/requests';
import { median } from '../../src/stats/median';
import { BenchRunError } from '../cli/bench-run-error';
import { intValue, listValue, type CommandSpec } from '../cli/command-line';
import { benchCommandLine, benchUsage } from '../cli/bench-command-line';
import { replaceSection } from '../cli/markdown-section';
import { runMain } from '../cli/run-main';
import { serveWhenAsked, startDemoServerIn } from '../demo/demo-server-process';
import { nearestRank } from '../engine/stats';
import { startLink } from '../link/link-emulator';
import { ensureLinkPrivileges } from '../link/rootless';
import { launchInNamespace } from '../run/chromium-contender';
import { traceEntries, type TracedEntry } from './connect-trace';
import { firefoxLoad, firefoxLoadHere } from './firefox-load';
import { PAGE_TIMING, type PageTiming } from './page-timing';
import { startPacketTrace, type TracedConnect } from './packet-trace';
import { BROWSER_HANDSHAKE_HEADING, browserHandshakeSection, type BrowserHandshakeResults } from './results-section';

const PAGE = 'pm95-2544-30';
const HOST = 'browser-handshake.getlist.test';
const TIMEOUT_MS = 60_000;
type BrowserName = 'chromium' | 'firefox';

const COMMAND: CommandSpec = {
  usage: 'node dist/bench/browser-handshake.js [--browsers chromium,firefox] [--rounds N] [--rtts 50,100] [--out FILE] [--json] [--results-md FILE] | --from FILE --results-md FILE',
  notes: ["The browsers' own handshake records (Resource Timing, as the extension maps it) against the link's configured RTT and the packets on it."],
  options: {
    browsers: { type: 'string', value: 'a,b', help: 'chromium and/or firefox', default: 'chromium,firefox' },
    rounds: { type: 'string', value: 'N', help: 'page loads per RTT and browser, each in a fresh browser profile', default: '5' },
    rtts: { type: 'string', value: 'a,b', help: 'link RTTs in ms', default: '50' },
    out: { type: 'string', value: 'FILE', help: 'also write the rows and samples as JSON to FILE' },
    json: { type: 'boolean', help: 'print the rows and samples as JSON' },
    'results-md': { type: 'string', value: 'FILE', help: `replace the "${BROWSER_HANDSHAKE_HEADING}" section of FILE (bench/RESULTS.md)` },
    from: { type: 'string', value: 'FILE', help: 'no run: write the --results-md section from an earlier --out FILE' },
    serve: { type: 'boolean', help: 'internal: run the demo server (with --host, --port)', hidden: true },
    host: { type: 'string', value: 'ADDR', help: 'internal: --serve address', hidden: true },
    port: { type: 'string', value: 'N', help: 'internal: --serve port', hidden: true },
    page: { type: 'string', value: 'a,b', help: 'internal: --serve pages', hidden: true },
    'firefox-load': { type: 'boolean', help: 'internal: one Firefox load of --url, run in the client namespace', hidden: true },
    url: { type: 'string', value: 'URL', help: 'internal: --firefox-load page', hidden: true },
  },
};

/** What the packets say of the records' connects (connect-trace.ts). */
export interface PacketCheck {
  whole: number;
  joined: number;
  unended: number;
  unmatched: number;
  /** SYN → SYN-ACK on the link, p50 over the matched connects: the handshake's real length. */
  handshakeP50: number;
  /** The browser's TCP phase, p50 over the connects the packets show it timed whole. */
  wholeTcpP50: number;
}

export interface BrowserHandshakeRow {
  browser: BrowserName;
  rttMs: number;
  loads: number;
  connections: number;
  /** Records marked `connect: 'unended'` (a TCP phase of no length): counted, left out of the TCP figures and the goal. */
  unended: number;
  /** The marks agree with the packets: as many records marked unended as connects the trace judged so. */
  marksAgree: boolean;
  /**
   * Timed records whose TCP phase is shorter than the RTT: no whole connect can be. Chromium shows a
   * socket's connect from when a request was bound to it, so a request handed a connect already
   * under way (its own preconnect, or one begun for another request) shows only the rest.
   */
  partial: number;
  tcp: { p50: number; p90: number; min: number; max: number };
  packets: PacketCheck;
  goal: string;
  pass: boolean;
}

/** The goal: a TCP connect is one round trip, so the timed records' p50 lies in [RTT, RTT + 3 ms]. */
export function browserHandshakeRow(browser: BrowserName, rttMs: number, loads: number, records: readonly BrowserHandshake[], traced: readonly TracedEntry[]): BrowserHandshakeRow {
  const tcpMs = records.filter((r) => r.connect !== 'unended').map((r) => r.tcpMs);
  const p50 = median(tcpMs);
  const matched = traced.filter((t) => t.handshakeMs !== undefined);
  const unended = records.length - tcpMs.length;
  return {
    browser, rttMs, loads, connections: records.length, unended, marksAgree: unended === traced.filter((t) => t.verdict === 'unended').length,
    partial: tcpMs.filter((ms) => ms < rttMs).length,
    tcp: { p50, p90: nearestRank(tcpMs, 0.9), min: Math.min(...tcpMs), max: Math.max(...tcpMs) },
    packets: {
      whole: traced.filter((t) => t.verdict === 'whole').length,
      joined: traced.filter((t) => t.verdict === 'joined').length,
      unended: traced.filter((t) => t.verdict === 'unended').length,
      unmatched: traced.filter((t) => t.verdict === 'unmatched').length,
      handshakeP50: median(matched.map((t) => t.handshakeMs as number)),
      wholeTcpP50: median(traced.filter((t) => t.verdict === 'whole').map((t) => t.tcpMs)),
    },
    goal: `${browser} TCP p50 in [${rttMs}, ${rttMs + 3}] ms`,
    pass: p50 >= rttMs && p50 <= rttMs + 3,
  };
}

/** One load in a fresh Chromium: the page's timing. */
async function chromiumLoad(clientNs: string, address: string, url: string): Promise<PageTiming> {
  const dir = mkdtempSync(join(tmpdir(), 'getlist-browser-hs-'));
  const browser = await launchInNamespace({ clientNs, hostResolverRules: `MAP ${HOST} ${address}`, spkiHashes: [], timeoutMs: TIMEOUT_MS }, dir);
  try {
    const page = await browser.newPage();
    await page.goto(url, { waitUntil: 'load', timeout: TIMEOUT_MS });
    return (await page.evaluate(PAGE_TIMING)) as PageTiming;
  } finally {
    await browser.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The page's handshake records, as the extension would send them. */
function recordsOf(url: string, t: PageTiming): BrowserHandshake[] {
  const origin = new URL(url).origin;
  const timings: TimingEntry[] = t.resources.map((r) => toTimingEntry(r, origin));
  return browserHandshakes({ url, timings, navigation: { ...toNavigationTiming(t.nav), timeOrigin: Math.round(t.timeOrigin) } });
}

function formatRows(rows: readonly BrowserHandshakeRow[]): string {
  const f = (v: number) => (Number.isFinite(v) ? v.toFixed(2) : '—');
  const lines = rows.map((r) => [r.browser.padEnd(8), String(r.rttMs).padStart(6), String(r.loads).padStart(5), String(r.connections).padStart(11), `${r.unended}${r.marksAgree ? '' : '!'}`.padStart(8), String(r.partial).padStart(7),
    f(r.tcp.p50).padStart(7), f(r.tcp.p90).padStart(7), f(r.tcp.min).padStart(7), f(r.tcp.max).padStart(7),
    `${r.packets.whole}/${r.packets.joined}/${r.packets.unended}/${r.packets.unmatched}`.padStart(22), f(r.packets.handshakeP50).padStart(9), f(r.packets.wholeTcpP50).padStart(9),
    `${r.goal}  ${r.pass ? 'PASS' : 'MISS'}`].join('  '));
  return ['browser   RTT ms  loads  connections  unended    < RTT  TCP p50  TCP p90  TCP min  TCP max  whole/joined/unended/?  SYN→SYN-ACK p50  whole TCP p50  goal', ...lines].join('\n');
}

function writeSection(md: string, doc: BrowserHandshakeResults, source: string): void {
  if (doc.bench !== 'browser-handshake' || !Array.isArray(doc.rows) || typeof doc.trace !== 'object') throw benchUsage(`${source} is not browser-handshake.js's --out file`);
  const section = browserHandshakeSection(doc, source);
  writeFileSync(md, replaceSection(readFileSync(md, 'utf8'), section.heading, section.body, 'Figures'));
}

function browsersOf(value: string | boolean | undefined): BrowserName[] {
  return (listValue(value) ?? ['chromium', 'firefox']).map((b) => {
    if (b === 'chromium' || b === 'firefox') return b;
    throw benchUsage(`--browsers: expected chromium or firefox, got ${JSON.stringify(b)}`);
  });
}

async function main(argv: readonly string[]): Promise<number> {
  const args = benchCommandLine(argv, COMMAND);
  if (!args) return 0;
  const v = args.values;
  const served = serveWhenAsked(v, PAGE, benchUsage);
  if (served) return served;
  if (v['firefox-load'] === true) return firefoxLoadHere(String(v.url), TIMEOUT_MS);
  if (typeof v.from === 'string') {
    if (typeof v['results-md'] !== 'string') throw benchUsage('--from needs --results-md FILE');
    writeSection(v['results-md'], JSON.parse(readFileSync(v.from, 'utf8')) as BrowserHandshakeResults, v.from);
    return 0;
  }
  const browsers = browsersOf(v.browsers);
  const rounds = intValue(v.rounds, 'rounds', 5, 1, 1000, benchUsage);
  const rtts = (listValue(v.rtts) ?? ['50']).map((t) => intValue(t, 'rtts', 50, 1, 2000, benchUsage));
  const page = getPage(PAGE);
  const url = `http://${HOST}${page.path}`;
  await ensureLinkPrivileges();
  const rows: BrowserHandshakeRow[] = [];
  const samples: Record<string, BrowserHandshake[]> = {};
  const trace: Record<string, Array<{ entries: TracedEntry[]; connects: TracedConnect[] }>> = {};
  for (const rttMs of rtts) {
    const link = await startLink({ rttMs, hosts: 1, seed: 1 });
    try {
      const address = link.serverAddrs[0] as string;
      link.setClientHosts({ [HOST]: address });
      await startDemoServerIn(link, { entry: __filename, host: address, port: 80, pages: [PAGE] });
      for (const browser of browsers) {
        const records: BrowserHandshake[] = [];
        const loads: Array<{ entries: TracedEntry[]; connects: TracedConnect[] }> = [];
        for (let round = 1; round <= rounds; round++) {
          const packets = await startPacketTrace(link);
          let timing: PageTiming;
          let connects: TracedConnect[];
          try {
            timing = browser === 'chromium' ? await chromiumLoad(link.clientNs, address, url) : await firefoxLoad(link.clientNs, __filename, url, TIMEOUT_MS);
          } finally {
            connects = await packets.stop();
          }
          const got = recordsOf(url, timing);
          if (got.length === 0) throw new BenchRunError('E_RUN_FAILED', `${browser} round ${round} at ${rttMs} ms: the page's timeline showed no connection opening`);
          records.push(...got);
          const traced = traceEntries(url, timing, connects);
          loads.push({ entries: traced, connects });
          process.stderr.write(`[browser-handshake] ${browser} ${rttMs} ms round ${round}/${rounds}: TCP ${got.map((h) => h.tcpMs.toFixed(1)).join(' ')}; packets ${traced.map((t) => `${t.verdict[0]}${t.handshakeMs?.toFixed(1) ?? ''}`).join(' ')}\n`);
        }
        samples[`${browser} ${rttMs}`] = records;
        trace[`${browser} ${rttMs}`] = loads;
        rows.push(browserHandshakeRow(browser, rttMs, rounds, records, loads.flatMap((l) => l.entries)));
      }
    } finally {
      await link.close().catch(() => undefined);
    }
  }
  const doc = { bench: 'browser-handshake' as const, browsers, page: PAGE, at: new Date().toISOString(), rows, samples, trace };
  if (typeof v.out === 'string') writeFileSync(v.out, `${JSON.stringify(doc, null, 1)}\n`);
  if (typeof v['results-md'] === 'string') writeSection(v['results-md'], doc as BrowserHandshakeResults, typeof v.out === 'string' ? v.out : '(not kept: no --out)');
  process.stdout.write(v.json === true ? `${JSON.stringify(doc)}\n` : `${formatRows(rows)}\n`);
  return rows.every((r) => r.pass) ? 0 : 1;
}

runMain('browser-handshake', () => main(process.argv.slice(2)));
