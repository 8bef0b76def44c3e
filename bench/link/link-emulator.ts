/**
 * A Mahimahi-style emulated link between two network namespaces: real kernel TCP on both sides, a
 * user-space forwarder (forwarder.c) in between applying delay, rate, queue and loss per direction.
 *
 *   client ns (198.18.0.1) ─gl0─▶ forwarder ─gl0─▶ server ns (198.19.0.1 … 198.19.0.N on lo)
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import { release } from 'node:os';
import { cleanupStale, releaseSync, removeEtcDir, track, untrack, type LinkResources } from './cleanup-registry';
import { ensureForwarder } from './forwarder-build';
import { ForwarderProcess, type ForwarderStats } from './forwarder-process';
import { hostsFile, type HostMap } from './host-resolution';
import { CLIENT_ADDR, CLIENT_NET, LINK_MTU, SERVER_NET, TUN_DEV, namespaceNames, serverAddr } from './link-addresses';
import { LinkError } from './link-error';
import { resolveLinkOptions, type DirectionConfig, type LinkOptions } from './link-options';
import { deleteNamespace, inNamespace, ip, readSysctl } from './netns';
import { inRootlessWrapper, type LinkPrivilege } from './rootless';

/** What TCP in the namespaces actually runs with, read back after setup. */
export interface LinkInfo {
  congestionControl: string;
  /** net.ipv4.tcp_slow_start_after_idle (1: cwnd falls back to the initial window after an idle RTO). */
  slowStartAfterIdle: number;
  /** Initial congestion window in segments, pinned on the routes (`ip route … initcwnd`). */
  initCwnd: number;
  initRwnd: number;
  mtu: number;
  kernel: string;
  rttMs: number;
  up: DirectionConfig;
  down: DirectionConfig;
  /** 'rootless' when built inside the user-namespace wrapper of rootless.ts, else 'root'. */
  privilege?: LinkPrivilege;
}

export interface Link {
  clientNs: string;
  serverNs: string;
  clientAddr: string;
  serverAddrs: string[];
  info: LinkInfo;
  /** The forwarder's pid (it runs in the caller's namespace and holds both TUN devices). */
  forwarderPid: number;
  /** Spawns `cmd` inside the client namespace (`ip netns exec`); it is killed if still running at close. */
  execInClient(cmd: string, args?: readonly string[], opts?: SpawnOptions): ChildProcess;
  execInServer(cmd: string, args?: readonly string[], opts?: SpawnOptions): ChildProcess;
  /** Writes the client namespace's hosts file (see `hostsFile`); returns its path. */
  setClientHosts(hosts: HostMap): string;
  stats(): Promise<ForwarderStats>;
  /** Idempotent. Resolves with the forwarder's final counters when it wrote them. */
  close(): Promise<ForwarderStats | undefined>;
}

/** Injectable for tests (docs/architecture.md, "Conventions": dependencies passed in with defaults). */
export interface LinkDeps {
  getuid: () => number;
  forwarderBinary: () => Promise<string>;
  /** True inside the rootless wrapper (see rootless.ts). @default false */
  rootless?: () => boolean;
}

const defaultDeps: LinkDeps = { getuid: () => process.getuid?.() ?? -1, forwarderBinary: () => ensureForwarder(), rootless: () => inRootlessWrapper() };
const INIT_CWND = 10; // RFC 6928, Linux's default; pinned so a host-wide route setting cannot leak in
let linkCount = 0;
let staleCleaned = false;

async function prepareNamespace(ns: string): Promise<void> {
  await ip(['netns', 'add', ns]);
  // IPv6 off before the TUN device exists, so no router solicitations or MLD reports cross the link.
  await inNamespace(ns, 'sysctl', ['-q', '-w', 'net.ipv6.conf.all.disable_ipv6=1', 'net.ipv6.conf.default.disable_ipv6=1',
    'net.ipv4.tcp_congestion_control=reno']);
  await ip(['-n', ns, 'link', 'set', 'lo', 'up']);
}

async function configureAddresses(clientNs: string, serverNs: string, serverAddrs: string[]): Promise<void> {
  const route = ['initcwnd', String(INIT_CWND), 'initrwnd', String(INIT_CWND)];
  await ip(['-n', clientNs, 'addr', 'add', `${CLIENT_ADDR}/32`, 'dev', TUN_DEV]);
  await ip(['-n', clientNs, 'link', 'set', TUN_DEV, 'mtu', String(LINK_MTU), 'up']);
  await ip(['-n', clientNs, 'route', 'add', SERVER_NET, 'dev', TUN_DEV, 'src', CLIENT_ADDR, ...route]);
  for (const addr of serverAddrs) await ip(['-n', serverNs, 'addr', 'add', `${addr}/32`, 'dev', 'lo']);
  await ip(['-n', serverNs, 'link', 'set', TUN_DEV, 'mtu', String(LINK_MTU), 'up']);
  await ip(['-n', serverNs, 'route', 'add', CLIENT_NET, 'dev', TUN_DEV, 'src', serverAddrs[0] ?? serverAddr(1), ...route]);
}

