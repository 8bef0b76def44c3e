import { runToJson, summarizeStrategies, type Run, type RunJson } from '../../src/run';
import type { StrategyName } from '../../src/scheduler';
import { HANDSHAKE_PHASES, phaseMs } from '../../src/stats/handshake';
import { Histogram } from '../../src/stats/histogram';
import { getPage } from '../demo/corpus';
import { startDemoServer } from '../demo/demo-server';
import { DEFAULT_DOWNLINK_BITS_PER_SEC, DEFAULT_UPLINK_BITS_PER_SEC, startLinkProxy } from '../demo/link-proxy';
import { boolFlag, intFlag, noPositionals, parseArgs, stringFlag, type FlagSpec } from './args';
import { asciiCdf } from './ascii-cdf';
import { CliError } from './cli-error';
import { usageLine, type CommandHelp } from './command-help';
import { formatTable } from './format-table';
import type { CliIo } from './io';
import { comparisonRows, runStrategies } from './load-command';
import { Recorder } from './record-option';
import { LOAD_FLAGS, parseStrategies, STRATEGIES_HELP, warmUpOption } from './strategy-options';

export const DEMO_PAGES = ['pm95', 'mcmanus-159'];
const DEFAULT_STRATEGIES: StrategyName[] = ['http10', 'browser', 'pipelined', 'getlist'];

const FLAGS: Record<string, FlagSpec> = {
  rtt: { type: 'string', value: 'MS', default: '100', description: 'emulated round-trip time, 0 to 10000' },
  downlink: { type: 'string', value: 'KBIT', default: String(DEFAULT_DOWNLINK_BITS_PER_SEC / 1000), description: 'emulated bottleneck rate towards the client, kbit/s' },
  uplink: { type: 'string', value: 'KBIT', default: String(DEFAULT_UPLINK_BITS_PER_SEC / 1000), description: 'emulated bottleneck rate towards the server, kbit/s' },
  page: {
    type: 'string',
    value: 'NAME',
    default: `all (${DEMO_PAGES.join(' and ')})`,
    description: 'pm95 (10 inlined 2544-byte images, after Padmanabhan & Mogul), mcmanus-159 (a 159-resource page, after McManus), pm95-<size>-<count>, or all',
  },
  ...LOAD_FLAGS,
  strategy: { ...LOAD_FLAGS.strategy, default: DEFAULT_STRATEGIES.join(',') },
  timeout: { ...LOAD_FLAGS.timeout, default: '300000' },
};

export const DEMO_HELP: CommandHelp = {
  synopsis: 'demo',
  summary: 'serve the bundled demo site behind an emulated link and compare strategies',
  description:
    'Serves the bundled demo site on this machine behind a user-space link emulator (no root needed) and ' +
    'loads each page with each strategy, then prints the comparison (with speed-ups over http10 and ' +
    'browser) and the handshake-time CDF. Loopback completes TCP handshakes at once, so the relay charges ' +
    'each new connection one RTT before its first byte: connection cost shows in load times while the ' +
    'measured TCP connect time reads about 0. `npm run demo:link` runs it on the packet-level link (bench/README.md).',
  flags: FLAGS,
  sections: [STRATEGIES_HELP],
};

export const DEMO_USAGE = usageLine(DEMO_HELP.synopsis, FLAGS);

/**
 * The main job: serve the bundled demo site on this machine behind an emulated link and load
 * each page with each strategy, printing the comparison and the handshake-time CDF.
 *
 * The link is emulated in user space (a delaying, rate-limiting TCP relay) so no root is needed.
 * Loopback completes TCP handshakes instantly, so the relay charges each new connection one RTT
 * before its first byte: connection cost shows up in load times, while the measured TCP connect
 * time reads ~0. The packet-level emulator in bench/ measures real handshakes.
 */
