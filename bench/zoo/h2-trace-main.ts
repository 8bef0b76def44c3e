/**
 * `node dist/bench/zoo-h2-trace.js [--servers a,b,…] [--pages a,b,…] [--loads N] [--first-visit] [--dir DIR] [--cli PATH]` — what
 * holds an HTTP/2 stream on a zoo member: getlist's revisit of a real-shaped page at 100 ms
 * (`getlist load --revisit`, as zoo.js runs it; a first visit with `--first-visit`), N times per
 * member and page, each with tcpdump on the client side of the link and the CLI's TLS key log
 * (`node --tls-keylog`), so every frame both sides sent can be read back. Keeps each load's pcap
 * and keys in DIR; with tshark, decodes each load's frames and names every stream the server held
 * (h2-frames.ts) and what the client had sent before it resumed. Reads each TLS handshake's packets
 * too (handshake-wire.ts): what it waited for beyond the round trips. Prints each load's time,
 * failed requests, holds and handshake waits.
 * Needs root or user namespaces, tcpdump and the members' Debian packages.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type CommandSpec } from '../cli/command-line';
import { benchCommandLine, benchUsage } from '../cli/bench-command-line';
import { runMain } from '../cli/run-main';
import { getBenchPage } from '../corpus/bench-corpus';
import { REAL_PAGE_NAMES } from '../corpus/page-real';
import { ensureLinkPrivileges } from '../link/rootless';
import type { ZooMember } from '../origins/zoo/zoo-members';
import { failedRequests, firstLoadRun, runGetlistLoad } from '../run/getlist-contender';
import { childOutput } from '../run/child-output';
import { heldStreams, parseTsharkFrames, TSHARK_H2_FIELDS, type HeldStream } from './h2-frames';
import { handshakeWaits, handshakeWire, type WireHandshake } from './handshake-wire';
import { median } from '../../src/stats/median';
import { nearestRank, round } from '../engine/stats';
import { readCapture, startCapture } from './link-capture';
import { parseTcpdump } from './tail-packets';
import { startZooLink, tlsMembers } from './zoo-link';

const COMMAND: CommandSpec = {
  usage: 'node dist/bench/zoo-h2-trace.js [options]',
  options: {
    servers: { type: 'string', value: 'a,b,…', default: 'lighttpd', help: 'zoo members that terminate TLS, in the order run' },
    pages: { type: 'string', value: 'a,b,…', default: 'real-news', help: 'real-shaped pages' },
    loads: { type: 'string', value: 'N', default: '10', help: 'revisit loads per member and page' },
    'first-visit': { type: 'boolean', help: 'load each page as a first visit (no --revisit)' },
    dir: { type: 'string', value: 'DIR', default: 'bench/results/tmp/zoo-h2-trace', help: 'where each load\'s pcap, TLS keys and JSON go' },
    cli: { type: 'string', value: 'PATH', help: 'the getlist CLI to trace (default: this checkout\'s bin/getlist.js), e.g. another build\'s' },
  },
};

interface TracedLoad { member: string; page: string; load: number; totalMs: number | null; failed: string[]; pcap: string; keys: string; held?: HeldStream[]; handshakes?: WireHandshake[] }

/** The link's round trip. */
const RTT_MS = 100;

/** A gap this long in a stream's frames is a hold: two round trips of the 100 ms link. */
const MIN_HOLD_MS = 200;

/** The held streams of one load, decoded by tshark with the load's key log; undefined without tshark. */
async function decodeHolds(t: TracedLoad): Promise<HeldStream[] | undefined> {
  const child = spawn('tshark', ['-r', t.pcap, '-o', `tls.keylog_file:${t.keys}`, '-T', 'fields', ...TSHARK_H2_FIELDS.flatMap((f) => ['-e', f])], { stdio: ['ignore', 'pipe', 'pipe'] });
  const out = await childOutput(child, 60_000, 'tshark').catch(() => undefined);
  return out === undefined || out.code !== 0 ? undefined : heldStreams(parseTsharkFrames(out.stdout), MIN_HOLD_MS);
}

function holdLine(h: HeldStream, names: ReadonlyMap<string, string>): string {
  const how = h.resumed ? `resumed ${h.lastClientFrame ? `${Math.round(h.lastClientFrame.beforeResumeMs)} ms after the client's ${h.lastClientFrame.type}` : 'with no client frame before it'}` : 'never resumed';
  return `${names.get(h.server) ?? h.server} stream ${h.stream} held after ${h.bytesBefore} B for ${Math.round(h.holdMs)} ms, ${how}`;
}

/** Each TLS handshake of one load, from its capture; undefined if tcpdump cannot read it. */
async function readHandshakes(pcap: string): Promise<WireHandshake[] | undefined> {
  const text = await readCapture(pcap).catch(() => undefined);
  return text === undefined ? undefined : handshakeWire(parseTcpdump(text));
}

const WAITS = ['clientHelloAfterConnect', 'serverBeyondRtt', 'finishedAfterFlight', 'requestAfterFinished'] as const;

/** Median and most of each wait over handshakes (handshake-wire.ts); with `p90`, the 90th percentile for most. */
function waitsLine(hs: readonly WireHandshake[], p90 = false): string {
  const waits = hs.map((h) => handshakeWaits(h, RTT_MS));
  return `${hs.length} TLS handshakes, ms median/${p90 ? 'p90' : 'most'}: ${WAITS.map((k) => {
    const xs = waits.flatMap((w) => (w[k] === undefined ? [] : [w[k] as number]));
    return `${k} ${xs.length === 0 ? '–' : `${round(median(xs), 1)}/${round(p90 ? nearestRank(xs, 0.9) : Math.max(...xs), 1)}`}`;
  }).join(', ')}`;
}