async function readInfo(clientNs: string, serverNs: string, rttMs: number, up: DirectionConfig, down: DirectionConfig, privilege: LinkPrivilege): Promise<LinkInfo> {
  const cc = [await readSysctl(clientNs, 'net.ipv4.tcp_congestion_control'), await readSysctl(serverNs, 'net.ipv4.tcp_congestion_control')];
  if (cc.some((c) => c !== 'reno')) throw new LinkError('E_LINK_SETUP', `congestion control should be reno in both namespaces; got ${cc.join(' / ')}`);
  const route = await ip(['-n', serverNs, 'route', 'show', CLIENT_NET]);
  const num = (re: RegExp): number => Number(re.exec(route)?.[1] ?? NaN);
  return {
    congestionControl: 'reno',
    slowStartAfterIdle: Number(await readSysctl(serverNs, 'net.ipv4.tcp_slow_start_after_idle')),
    initCwnd: num(/initcwnd (\d+)/),
    initRwnd: num(/initrwnd (\d+)/),
    mtu: LINK_MTU,
    kernel: release(),
    rttMs,
    up,
    down,
    privilege,
  };
}

/** Builds the namespaces, the devices and the forwarder; everything is removed again on failure. */
export async function startLink(opts: LinkOptions, deps: LinkDeps = defaultDeps): Promise<Link> {
  const privilege: LinkPrivilege | undefined = deps.rootless?.() ? 'rootless' : deps.getuid() === 0 ? 'root' : undefined;
  if (privilege === undefined) {
    throw new LinkError('E_LINK_NEEDS_ROOT', 'the link emulator creates network namespaces and TUN devices, which needs root or the rootless wrapper: '
      + 'run as root, or call ensureLinkPrivileges() from bench/link/rootless.ts at the start of the entry point');
  }
  const config = resolveLinkOptions(opts);
  if (!existsSync('/dev/net/tun')) throw new LinkError('E_LINK_TOOL_MISSING', '/dev/net/tun does not exist (modprobe tun)');
  const binary = await deps.forwarderBinary();
  if (!staleCleaned) {
    staleCleaned = true;
    await cleanupStale();
  }
  const { clientNs, serverNs } = namespaceNames(process.pid, ++linkCount);
  const serverAddrs = Array.from({ length: config.hosts }, (_, i) => serverAddr(i + 1));
  const res: LinkResources = { namespaces: [], forwarder: undefined, children: new Set() };
  track(res);
  try {
    for (const ns of [clientNs, serverNs]) {
      res.namespaces.push(ns);
      await prepareNamespace(ns);
    }
    res.forwarder = await ForwarderProcess.start(binary, config, clientNs, serverNs);
    await configureAddresses(clientNs, serverNs, serverAddrs);
    const info = await readInfo(clientNs, serverNs, config.rttMs, config.up, config.down, privilege);
    return makeLink(res, res.forwarder, { clientNs, serverNs, serverAddrs, info });
  } catch (err) {
    releaseSync(res);
    throw err;
  }
}

function makeLink(res: LinkResources, forwarder: ForwarderProcess, base: Pick<Link, 'clientNs' | 'serverNs' | 'serverAddrs' | 'info'>): Link {
  let closing: Promise<ForwarderStats | undefined> | undefined;
  const exec = (ns: string) => (cmd: string, args: readonly string[] = [], opts: SpawnOptions = {}): ChildProcess => {
    if (closing) throw new LinkError('E_LINK_CLOSED', `cannot start ${cmd}: the link is closed`);
    const child = spawn('ip', ['netns', 'exec', ns, cmd, ...args], opts);
    res.children.add(child);
    child.once('exit', () => res.children.delete(child));
    return child;
  };
  const close = async (): Promise<ForwarderStats | undefined> => {
    for (const child of res.children) child.kill('SIGKILL');
    const final = await forwarder.stop();
    for (const ns of res.namespaces) {
      await deleteNamespace(ns);
      removeEtcDir(ns);
    }
    untrack(res);
    return final;
  };
  return {
    ...base,
    clientAddr: CLIENT_ADDR,
    forwarderPid: forwarder.pid,
    execInClient: exec(base.clientNs),
    execInServer: exec(base.serverNs),
    setClientHosts: (hosts) => hostsFile(base.clientNs, hosts),
    stats: () => (closing ? Promise.reject(new LinkError('E_LINK_CLOSED', 'the link is closed')) : forwarder.stats()),
    close: () => (closing ??= close()),
  };
}