export async function demoCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs('demo', argv, FLAGS);
  noPositionals(args, DEMO_USAGE);
  const rttMs = intFlag(args, 'rtt', 100, 0, 10_000);
  const downlink = intFlag(args, 'downlink', DEFAULT_DOWNLINK_BITS_PER_SEC / 1000, 8, 10_000_000) * 1000;
  const uplink = intFlag(args, 'uplink', DEFAULT_UPLINK_BITS_PER_SEC / 1000, 8, 10_000_000) * 1000;
  const repeat = intFlag(args, 'repeat', 1, 1, 100);
  const timeoutMs = intFlag(args, 'timeout', 300_000, 100, 3_600_000);
  const json = boolFlag(args, 'json');
  const strategies = parseStrategies(args, DEFAULT_STRATEGIES);
  const pageArg = stringFlag(args, 'page');
  const pageNames = pageArg === undefined || pageArg === 'all' ? DEMO_PAGES : [pageArg];
  const pages = pageNames.map((name) => {
    try {
      return getPage(name);
    } catch (err) {
      throw new CliError('E_USAGE', `--page: ${(err as Error).message}`);
    }
  });

  const server = await startDemoServer();
  const link = await startLinkProxy({ target: { host: '127.0.0.1', port: server.port }, rttMs, downlinkBitsPerSec: downlink, uplinkBitsPerSec: uplink });
  const say = (s: string) => (json ? undefined : io.err(s));
  say(`getlist demo: emulated link RTT ${rttMs} ms, ${downlink / 1e6} Mbit/s down, ${uplink / 1e6} Mbit/s up (user-space relay at ${link.origin})\n`);
  const allRuns: Run[] = [];
  const report: Array<{ page: string; title: string; url: string; requests: number; runs: RunJson[] }> = [];
  let recorder: Recorder | undefined;
  try {
    recorder = await Recorder.open(args);
    for (const page of pages) {
      const url = `${link.origin}${page.path}`;
      say(`\n${page.name}: ${page.title}\n`);
      const runs = await runStrategies(url, strategies, repeat, { timeoutMs, ...warmUpOption(args) }, (run, rep) => {
        say(`  ${run.strategy.padEnd(9)} run ${rep}/${repeat}: ${run.totalMs.toFixed(0)} ms\n`);
      });
      allRuns.push(...runs.map((r) => r.run));
      report.push({ page: page.name, title: page.title, url, requests: page.resources.length + 1, runs: runs.map(({ run, repeat: r }) => runToJson(run, r)) });
      if (!json) printPage(io, page.name, runs.map((r) => r.run));
    }
    await recorder?.record(allRuns, json ? undefined : io);
  } finally {
    await link.close();
    await server.close();
    await recorder?.close();
  }

  const phases = HANDSHAKE_PHASES.map((phase) => {
    const h = new Histogram();
    for (const run of allRuns) for (const hs of run.handshakes) h.record(phaseMs(hs, phase));
    return { phase, histogram: h };
  });
  if (json) {
    io.out(`${JSON.stringify({
      link: { rttMs, downlinkBitsPerSec: downlink, uplinkBitsPerSec: uplink, emulation: 'user-space relay; TCP handshake RTT charged to first byte' },
      pages: report,
      handshakeCdf: Object.fromEntries(phases.map((p) => [p.phase, p.histogram.cdf()])),
    })}\n`);
    return 0;
  }
  io.out('\nHandshake time CDF, every connection opened (measured at the socket)\n');
  io.out(`${asciiCdf(phases.filter((p) => p.phase === 'tcp' || p.phase === 'total').map((p) => ({ label: p.phase, histogram: p.histogram })))}\n`);
  io.out(`${tcpNote(allRuns)}\n`);
  return 0;
}

/** The demo's comparison table: one row per strategy, with its speed-up over http10 and browser. */
export function demoComparisonTable(runs: readonly Run[]): string {
  const rows = summarizeStrategies(runs);
  const { header, body } = comparisonRows(rows);
  const base = rows.find((r) => r.strategy === 'http10');
  const browser = rows.find((r) => r.strategy === 'browser');
  const withRatios = body.map((cells, i) => {
    const r = rows[i];
    return [...cells, base && r ? base.totalMs / r.totalMs : NaN, browser && r ? browser.totalMs / r.totalMs : NaN];
  });
  return formatTable([...header, '× vs http10', '× vs browser'], withRatios);
}

function printPage(io: CliIo, name: string, runs: readonly Run[]): void {
  io.out(`\n${name}\n${demoComparisonTable(runs)}\n`);
}

/**
 * What the TCP line of the CDF measured. On the user-space relay the kernel completes the TCP
 * handshake on loopback (the link's RTT is charged to each new connection's first byte instead),
 * so the figure is a loopback connect plus the event loop's own delay, which the records bound.
 */
export function tcpNote(runs: readonly Run[]): string {
  const tcp = new Histogram();
  const loop = new Histogram();
  for (const run of runs) {
    for (const h of run.handshakes) {
      tcp.record(h.tcpMs);
      if (h.loopDelayMs !== undefined) loop.record(h.loopDelayMs);
    }
  }
  if (tcp.count === 0) return 'Note: no connection was opened, so no TCP connect time was measured.';
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const bound = loop.count > 0 ? `; the event loop was busy for up to ${ms(loop.percentile(50))} (p50) of each, which the records carry as loopDelayMs` : '';
  return `Note: TCP here is a loopback connect, not the link's RTT (the relay charges the RTT to each new\n` +
    `connection's first byte): p50 ${ms(tcp.percentile(50))}, p90 ${ms(tcp.percentile(90))}${bound}.\n` +
    'See `npm run demo:link` for handshakes over the packet-level link.';
}
