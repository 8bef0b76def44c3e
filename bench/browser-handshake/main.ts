/**
 * `node dist/bench/browser-handshake.js [--rounds N] [--rtts 50,100] [--out FILE] [--json]` — the
 * browser's own handshake records against the link they crossed: real Chromium in the client
 * namespace of the packet-level link (bench/link) loads a demo page, a fresh profile per round (no
 * socket, DNS or TLS state carries over); its Resource Timing goes through the extension's own
 * mapping (src/page/model/timing-mapping.ts) and `browserHandshakes` (src/page/model/browser-handshakes.ts),
 * the records the extension sends the host. A TCP connect takes one round trip, so the goal is the
 * records' TCP p50 within the configured RTT + 0..3 ms.
 *
 * `--serve` is internal: the demo server started in the server namespace.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getPage } from '../../native-host/demo/corpus';
import { browserHandshakes } from '../../src/page/model/browser-handshakes';
import type { TimingEntry } from '../../src/page/model/page-record';
import { toNavigationTiming, toTimingEntry, type RawNavigationTiming, type RawResourceTiming } from '../../src/page/model/timing-mapping';
import type { BrowserHandshake } from '../../src/protocol/requests';
import { median } from '../../src/stats/median';
import { BenchRunError } from '../cli/bench-run-error';
import { intValue, listValue, type CommandSpec } from '../cli/command-line';
import { benchCommandLine, benchUsage } from '../cli/bench-command-line';
import { runMain } from '../cli/run-main';
import { serveWhenAsked, startDemoServerIn } from '../demo/demo-server-process';
import { nearestRank } from '../engine/stats';
import { startLink } from '../link/link-emulator';
import { ensureLinkPrivileges } from '../link/rootless';
import { launchInNamespace } from '../run/chromium-contender';

const PAGE = 'pm95-2544-30';
const HOST = 'browser-handshake.getlist.test';
const TIMEOUT_MS = 60_000;

const COMMAND: CommandSpec = {
  usage: 'node dist/bench/browser-handshake.js [--rounds N] [--rtts 50,100] [--out FILE] [--json]',
  notes: ["The browser's own handshake records (Chromium's Resource Timing, as the extension maps it) against the link's configured RTT."],
  options: {
    rounds: { type: 'string', value: 'N', help: 'page loads per RTT, each in a fresh browser profile', default: '5' },
    rtts: { type: 'string', value: 'a,b', help: 'link RTTs in ms', default: '50' },
    out: { type: 'string', value: 'FILE', help: 'also write the rows and samples as JSON to FILE' },
    json: { type: 'boolean', help: 'print the rows and samples as JSON' },
    serve: { type: 'boolean', help: 'internal: run the demo server (with --host, --port)', hidden: true },
    host: { type: 'string', value: 'ADDR', help: 'internal: --serve address', hidden: true },
    port: { type: 'string', value: 'N', help: 'internal: --serve port', hidden: true },
    page: { type: 'string', value: 'a,b', help: 'internal: --serve pages', hidden: true },
  },
};

export interface BrowserHandshakeRow {
  rttMs: number;
  loads: number;
  connections: number;
  /**
   * Records whose TCP phase is shorter than the RTT: no whole connect can be. Chromium shows a
   * socket's connect from when a request was bound to it, so a request handed a connect already
   * under way (its own preconnect, or one begun for another request) shows only the rest.
   */
  partial: number;
  tcp: { p50: number; p90: number; min: number; max: number };
  goal: string;
  pass: boolean;
}

/** The goal: a TCP connect is one round trip, so p50 lies in [RTT, RTT + 3 ms]. */
export function browserHandshakeRow(rttMs: number, loads: number, records: readonly BrowserHandshake[]): BrowserHandshakeRow {
  const tcpMs = records.map((r) => r.tcpMs);
  const p50 = median(tcpMs);
  return {
    rttMs, loads, connections: records.length, partial: tcpMs.filter((ms) => ms < rttMs).length,
    tcp: { p50, p90: nearestRank(tcpMs, 0.9), min: Math.min(...tcpMs), max: Math.max(...tcpMs) },
    goal: `browser TCP p50 in [${rttMs}, ${rttMs + 3}] ms`,
    pass: p50 >= rttMs && p50 <= rttMs + 3,
  };
}

