/**
 * `getlist demo` over the packet-level link: the demo server in the server namespace, each
 * `getlist load URL --strategy S --json` in the client namespace (a fresh process per run, so every
 * run opens fresh connections), runs interleaved per page as in `getlist demo`
 * (s1, s2, …, s1, s2, …). Handshakes, slow start and RTT are real kernel TCP.
 */
import { getPage } from '../../native-host/demo/corpus';
import type { RunJson } from '../../src/run';
import { startLink, type Link, type LinkInfo } from '../link/link-emulator';
import { BenchRunError } from '../cli/bench-run-error';
import { firstLoadRun, runGetlistLoad } from '../run/getlist-contender';
import type { LinkParams } from '../run/results-schema';
import type { DemoLinkOptions } from './demo-link-options';
import { DemoLinkError } from './demo-link-error';
import { startDemoServerIn } from './demo-server-process';


/** The name the client namespace resolves (through its hosts file) to the server address. */
export const DEMO_HOST = 'demo.getlist.test';
const DEMO_PORT = 80;

export interface DemoLinkPage {
  /** Canonical page name, e.g. `pm95-2544-10`. */
  page: string;
  title: string;
  url: string;
  /** Requests one load makes (document included). */
  requests: number;
  runs: RunJson[];
}

export interface DemoLinkResult {
  link: { name: string } & LinkParams;
  info: LinkInfo;
  server: { origin: string; address: string; port: number };
  pages: DemoLinkPage[];
}

export interface RunDemoLinkOptions extends DemoLinkOptions {
  /** The script implementing `--serve` (the bundled entry point). */
  serverEntry: string;
  cliPath: string;
  progress: (line: string) => void;
  /** @default startLink */
  startLink?: typeof startLink;
}

/** runs[0] of `getlist load --json`; throws `E_RUN_BAD_OUTPUT` when stdout is not that. */
export function parseRunJson(stdout: string): RunJson {
  const run = firstLoadRun(stdout) as Partial<RunJson>;
  if (typeof run.totalMs !== 'number' || !Array.isArray(run.requests) || !Array.isArray(run.handshakes)) {
    throw new BenchRunError('E_RUN_BAD_OUTPUT', `getlist JSON has no runs[0] with totalMs, requests and handshakes: ${stdout.slice(0, 200)}`);
  }
  return run as RunJson;
}

async function loadOnce(link: Link, o: RunDemoLinkOptions, url: string, strategy: string): Promise<RunJson> {
  return parseRunJson(await runGetlistLoad(link, o.cliPath, [url, '--strategy', strategy], o.timeoutMs, `getlist load --strategy ${strategy} ${url}`));
}

export async function runDemoLink(o: RunDemoLinkOptions): Promise<DemoLinkResult> {
  const pages = o.pages.map((name) => getPage(name));
  const link = await (o.startLink ?? startLink)({ ...o.linkParams, hosts: 1, seed: 1 });
  try {
    const address = link.serverAddrs[0] as string;
    link.setClientHosts({ [DEMO_HOST]: address });
    const server = await startDemoServerIn(link, { entry: o.serverEntry, host: address, port: DEMO_PORT, pages: pages.map((p) => p.name) });
    const origin = `http://${DEMO_HOST}${server.port === 80 ? '' : `:${server.port}`}`;
    o.progress(`demo server (pid ${server.pid}) listening on ${server.origin} in ${link.serverNs}; loads run in ${link.clientNs} as ${origin}`);
    const results: DemoLinkPage[] = [];
    for (const page of pages) {
      const url = `${origin}${page.path}`;
      o.progress(`${page.name}: ${page.title}`);
      const runs: RunJson[] = [];
      for (let rep = 1; rep <= o.repeat; rep++) {
        for (const strategy of o.strategies) {
          let run: RunJson;
          try {
            run = await loadOnce(link, o, url, strategy);
          } catch (err) {
            const gone = server.exited();
            throw gone === undefined ? err : new DemoLinkError('E_DEMO_SERVER', gone);
          }
          runs.push({ ...run, repeat: rep });
          const tcp = run.handshakes.map((h) => h.tcpMs);
          const connect = tcp.length ? `, TCP connect ${Math.min(...tcp).toFixed(1)}–${Math.max(...tcp).toFixed(1)} ms` : '';
          o.progress(`  ${strategy.padEnd(9)} run ${rep}/${o.repeat}: ${run.totalMs.toFixed(0)} ms, ${run.requests.length} requests, ${run.connectionsOpened} connections${connect}`);
        }
      }
      results.push({ page: page.name, title: page.title, url, requests: page.resources.length + 1, runs });
    }
    return {
      link: { name: o.link, ...o.linkParams },
      info: link.info,
      server: { origin, address, port: server.port },
      pages: results,
    };
  } finally {
    await link.close().catch(() => undefined);
  }
}
