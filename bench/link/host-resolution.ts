/**
 * Making names resolve to the emulated servers: a hosts file for tools run in the client namespace,
 * and a `--host-resolver-rules` value for Chromium (which can bypass /etc/hosts with its own resolver).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NETNS_ETC } from './cleanup-registry';
import { LinkError } from './link-error';

/** Host name → IPv4 address. */
export type HostMap = Readonly<Record<string, string>> | ReadonlyMap<string, string>;

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/i;
const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;

function entries(hosts: HostMap): Array<[string, string]> {
  const list = hosts instanceof Map ? [...hosts] : Object.entries(hosts as Record<string, string>);
  for (const [name, addr] of list) {
    if (!HOST_NAME.test(name)) throw new LinkError('E_LINK_BAD_OPTION', `host name must be letters, digits, '-', '_' and dots; got ${JSON.stringify(name)}`);
    if (!IPV4.test(addr)) throw new LinkError('E_LINK_BAD_OPTION', `address for ${name} must be dotted IPv4; got ${JSON.stringify(addr)}`);
  }
  return list;
}

/** The text of a hosts file mapping `hosts`, with localhost kept. */
export function formatHostsFile(hosts: HostMap): string {
  const lines = ['127.0.0.1\tlocalhost', '::1\tlocalhost ip6-localhost ip6-loopback'];
  for (const [name, addr] of entries(hosts)) lines.push(`${addr}\t${name}`);
  return `${lines.join('\n')}\n`;
}

/**
 * Writes /etc/netns/<ns>/hosts, which `ip netns exec <ns>` mounts over /etc/hosts, and returns its
 * path. The link removes the directory when it closes.
 */
export function hostsFile(ns: string, hosts: HostMap, etcDir: string = NETNS_ETC): string {
  const dir = join(etcDir, ns);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'hosts');
  writeFileSync(path, formatHostsFile(hosts));
  return path;
}

/** The value for Chromium's `--host-resolver-rules=`: "MAP a.test 198.19.0.1,MAP b.test 198.19.0.2". */
export function hostResolverRules(hosts: HostMap): string {
  return entries(hosts).map(([name, addr]) => `MAP ${name} ${addr}`).join(',');
}
