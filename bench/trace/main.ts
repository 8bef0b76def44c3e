/**
 * `node dist/bench/trace.js --link L --page P [--strategy S] [--scheme http|https] [--ss-every MS]`
 * (`--help` lists the options and defaults, bench/trace/trace-args.ts) — one getlist load on one
 * emulated link, traced: every request's discovery, send, first byte and end (ms from the load's
 * start) and connection, plus the server side's TCP state (`ss -tin` in the
 * server namespace: cwnd, bytes acked, RTT) sampled every MS ms while the load runs. This is the tool
 * for answering "where did the time go" against the lower bound (bench/model/MODEL.md). Runs as
 * root, or rootless where unprivileged user namespaces are allowed.
 * Prints JSON to stdout; progress to stderr.
 */
import { startLink } from '../link/link-emulator';
import { ensureLinkPrivileges } from '../link/rootless';
import { getBenchPage } from '../corpus/bench-corpus';
import { netnsSpawn, startOrigins } from '../origins/start-origins';
import { BenchRunError } from '../cli/bench-run-error';
import { childOutput } from '../run/child-output';
import { linkPreset } from '../run/link-presets';
import { helpText } from '../cli/command-line';
import { parseTraceArgs, TRACE_COMMAND } from './trace-args';
import { originsFor } from '../run/run-link';
import { join, resolve } from 'node:path';
import { parseSsTin, type SsSample } from './ss-sample';
import { runMain } from '../cli/run-main';

async function main(argv: readonly string[]): Promise<number> {
  const args = parseTraceArgs(argv); // usage errors first: no rootless re-run for those
  if (args.mode === 'help') {
    process.stdout.write(`${helpText(TRACE_COMMAND)}\n`);
    return 0;
  }
  const { link: linkName, page: pageName, strategy, scheme, ssEveryMs: ssEvery } = args.options;
  getBenchPage(pageName); // E_BENCH_UNKNOWN_PAGE before the rootless re-run too
  await ensureLinkPrivileges();
  const root = resolve(__dirname, '..', '..');
  const names = originsFor([pageName]);
  const link = await startLink({ ...linkPreset(linkName), hosts: names.length, seed: 1 });
  const hostMap = Object.fromEntries(names.map((n, i) => [n, link.serverAddrs[i] ?? '']));
  link.setClientHosts(hostMap);
  const origins = await startOrigins({
    bindings: names.map((origin) => ({ origin, address: hostMap[origin] ?? '', httpPort: 80, httpsPort: 443 })),
    pages: [pageName],
    linkHosts: 'name',
    spawn: netnsSpawn(link.serverNs),
  });
  try {
    const url = origins.pageUrl(pageName, scheme);
    const samples: SsSample[] = [];
    const t0 = Date.now();
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const [server, client] = await Promise.all([link.execInServer, link.execInClient].map(async (exec) => {
          const out = await childOutput(exec('ss', ['-tin'], { stdio: ['ignore', 'pipe', 'pipe'] }), 5_000, 'ss');
          return parseSsTin(out.stdout);
        }));
        samples.push({ tMs: Date.now() - t0, sockets: server ?? {}, client: client ?? {} });
        await new Promise((r) => setTimeout(r, ssEvery));
      }
    })();
    const child = link.execInClient(process.execPath, [join(root, 'bin', 'getlist.js'), 'load', url, '--strategy', strategy, '--json', '--ca', origins.caPath], { stdio: ['ignore', 'pipe', 'pipe']});
    const out = await childOutput(child, 300_000, `getlist ${strategy}`);
    sampling = false;
    await sampler;
    if (out.code !== 0) throw new BenchRunError('E_RUN_FAILED', out.stderr.slice(-500));
    const load = JSON.parse(out.stdout) as { runs: unknown[] };
    process.stdout.write(`${JSON.stringify({ link: linkName, page: pageName, strategy, scheme, info: link.info, run: load.runs[0], ss: samples, accessLog: origins.accessLog() })}\n`);
    return 0;
  } finally {
    await origins.stop().catch(() => undefined);
    await link.close().catch(() => undefined);
  }
}

runMain('trace', () => main(process.argv.slice(2)));
