/**
 * One zoo member serving a few corpus pages on an emulated link of its own with no cap: what the
 * zoo's tracers (tail-trace-main.ts, h2-trace-main.ts, first-response-main.ts) start per member.
 * The client namespace resolves each origin's name to its own server address.
 */
import { benchUsage } from '../cli/bench-command-line';
import { startLink, type Link } from '../link/link-emulator';
import type { SpawnFn } from '../origins/nginx-process';
import { netnsSpawn } from '../origins/start-origins';
import { startZoo, type ZooOrigins } from '../origins/zoo/start-zoo';
import { isZooMember, ZOO_INFO, type ZooMember } from '../origins/zoo/zoo-members';
import { NO_CAP_BITS_PER_SEC } from '../real/real-bounds';
import { originsFor } from '../run/run-link';

export interface ZooLinkOptions {
  member: ZooMember;
  pages: readonly string[];
  rttMs: number;
  /** Wraps the spawn into the server namespace (a preload for the member's processes). */
  wrapSpawn?: (spawn: SpawnFn) => SpawnFn;
  /** As `startZoo`'s: nginx without `tcp_nopush`. */
  nginxTcpNopush?: boolean;
}

export interface ZooLink {
  link: Link;
  zoo: ZooOrigins;
  /** Each origin's name and the server address the client resolves it to. */
  hostMap: Readonly<Record<string, string>>;
  /** Stops the member, then the link; never throws. */
  stop(): Promise<void>;
}

export async function startZooLink(o: ZooLinkOptions): Promise<ZooLink> {
  const names = originsFor(o.pages);
  const link = await startLink({ rttMs: o.rttMs, downBitsPerSec: NO_CAP_BITS_PER_SEC, upBitsPerSec: NO_CAP_BITS_PER_SEC, loss: 0, hosts: names.length, seed: 1 });
  try {
    const hostMap = Object.fromEntries(names.map((n, i) => [n, link.serverAddrs[i] ?? '']));
    link.setClientHosts(hostMap);
    const spawn = netnsSpawn(link.serverNs);
    const zoo = await startZoo({
      member: o.member,
      bindings: names.map((origin) => ({ origin, address: hostMap[origin] ?? '', httpPort: 80, httpsPort: 443 })),
      pages: o.pages,
      linkHosts: 'name',
      spawn: o.wrapSpawn ? o.wrapSpawn(spawn) : spawn,
      ...(o.nginxTcpNopush === false ? { nginxTcpNopush: false } : {}),
    });
    return {
      link, zoo, hostMap,
      stop: async () => {
        await zoo.stop().catch(() => undefined);
        await link.close().catch(() => undefined);
      },
    };
  } catch (err) {
    await link.close().catch(() => undefined);
    throw err;
  }
}

/**
 * `--servers`' members, each one that terminates TLS (the real-shaped pages' https origins), in
 * the order given. Throws `E_BENCH_USAGE` naming those that are not, or when none is given.
 */
export function tlsMembers(value: string): ZooMember[] {
  const names = value.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = names.filter((s) => !isZooMember(s) || !ZOO_INFO[s].tls);
  if (bad.length > 0 || names.length === 0) throw benchUsage(`--servers: not a zoo member that terminates TLS: ${bad.join(', ') || '(none given)'}`);
  return names as ZooMember[];
}
