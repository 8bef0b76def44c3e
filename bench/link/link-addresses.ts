/**
 * The emulated network's addresses. They sit in 198.18.0.0/15, the block RFC 2544 reserves for
 * benchmarking, and exist only inside the namespaces a link creates.
 */
export const CLIENT_ADDR = '198.18.0.1';
export const CLIENT_NET = '198.18.0.0/16';
export const SERVER_NET = '198.19.0.0/16';
/** The TUN device's name in both namespaces. */
export const TUN_DEV = 'gl0';
export const LINK_MTU = 1500;

/** The i-th server address, 1-based: 198.19.0.1, 198.19.0.2, … */
export function serverAddr(i: number): string {
  return `198.19.0.${i}`;
}

/** Namespace names carry the owner's pid so `cleanupStale` can tell leftovers from live links. */
export const NAMESPACE_PATTERN = /^gl-[cs]-(\d+)-(\d+)$/;

export function namespaceNames(pid: number, n: number): { clientNs: string; serverNs: string } {
  return { clientNs: `gl-c-${pid}-${n}`, serverNs: `gl-s-${pid}-${n}` };
}