/** One load in a fresh Chromium: the page's handshake records, as the extension would send them. */
async function loadOnce(clientNs: string, address: string, url: string): Promise<BrowserHandshake[]> {
  const dir = mkdtempSync(join(tmpdir(), 'getlist-browser-hs-'));
  const browser = await launchInNamespace({ clientNs, hostResolverRules: `MAP ${HOST} ${address}`, spkiHashes: [], timeoutMs: TIMEOUT_MS }, dir);
  try {
    const page = await browser.newPage();
    await page.goto(url, { waitUntil: 'load', timeout: TIMEOUT_MS });
    // A string, not a function: the page's DOM types are not in this tsconfig.
    const raw = (await page.evaluate(`({
      timeOrigin: performance.timeOrigin,
      nav: performance.getEntriesByType('navigation')[0].toJSON(),
      resources: performance.getEntriesByType('resource').map((e) => e.toJSON()),
    })`)) as { timeOrigin: number; nav: RawNavigationTiming; resources: RawResourceTiming[] };
    const origin = new URL(url).origin;
    const timings: TimingEntry[] = raw.resources.map((r) => toTimingEntry(r, origin));
    return browserHandshakes({ url, timings, navigation: { ...toNavigationTiming(raw.nav), timeOrigin: Math.round(raw.timeOrigin) } });
  } finally {
    await browser.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

function formatRows(rows: readonly BrowserHandshakeRow[]): string {
  const f = (v: number) => (Number.isFinite(v) ? v.toFixed(2) : '—');
  const lines = rows.map((r) => `${String(r.rttMs).padStart(6)}  ${String(r.loads).padStart(5)}  ${String(r.connections).padStart(11)}  ${String(r.partial).padStart(7)}  ${f(r.tcp.p50).padStart(7)}  ${f(r.tcp.p90).padStart(7)}  ${f(r.tcp.min).padStart(7)}  ${f(r.tcp.max).padStart(7)}  ${r.goal}  ${r.pass ? 'PASS' : 'MISS'}`);
  return ['RTT ms  loads  connections  < RTT  TCP p50  TCP p90  TCP min  TCP max  goal', ...lines].join('\n');
}

async function main(argv: readonly string[]): Promise<number> {
  const args = benchCommandLine(argv, COMMAND);
  if (!args) return 0;
  const v = args.values;
  const served = serveWhenAsked(v, PAGE, benchUsage);
  if (served) return served;
  const rounds = intValue(v.rounds, 'rounds', 5, 1, 1000, benchUsage);
  const rtts = (listValue(v.rtts) ?? ['50']).map((t) => intValue(t, 'rtts', 50, 1, 2000, benchUsage));
  const page = getPage(PAGE);
  await ensureLinkPrivileges();
  const rows: BrowserHandshakeRow[] = [];
  const samples: Record<string, BrowserHandshake[]> = {};
  for (const rttMs of rtts) {
    const link = await startLink({ rttMs, hosts: 1, seed: 1 });
    try {
      const address = link.serverAddrs[0] as string;
      await startDemoServerIn(link, { entry: __filename, host: address, port: 80, pages: [PAGE] });
      const records: BrowserHandshake[] = [];
      for (let round = 1; round <= rounds; round++) {
        const got = await loadOnce(link.clientNs, address, `http://${HOST}${page.path}`);
        if (got.length === 0) throw new BenchRunError('E_RUN_FAILED', `round ${round} at ${rttMs} ms: the page's timeline showed no connection opening`);
        records.push(...got);
        process.stderr.write(`[browser-handshake] ${rttMs} ms round ${round}/${rounds}: TCP ${got.map((h) => h.tcpMs.toFixed(2)).join(' ')}\n`);
      }
      samples[String(rttMs)] = records;
      rows.push(browserHandshakeRow(rttMs, rounds, records));
    } finally {
      await link.close().catch(() => undefined);
    }
  }
  const doc = { bench: 'browser-handshake', browser: 'chromium', page: PAGE, at: new Date().toISOString(), rows, samples };
  if (typeof v.out === 'string') writeFileSync(v.out, `${JSON.stringify(doc, null, 1)}\n`);
  process.stdout.write(v.json === true ? `${JSON.stringify(doc)}\n` : `${formatRows(rows)}\n`);
  return rows.every((r) => r.pass) ? 0 : 1;
}

runMain('browser-handshake', () => main(process.argv.slice(2)));
