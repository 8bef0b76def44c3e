import { BlockList, isIP } from 'node:net';

/**
 * Which `Host` header values the exporter answers (DNS rebinding defence). A page on
 * `http://evil.example:9464/` whose name the attacker re-points at 127.0.0.1 reaches the exporter
 * as a same-origin request, so the browser lets the page read the answer — the origins the user
 * visited. Such a request still carries `Host: evil.example:9464`. An IP literal cannot be rebound,
 * and `localhost` is not the attacker's to point, so those are safe; any other name is answered only
 * when the user named it (`--host-name`). The port must be the listening one.
 *
 * - listening on a loopback address: `localhost`, `127.0.0.1`, `[::1]` and the bound address;
 * - on one other address: that address;
 * - on every address (`0.0.0.0`, `::`): any IP literal (the machine's addresses) and `localhost`;
 * and in every case the names given.
 */
export interface HostPolicy {
  /** The listening port. */
  port: number;
  /** Lower-case names (`localhost`, user-given) and IP literals (IPv6 without brackets) answered. */
  names: ReadonlySet<string>;
  /** Any IP literal is answered (listening on every address). */
  anyAddress: boolean;
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');

/** 127.0.0.0/8, ::1, or IPv4-mapped 127.0.0.0/8. */
export function isLoopbackAddress(ip: string): boolean {
  const family = isIP(ip);
  return family !== 0 && LOOPBACK.check(ip, family === 4 ? 'ipv4' : 'ipv6');
}

export function isWildcardAddress(ip: string): boolean {
  return ip === '0.0.0.0' || ip === '::' || ip === '::ffff:0.0.0.0';
}

/** The policy of a server bound to `address`:`port`, answering also to `hostNames`. */
export function hostPolicy(address: string, port: number, hostNames: readonly string[]): HostPolicy {
  const names = new Set(hostNames.map((n) => n.toLowerCase()));
  const anyAddress = isWildcardAddress(address);
  if (anyAddress || isLoopbackAddress(address)) for (const n of ['localhost', '127.0.0.1', '::1']) names.add(n);
  if (!anyAddress) names.add(address.toLowerCase());
  return { port, names, anyAddress };
}

/** Whether a request with this `Host` header is for this exporter. */
export function isAllowedHost(header: string | undefined, policy: HostPolicy): boolean {
  if (header === undefined) return false;
  const m = /^(?:\[([0-9a-f:.]+)\]|([^:[\]]+))(?::(\d{1,5}))?$/i.exec(header.trim());
  if (!m) return false;
  const port = m[3] === undefined ? 80 : Number(m[3]);
  if (port !== policy.port) return false;
  const v6 = m[1];
  const host = (v6 ?? (m[2] as string)).toLowerCase();
  if (v6 !== undefined && isIP(v6) !== 6) return false;
  if (v6 === undefined && isIP(host) === 6) return false; // An IPv6 literal must be bracketed.
  if (policy.names.has(host)) return true;
  return policy.anyAddress && isIP(host) !== 0;
}

/** A `--host-name` value: a DNS name (letters, digits, `-`, `.`), no port, no IP literal. */
export function isHostName(name: string): boolean {
  return name.length <= 253 && /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(name) && isIP(name) === 0;
}
