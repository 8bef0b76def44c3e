/**
 * `node dist/bench/zoo-tail-trace.js [--servers a,b,…] [--loads N] [--ss-every MS] [--plain-nodelay] [--nginx-nopush-off] [--out FILE]` — what holds the
 * tail of a pipelined burst on a zoo member: getlist's first visit of the P&M page at 50 ms
 * (zoo-plan.ts), N times per member on fresh connections, with three observers beside the load's
 * own trace: tcpdump on the link's device in both namespaces (every packet as each side's kernel
 * sent or received it), `ss -tin` on both sides every few ms (send queue, delayed-ACK timeout,
 * unacknowledged segments) and the member's access log. tail-packets.ts finds every server segment
 * held back and the client packet that released it; client-phases.ts the client's own waits in
 * each load (start to SYN, connection up to the document's request, document to the first
 * subresource request, last byte to the end). `--plain-nodelay` is the control: the bare
 * origin with Nagle's algorithm off; `--nginx-nopush-off` the other: nginx with
 * `tcp_nopush off`, which lets it turn Nagle off on a connection once it went idle (bench/README.md,
 * "Why nginx holds a burst's tail"). Writes JSON to FILE and a summary to stdout.
 * Needs root or user namespaces, tcpdump and the members' Debian packages.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type CommandSpec } from '../cli/command-line';
import { benchCommandLine, benchUsage } from '../cli/bench-command-line';
import { runMain } from '../cli/run-main';
import type { Link } from '../link/link-emulator';
import { ensureLinkPrivileges } from '../link/rootless';
import type { SpawnFn } from '../origins/nginx-process';
import { isZooMember, type ZooMember } from '../origins/zoo/zoo-members';
import { median } from '../real/real-bench';
import { childOutput } from '../run/child-output';
import { firstLoadRun, runGetlistLoad } from '../run/getlist-contender';
import { getlistTrace } from '../run/load-trace';
import { burstTail } from './burst-tail';
import { clientPhases, type ClientPhases } from './client-phases';
import { readCapture, startCapture } from './link-capture';
import { heldSegments, parseTcpdump, type HeldSegment } from './tail-packets';
import { ZOO_PM_PAGE } from './zoo-plan';
import { startZooLink } from './zoo-link';

const COMMAND: CommandSpec = {
  usage: 'node dist/bench/zoo-tail-trace.js [options]',
  options: {
    servers: { type: 'string', value: 'a,b,…', default: 'nginx,plain,apache', help: 'zoo members, in the order run' },
    loads: { type: 'string', value: 'N', default: '5', help: 'first-visit loads per member' },
    'ss-every': { type: 'string', value: 'MS', default: '5', help: 'ms between ss -tin samples' },
    'plain-nodelay': { type: 'boolean', help: 'the control: run the bare origin (`plain`) with Nagle\'s algorithm off (TCP_NODELAY on every accepted socket)' },
    'nginx-nopush-off': { type: 'boolean', help: 'the control: run nginx with `tcp_nopush off` (Debian ships it on)' },
    out: { type: 'string', value: 'FILE', default: 'bench/results/tmp/zoo-tail-trace.json', help: 'every packet summary, held segment and ss sample, as JSON' },
  },
};

interface SsLine { tMs: number; side: 'client' | 'server'; line: string }

async function sampleSs(link: Link, t0: number, every: number, into: SsLine[], running: () => boolean): Promise<void> {
  while (running()) {
    await Promise.all((['client', 'server'] as const).map(async (side) => {
      const exec = side === 'client' ? link.execInClient : link.execInServer;
      const out = await childOutput(exec('ss', ['-tinH', 'state', 'established'], { stdio: ['ignore', 'pipe', 'pipe'] }), 5_000, 'ss');
      const tMs = Date.now() - t0;
      const lines = out.stdout.split('\n');
      for (let i = 0; i + 1 < lines.length; i += 2) into.push({ tMs, side, line: `${lines[i]?.trim()} | ${lines[i + 1]?.trim()}` });
    }));
    await new Promise((r) => setTimeout(r, every));
  }
}

function nodelaySpawn(spawnIn: SpawnFn, work: string): SpawnFn {
  const preload = join(work, 'nodelay-preload.js');
  writeFileSync(preload, NODELAY_PRELOAD);
  return (command, args, options) => spawnIn(command, args, { ...options, env: { ...(options.env ?? process.env), NODE_OPTIONS: `--require ${preload}` } });
}

interface MemberTrace {
  member: string;
  loads: Array<{ totalMs: number | null; burstTail: ReturnType<typeof burstTail>; held: HeldSegment[]; clientPhases: ClientPhases; ss: SsLine[]; packets: { server: number; client: number } }>;
  accessLog: unknown[];
}

/**
 * A preload for the bare origin's Node process that turns Nagle's algorithm off on every socket its
 * servers accept: the member otherwise unchanged, so what moves is what Nagle held.
 */
