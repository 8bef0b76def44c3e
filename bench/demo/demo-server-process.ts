/**
 * getlist's own demo server (native-host/demo/demo-server.ts, Node HTTP/1.1: no nginx needed) run
 * inside the server namespace of an emulated link.
 *
 * The entry point re-executes itself there (`link.execInServer(node, [entry, '--serve', …])`).
 * The child builds and warms the pages it will serve (so the first strategy measured does not pay
 * for synthesising bodies), listens on the server address, and prints one JSON line
 * `{"ready":true,"origin":…,"port":…,"pid":…}` on stdout. It exits when its stdin reaches EOF, that
 * is when the parent goes, however it goes; `link.close()` also SIGKILLs it.
 */
import { intValue, listValue } from '../cli/command-line';
import type { ChildProcess } from 'node:child_process';
import { defaultCorpus } from '../../native-host/demo/corpus';
import { startDemoServer } from '../../native-host/demo/demo-server';
import type { Link } from '../link/link-emulator';
import { DemoLinkError } from './demo-link-error';

export interface DemoServerReady {
  ready: true;
  /** e.g. `http://198.19.0.1:80` */
  origin: string;
  port: number;
  pid: number;
}

/** Builds every body of `pages` once, so the server's lazy synthesis is out of the measured loads. */
export function warmPages(pages: readonly string[]): number {
  const corpus = defaultCorpus();
  let bytes = 0;
  for (const name of pages) {
    const page = corpus.getPage(name);
    for (const path of [page.path, ...page.resources.map((r) => r.path)]) bytes += corpus.getBody(path)?.body.length ?? 0;
  }
  return bytes;
}

/** The `--serve` mode: runs until stdin ends. */
/**
 * A bench's hidden `--serve` mode (`--host`, `--port`, `--page`): the demo server it starts in a
 * link namespace. Undefined when not asked; else the exit status once stdin ends.
 */
export function serveWhenAsked(v: Readonly<Record<string, string | boolean | undefined>>, defaultPage: string, usage: (message: string) => Error): Promise<number> | undefined {
  if (v.serve !== true) return undefined;
  return serveDemo(String(v.host ?? '127.0.0.1'), intValue(v.port, 'port', 80, 0, 65535, usage), listValue(v.page) ?? [defaultPage]);
}

export async function serveDemo(host: string, port: number, pages: readonly string[]): Promise<number> {
  warmPages(pages);
  const server = await startDemoServer({ host, port });
  const ready: DemoServerReady = { ready: true, origin: server.origin, port: server.port, pid: process.pid };
  process.stdout.write(`${JSON.stringify(ready)}\n`);
  await new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
    process.stdin.once('error', () => resolve());
    process.stdin.resume();
  });
  await server.close();
  return 0;
}

export interface DemoServerInNamespace extends DemoServerReady {
  child: ChildProcess;
  /** Set once the server process has exited: why, and the end of its stderr. */
  exited(): string | undefined;
}

export interface StartDemoServerOptions {
  /** The script that implements `--serve` (the bundled entry point). */
  entry: string;
  host: string;
  port: number;
  pages: readonly string[];
  /** @default 60_000 (building mcmanus-159 takes a while on a busy machine) */
  readyTimeoutMs?: number;
}

/** Starts the demo server in the link's server namespace and resolves once it listens. */
export function startDemoServerIn(link: Pick<Link, 'execInServer'>, o: StartDemoServerOptions): Promise<DemoServerInNamespace> {
  const args = [o.entry, '--serve', '--host', o.host, '--port', String(o.port), '--page', o.pages.join(',')];
  // stdin stays an open pipe that nobody writes: its EOF tells the server that we are gone.
  const child = link.execInServer(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  let exitReason: string | undefined;
  const tail = (): string => (stderr.trim() ? `: ${stderr.trim().split('\n').slice(-5).join(' | ').slice(-600)}` : '');
  child.stderr?.setEncoding('utf8').on('data', (s: string) => {
    stderr = (stderr + s).slice(-8192);
  });
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (message: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new DemoLinkError('E_DEMO_SERVER', message));
    };
    const timer = setTimeout(() => fail(`the demo server in the server namespace did not report ready within ${o.readyTimeoutMs ?? 60_000} ms${tail()}`), o.readyTimeoutMs ?? 60_000);
    child.once('error', (err) => fail(`could not start the demo server in the server namespace: ${err.message}`));
    child.once('exit', (code, signal) => {
      exitReason = `the demo server in the server namespace exited (${signal ?? `status ${code}`})${tail()}`;
      fail(exitReason);
    });
    child.stdout?.setEncoding('utf8').on('data', (s: string) => {
      if (settled) return;
      stdout += s;
      const nl = stdout.indexOf('\n');
      if (nl < 0) return;
      let ready: DemoServerReady;
      try {
        ready = JSON.parse(stdout.slice(0, nl)) as DemoServerReady;
      } catch {
        fail(`the demo server printed ${JSON.stringify(stdout.slice(0, 200))} instead of its ready line`);
        return;
      }
      if (ready.ready !== true || typeof ready.port !== 'number') {
        fail(`the demo server's ready line lacks ready/port: ${stdout.slice(0, 200)}`);
        return;
      }
      settled = true;
      clearTimeout(timer);
      resolve({ ...ready, child, exited: () => exitReason });
    });
  });
}