async function traceMember(member: ZooMember, page: string, loads: number, firstVisit: boolean, cliPath: string, dir: string, progress: (l: string) => void): Promise<TracedLoad[]> {
  const { link, zoo, hostMap, stop } = await startZooLink({ member, pages: [page], rttMs: RTT_MS });
  const byAddress = new Map(Object.entries(hostMap).map(([n, a]) => [a, n]));
  progress(`${member} ${page}: ${Object.entries(hostMap).map(([n, a]) => `${n} ${a}`).join(', ')}`);
  const out: TracedLoad[] = [];
  try {
    const url = zoo.pageUrl(page, getBenchPage(page).documentScheme ?? 'http');
    for (let i = 0; i < loads; i++) {
      const base = join(dir, `${member}-${page}-${i}`);
      const t: TracedLoad = { member, page, load: i, totalMs: null, failed: [], pcap: `${base}.pcap`, keys: `${base}.keys` };
      const cap = startCapture(link.execInClient, t.pcap);
      await cap.started;
      try {
        const stdout = await runGetlistLoad(link, cliPath, [url, '--strategy', 'getlist', ...(firstVisit ? [] : ['--revisit']), '--ca', zoo.caPath], 20_000, `getlist ${member}`, { ...process.env, NODE_OPTIONS: `--tls-keylog=${t.keys}` });
        writeFileSync(`${base}.json`, stdout);
        const run = firstLoadRun(stdout);
        t.totalMs = typeof run.totalMs === 'number' ? run.totalMs : null;
        t.failed = failedRequests(run);
      } catch (err) {
        t.failed = [String((err as Error).message).slice(0, 300)];
      } finally {
        await cap.stop();
      }
      t.held = await decodeHolds(t);
      t.handshakes = await readHandshakes(t.pcap);
      out.push(t);
      const holds = t.held === undefined ? 'not decoded (no tshark)' : t.held.map((h) => holdLine(h, byAddress)).join('; ') || 'none';
      const waits = t.handshakes === undefined ? 'handshakes not read' : waitsLine(t.handshakes);
      progress(`${member} ${page} load ${i + 1}: ${t.totalMs === null ? '?' : Math.round(t.totalMs)} ms; failed: ${t.failed.join('; ') || 'none'}; held: ${holds}; ${waits}`);
    }
  } finally {
    await stop();
  }
  return out;
}

async function main(argv: readonly string[]): Promise<number> {
  const cl = benchCommandLine(argv, COMMAND);
  if (!cl) return 0;
  const list = (k: string, d: string) => String(cl.values[k] ?? d).split(',').map((s) => s.trim()).filter(Boolean);
  const servers = tlsMembers(String(cl.values.servers ?? 'lighttpd'));
  const pages = list('pages', 'real-news');
  const badPages = pages.filter((p) => !(REAL_PAGE_NAMES as readonly string[]).includes(p));
  if (badPages.length > 0 || pages.length === 0) throw benchUsage(`--pages: unknown ${badPages.join(', ') || '(none given)'}; expected some of ${REAL_PAGE_NAMES.join(', ')}`);
  const loads = Number(cl.values.loads ?? 10);
  if (!Number.isInteger(loads) || loads < 1) throw benchUsage(`--loads must be an integer ≥ 1, got ${String(cl.values.loads)}`);
  const dir = resolve(String(cl.values.dir ?? 'bench/results/tmp/zoo-h2-trace'));
  mkdirSync(dir, { recursive: true });
  await ensureLinkPrivileges();
  const cliPath = cl.values.cli === undefined ? join(resolve(__dirname, '..', '..'), 'bin', 'getlist.js') : resolve(String(cl.values.cli));
  if (!existsSync(cliPath)) throw benchUsage(`--cli: no such file: ${cliPath}`);
  const all: TracedLoad[] = [];
  for (const member of servers) {
    for (const page of pages) all.push(...(await traceMember(member, page, loads, cl.values['first-visit'] === true, cliPath, dir, (l) => process.stderr.write(`${l}\n`))));
  }
  writeFileSync(join(dir, 'loads.json'), `${JSON.stringify({ date: new Date().toISOString(), argv, loads: all }, null, 1)}\n`);
  const failed = all.filter((t) => t.failed.length > 0);
  process.stdout.write(`${all.length} load(s), ${failed.length} with a failed request; files in ${dir}\n`);
  const held = all.filter((t) => (t.held ?? []).length > 0);
  process.stdout.write(`${held.length} with a held stream, ${held.filter((t) => t.held?.some((h) => h.resumed && h.lastClientFrame?.type === 'PING')).length} of them resumed after a PING\n`);
  for (const member of servers) {
    for (const page of pages) {
      const loadsOf = all.filter((t) => t.member === member && t.page === page);
      const times = loadsOf.flatMap((t) => (t.totalMs === null ? [] : [t.totalMs]));
      const hs = loadsOf.flatMap((t) => t.handshakes ?? []);
      process.stdout.write(`${member} ${page}: median ${times.length === 0 ? '?' : Math.round(median(times))} ms over ${times.length} loads; ${waitsLine(hs, true)}\n`);
    }
  }
  return 0;
}

runMain('zoo-h2-trace', () => main(process.argv.slice(2)));