const NODELAY_PRELOAD = `const net = require('node:net');
const create = net.createServer;
net.createServer = function (...args) { return create.apply(this, args).on('connection', (s) => s.setNoDelay(true)); };
`;

/** The controls a member runs under: Nagle off on the bare origin's sockets, nginx without `tcp_nopush`. */
interface Controls { nodelay: boolean; nopushOff: boolean }

async function traceMember(member: ZooMember, loads: number, ssEvery: number, cliPath: string, work: string, controls: Controls, progress: (l: string) => void): Promise<MemberTrace> {
  const { nodelay, nopushOff } = controls;
  const { link, zoo, stop } = await startZooLink({
    member, pages: [ZOO_PM_PAGE], rttMs: 50,
    ...(nodelay ? { wrapSpawn: (spawn: SpawnFn) => nodelaySpawn(spawn, work) } : {}),
    ...(nopushOff ? { nginxTcpNopush: false } : {}),
  });
  const result: MemberTrace = { member: nodelay ? `${member} (TCP_NODELAY)` : nopushOff ? `${member} (tcp_nopush off)` : member, loads: [], accessLog: [] };
  try {
    const url = zoo.pageUrl(ZOO_PM_PAGE, 'http');
    for (let i = 0; i < loads; i++) {
      const files = { client: join(work, `${member}-${i}-client.pcap`), server: join(work, `${member}-${i}-server.pcap`) };
      const caps = { client: startCapture(link.execInClient, files.client), server: startCapture(link.execInServer, files.server) };
      await Promise.all([caps.client.started, caps.server.started]);
      const ss: SsLine[] = [];
      let running = true;
      const t0 = Date.now();
      const sampler = sampleSs(link, t0, ssEvery, ss, () => running);
      let stdout = '';
      try {
        stdout = await runGetlistLoad(link, cliPath, [url, '--strategy', 'getlist', '--ca', zoo.caPath], 60_000, `getlist ${member}`);
      } finally {
        running = false;
        await sampler;
        await Promise.all([caps.client.stop(), caps.server.stop()]);
      }
      const run = firstLoadRun(stdout);
      const [server, client] = await Promise.all([readCapture(files.server), readCapture(files.client)]).then((t) => t.map(parseTcpdump));
      const held = heldSegments(server ?? [], client ?? [], '198.19.');
      const totalMs = typeof run.totalMs === 'number' ? run.totalMs : null;
      const span = totalMs !== null && typeof run.startedAt === 'number' ? { startedAt: run.startedAt, totalMs } : undefined;
      const phases = clientPhases(client ?? [], new URL(url).pathname, '198.19.', span);
      result.loads.push({ totalMs, burstTail: burstTail([getlistTrace(run)]), held, clientPhases: phases, ss, packets: { server: server?.length ?? 0, client: client?.length ?? 0 } });
      progress(`${member} load ${i + 1}: ${totalMs ?? '?'} ms, ${held.length} held segment(s): ${held.map((h) => `${h.holdMs.toFixed(1)} ms (len ${h.len}, client ACK delay ${h.clientAckDelayMs?.toFixed(1) ?? '?'} ms)`).join('; ')}`);
    }
    await zoo.settleLog?.();
    result.accessLog = zoo.accessLog();
  } finally {
    await stop();
  }
  return result;
}

