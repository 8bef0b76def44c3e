/**
 * The overhead benchmark's site on the packet-level link: one emulated link (bench/link), the
 * site's server in the server namespace on its address, port 80, and Chromium started in the
 * client namespace by the caller (bench/run/chromium-contender.ts `launchInNamespace`). The server
 * is this entry point re-run in the server namespace (`--serve-site HOST:PORT`), which prints one
 * JSON line `{"origin": …}` once it listens and stops when its stdin closes or on SIGTERM.
 */
import type { ChildProcess } from 'node:child_process';
import { startLink, type Link, type LinkInfo } from '../link/link-emulator';
import { NO_CAP_BITS_PER_SEC } from '../real/real-bounds';
import { BenchRunError } from '../cli/bench-run-error';
import type { LinkParams } from '../run/results-schema';
import { startOverheadSite, type OverheadSite } from './overhead-site';

/** The server must be listening within this long of its start. */
export const SITE_START_TIMEOUT_MS = 10_000;

export interface LinkSite extends OverheadSite {
  clientNs: string;
  info: LinkInfo;
}

export interface LinkSiteDeps {
  startLink: typeof startLink;
  /** The command that serves the site on `host:port` (argv[0] is the executable). */
  siteCommand: (hostPort: string) => string[];
}

const defaultDeps: LinkSiteDeps = {
  startLink,
  siteCommand: (hostPort) => [process.execPath, process.argv[1] ?? '', '--serve-site', hostPort],
};

/**
 * Waits for the child's `{"origin": …}` line. Rejects with E_OVERHEAD_SITE, quoting the child's
 * stderr, when it exits first, writes anything else first, or says nothing within `timeoutMs`.
 */
export function awaitSiteOrigin(child: ChildProcess, timeoutMs = SITE_START_TIMEOUT_MS): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const fail = (why: string): void => {
      done();
      child.kill('SIGKILL');
      reject(new BenchRunError('E_OVERHEAD_SITE', `the overhead site's server ${why}${err.trim() ? `: ${err.trim().slice(-500)}` : ''}`));
    };
    const onOut = (b: Buffer): void => {
      out += b.toString('utf8');
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      const line = out.slice(0, nl);
      let origin: unknown;
      try {
        origin = (JSON.parse(line) as { origin?: unknown }).origin;
      } catch {
        origin = undefined;
      }
      if (typeof origin !== 'string' || !/^http:\/\/[^/]+$/.test(origin)) return fail(`printed ${JSON.stringify(line.slice(0, 200))}, not {"origin": "http://host[:port]"}`);
      done();
      resolve(origin);
    };
    const onErr = (b: Buffer): void => {
      err += b.toString('utf8');
    };
    const onExit = (code: number | null, signal: string | null): void => fail(`exited (${signal ?? `status ${code}`}) before it listened`);
    const onSpawnError = (e: Error): void => fail(`could not start (${e.message})`);
    const timer = setTimeout(() => fail(`did not listen within ${timeoutMs} ms`), timeoutMs);
    function done(): void {
      clearTimeout(timer);
      child.stdout?.off('data', onOut);
      child.off('exit', onExit);
      child.off('error', onSpawnError);
    }
    child.stdout?.on('data', onOut);
    child.stderr?.on('data', onErr);
    child.once('exit', onExit);
    child.once('error', onSpawnError);
  });
}

/** Starts the link (no cap: the emulator at 1 Gbit/s, as bench/real runs it) and the site in its server namespace. */
export async function startLinkSite(params: LinkParams, deps: LinkSiteDeps = defaultDeps): Promise<LinkSite> {
  const rate = (bits: number) => (bits > 0 ? bits : NO_CAP_BITS_PER_SEC);
  const link: Link = await deps.startLink({ rttMs: params.rttMs, downBitsPerSec: rate(params.downBitsPerSec), upBitsPerSec: rate(params.upBitsPerSec), loss: params.loss, hosts: 1, seed: 1 });
  try {
    const [cmd, ...args] = deps.siteCommand(`${link.serverAddrs[0] ?? ''}:80`);
    const child = link.execInServer(cmd ?? '', args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const origin = await awaitSiteOrigin(child);
    return {
      origin,
      clientNs: link.clientNs,
      info: link.info,
      url: (n) => `${origin}/page-${n}.html`,
      close: async () => {
        child.stdin?.end();
        await link.close();
      },
    };
  } catch (err) {
    await link.close().catch(() => undefined);
    throw err;
  }
}

/** `--serve-site HOST:PORT`: serves the site until stdin closes or SIGTERM; a bad value is E_BENCH_USAGE. */
export async function serveSite(hostPort: string): Promise<void> {
  const m = /^(\d{1,3}(?:\.\d{1,3}){3}):(\d{1,5})$/.exec(hostPort);
  const port = Number(m?.[2]);
  if (m === null || port > 65_535) throw new BenchRunError('E_BENCH_USAGE', `--serve-site must be IPv4:PORT; got ${JSON.stringify(hostPort)}`);
  const site = await startOverheadSite({ host: m[1] as string, port });
  process.stdout.write(`${JSON.stringify({ origin: site.origin })}\n`);
  await new Promise<void>((stop) => {
    process.stdin.on('end', stop).on('close', stop).resume();
    process.once('SIGTERM', stop);
  });
  await site.close();
}