function summary(t: MemberTrace): string {
  const held = t.loads.flatMap((l) => l.held);
  const released = held.filter((h) => h.releasedBy !== null);
  const f = (v: number | null) => (v === null ? '—' : v.toFixed(1));
  return `${t.member}: loads ${t.loads.map((l) => l.totalMs ?? '?').join(', ')} ms; ${held.length} held segment(s) over ${t.loads.length} load(s), median hold ${f(median(held.map((h) => h.holdMs)))} ms; `
    + `${released.length} released by a client packet (${released.filter((h) => h.releasedBy?.len === 0).length} a pure ACK), median client ACK delay ${f(median(released.flatMap((h) => (h.clientAckDelayMs === null ? [] : [h.clientAckDelayMs]))))} ms; `
    + `median held length ${f(median(held.map((h) => h.len)))} B, unacked before it ${f(median(held.map((h) => h.unackedBefore)))} B; `
    + `the client's own waits, median ms: ${PHASES.map(([key, label]) => `${label} ${f(median(t.loads.flatMap((l) => { const v = l.clientPhases[key]; return v === null ? [] : [v]; })))}`).join(', ')}`;
}

const PHASES: ReadonlyArray<readonly [keyof ClientPhases, string]> = [
  ['startToSynMs', 'start → SYN'],
  ['upToDocumentRequestMs', 'connection up → document request'],
  ['documentToSubresourceMs', 'document bytes → first subresource request'],
  ['lastByteToEndMs', 'last byte → end'],
];

async function main(argv: readonly string[]): Promise<number> {
  const cl = benchCommandLine(argv, COMMAND);
  if (!cl) return 0;
  const servers = String(cl.values.servers ?? 'nginx,plain,apache').split(',').map((s) => s.trim()).filter(Boolean);
  const bad = servers.filter((s) => !isZooMember(s));
  if (bad.length > 0) throw benchUsage(`--servers: unknown ${bad.join(', ')}`);
  const loads = Number(cl.values.loads ?? 5);
  if (!Number.isInteger(loads) || loads < 1) throw benchUsage(`--loads must be an integer ≥ 1, got ${String(cl.values.loads)}`);
  const ssEvery = Number(cl.values['ss-every'] ?? 5);
  if (!Number.isFinite(ssEvery) || ssEvery < 0) throw benchUsage(`--ss-every must be a number ≥ 0, got ${String(cl.values['ss-every'])}`);
  const out = String(cl.values.out ?? 'bench/results/tmp/zoo-tail-trace.json');
  await ensureLinkPrivileges();
  const cliPath = join(resolve(__dirname, '..', '..'), 'bin', 'getlist.js');
  const work = mkdtempSync(join(tmpdir(), 'zoo-tail-'));
  const traces: MemberTrace[] = [];
  try {
    for (const member of servers as ZooMember[]) {
      const controls = { nodelay: member === 'plain' && cl.values['plain-nodelay'] === true, nopushOff: member === 'nginx' && cl.values['nginx-nopush-off'] === true };
      traces.push(await traceMember(member, loads, ssEvery, cliPath, work, controls, (l) => process.stderr.write(`${l}\n`)));
      writeFileSync(out, `${JSON.stringify({ date: new Date().toISOString(), argv, traces }, null, 1)}\n`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  process.stdout.write(`${traces.map(summary).join('\n')}\n`);
  return 0;
}

runMain('zoo-tail-trace', () => main(process.argv.slice(2)));
